import { Link } from '../Link.tsx';
import { StrokeIcon } from '../StrokeIcon.tsx';

/** The figures the badges quote, from the store settings (the loader passes them; decision 025). */
export interface GuaranteeTerms {
  /** REFUND_WINDOW_HOURS: an order that ends undelivered is refunded within this many hours. */
  refundHours: number;
  /** The refill guarantee: drops within this many days of completion are topped up on request. */
  refillDays: number;
}

/**
 * The store's promises as badges, each a link to the policy that states it in full: only what the
 * refund policy and the privacy policy really say (decisions 004 and 025), nothing broader.
 */
export function Guarantees({ terms, tone }: { terms: GuaranteeTerms; tone: 'onBrand' | 'plain' }) {
  const badges = [
    {
      to: '/refund-policy',
      title: `${terms.refundHours}-hour refund`,
      text: 'of anything not delivered',
      icon: <path d="M3 12a9 9 0 1 0 3-6.7L3 8m0-5v5h5" />,
    },
    {
      to: '/refund-policy',
      title: `${terms.refillDays}-day refill`,
      text: 'if followers drop, on request',
      icon: <path d="M21 12a9 9 0 0 1-15 6.7L3 16m0 5v-5h5M3 12a9 9 0 0 1 15-6.7L21 8m0-5v5h-5" />,
    },
    {
      to: '/privacy-policy',
      title: 'No password',
      text: 'only your username or link',
      icon: <path d="M6 10V7a6 6 0 0 1 12 0v3M4 10h16v11H4zM12 14v3" />,
    },
  ];
  const onBrand = tone === 'onBrand';
  return (
    <ul
      aria-label="Our guarantees"
      data-testid="guarantees"
      className={`grid gap-2 ${onBrand ? 'sm:grid-cols-3' : ''}`}
    >
      {badges.map((badge) => (
        <li key={badge.title}>
          <Link
            to={badge.to}
            className={`flex h-full items-center gap-3 rounded-card border px-3 py-2 text-sm ${
              onBrand
                ? 'border-white/25 bg-white/10 text-white hover:bg-white/20'
                : 'border-line bg-surface text-ink hover:border-brand-600'
            }`}
          >
            <StrokeIcon className={`h-5 w-5 shrink-0 ${onBrand ? 'text-white' : 'text-brand-700'}`}>
              {badge.icon}
            </StrokeIcon>
            <span>
              <strong className="font-bold">{badge.title}</strong>{' '}
              <span className={onBrand ? 'text-brand-100' : 'text-muted'}>{badge.text}</span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
