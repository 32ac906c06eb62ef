import { Link } from './Link.tsx';
import { HELP_LINKS, LEGAL_LINKS, READING_LINKS } from '../content/legal/links.ts';
import { Logo } from './Logo.tsx';

export interface FooterGroup {
  slug: string;
  title: string;
  image: string;
  services: { name: string; slug: string }[];
}

export interface FooterProps {
  groups: FooterGroup[];
  /** What is sold by the period and how it is charged; null while the catalogue sells no subscription. */
  subscriptionNote?: string | null;
}

const SOCIAL_LABELS = ['Instagram', 'YouTube', 'TikTok', 'Facebook', 'X'] as const;

/** Site footer: logo, pitch, one column of service links per group, social labels, legal lines. */
export function Footer({ groups, subscriptionNote = null }: FooterProps) {
  return (
    <footer data-testid="site-footer" className="border-t border-line bg-surface text-gray-700">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 lg:grid-cols-[minmax(0,1.5fr)_repeat(auto-fit,minmax(10rem,1fr))]">
        <div className="max-w-xs">
          <Link
            to="/"
            aria-label="Boostly home"
            className="inline-block rounded-card focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            <Logo size="sm" />
          </Link>
          <p className="mt-4 text-sm leading-relaxed text-gray-600">
            Gradual growth for your Instagram, YouTube and TikTok accounts. No password needed.
          </p>
          {subscriptionNote ? (
            <p className="mt-2 text-sm leading-relaxed text-gray-600" data-testid="footer-subscriptions">
              {subscriptionNote}{' '}
              <Link
                to="/refund-policy"
                className="text-gray-700 underline hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
              >
                Cancelling and refunds
              </Link>
            </p>
          ) : null}
        </div>

        {groups.map((group) => (
          <div key={group.slug}>
            <h2 className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wide text-ink">
              <img src={group.image} alt="" width={20} height={20} className="h-5 w-5" />
              {group.title}
            </h2>
            <ul className="mt-4 space-y-2 text-sm">
              {group.services.map((service) => (
                <li key={service.slug}>
                  <Link
                    to={`/service/${service.slug}`}
                    className="text-gray-700 hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
                  >
                    {service.name}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ))}

        <nav aria-labelledby="footer-help-heading">
          <h2 id="footer-help-heading" className="text-sm font-semibold uppercase tracking-wide text-ink">
            Help and legal
          </h2>
          <ul className="mt-4 space-y-2 text-sm">
            {[...HELP_LINKS, ...READING_LINKS, ...LEGAL_LINKS].map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="text-gray-700 hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>

        <div>
          <h2 className="text-sm font-semibold uppercase tracking-wide text-ink">Follow us</h2>
          <ul className="mt-4 space-y-2 text-sm text-gray-700">
            {SOCIAL_LABELS.map((label) => (
              <li key={label}>{label}</li>
            ))}
          </ul>
        </div>
      </div>

      <div className="border-t border-line">
        <div className="mx-auto flex max-w-7xl flex-col gap-1 px-4 py-6 text-sm text-gray-600 sm:flex-row sm:justify-between">
          <p>© Boostly. For personal use only.</p>
          <p>Support 24 hours a day, 7 days a week, holidays included.</p>
        </div>
      </div>
    </footer>
  );
}
