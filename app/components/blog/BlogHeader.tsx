import { Link, NavLink } from '../Link.tsx';
import { HELP_LINKS } from '../../content/legal/links.ts';
import { SearchModal } from './SearchModal.tsx';

const CONTACT_LINK = HELP_LINKS.find((link) => link.to === '/contact') ?? { to: '/contact', label: 'Contact' };

/**
 * The spec's blog menu: Blog, Instagram Updates, Social Media Updates, Services, Contact. Decision
 * 020 left out "Contact" only while the store had no contact page; its entry comes from the site's
 * own help links, so both menus lead to the same page.
 */
export const BLOG_MENU = [
  { label: 'Blog', to: '/blog', end: true },
  { label: 'Instagram Updates', to: '/instagram-issue', end: false },
  { label: 'Social Media Updates', to: '/media-update', end: false },
  // The store's services are picked on the home page.
  { label: 'Services', to: '/', end: true },
  { label: CONTACT_LINK.label, to: CONTACT_LINK.to, end: true },
] as const;

export function BlogHeader() {
  return (
    <header data-testid="blog-header" className="border-b border-gray-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-3">
        <Link
          to="/"
          className="shrink-0 rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        >
          <img src="/images/logo.svg" alt="Boostly home" width={160} height={40} className="h-10 w-auto" />
        </Link>
        <nav aria-label="Blog" className="order-last w-full sm:order-none sm:w-auto">
          <ul className="flex flex-wrap items-center gap-x-5 gap-y-1 text-sm font-semibold text-gray-800">
            {BLOG_MENU.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={item.end}
                  className={({ isActive }) =>
                    `block py-2 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${
                      isActive && item.to !== '/' ? 'text-brand-700 underline underline-offset-8' : ''
                    }`
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <SearchModal />
      </div>
    </header>
  );
}
