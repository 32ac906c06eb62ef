import { Link } from '../Link.tsx';
import { FAQ_LINK, LEGAL_LINKS } from '../../content/legal/links.ts';
import { BLOG_MENU } from './BlogHeader.tsx';

/** The blog's own footer (the store's footer is hidden on blog pages, spec "Layout rules"). */
export function BlogFooter() {
  return (
    <footer data-testid="blog-footer" className="mt-16 border-t border-gray-200 bg-gray-50 text-gray-700">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-[2fr_1fr]">
        <div className="max-w-sm">
          <Link
            to="/"
            className="inline-block rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            <img src="/images/logo.svg" alt="Boostly" width={140} height={36} className="h-9 w-auto" />
          </Link>
          <p className="mt-3 text-sm leading-relaxed text-gray-600">
            Guides and news for growing Instagram, YouTube and TikTok accounts, from the Boostly team.
          </p>
        </div>
        <nav aria-label="Blog footer">
          <ul className="space-y-2 text-sm">
            {BLOG_MENU.map((item) => (
              <li key={item.to}>
                <Link
                  to={item.to}
                  className="hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-700"
                >
                  {item.label}
                </Link>
              </li>
            ))}
            <li>
              {/* The feed is XML, not a page: a full load, not a client-side navigation. */}
              <a
                href="/blog/feed.xml"
                className="hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-700"
              >
                RSS feed
              </a>
            </li>
            {[{ to: FAQ_LINK.path, label: FAQ_LINK.label }, ...LEGAL_LINKS].map((page) => (
              <li key={page.to}>
                <Link
                  to={page.to}
                  className="hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-700"
                >
                  {page.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="border-t border-gray-200">
        <p className="mx-auto max-w-6xl px-4 py-5 text-sm text-gray-600">© Boostly. For personal use only.</p>
      </div>
    </footer>
  );
}
