// First: configures zod for our CSP before any schema is built (zod-csp.ts).
import './zod-csp.ts';
import { useEffect, useRef, useState } from 'react';
import {
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  type ShouldRevalidateFunction,
  isRouteErrorResponse,
  useLocation,
  useRouteLoaderData,
} from 'react-router';
import type { Route } from './+types/root';
import brandFont from '@fontsource-variable/plus-jakarta-sans/files/plus-jakarta-sans-latin-wght-normal.woff2?url';
import stylesheet from './app.css?url';
import { Footer } from './components/Footer.tsx';
import { Logo } from './components/Logo.tsx';
import { NotFound } from './components/NotFound.tsx';
import { SandboxNotice } from './components/SandboxNotice.tsx';
import { TopBar } from './components/TopBar.tsx';
import { HELP_LINKS } from './content/legal/links.ts';
import { requestContext } from './context.ts';
import { showsFooter, showsTopBar } from './layout-rules.ts';
import { useNonce } from './nonce.tsx';
import { organizationJsonLd } from './seo/json-ld.ts';
import { jsonLdScriptText } from './seo/meta.ts';

export const links: Route.LinksFunction = () => [
  // The one woff2 every page uses (latin subset, the same file app.css names), fetched with the CSS
  // instead of after it, so text swaps to the brand font before or at the first paint.
  { rel: 'preload', href: brandFont, as: 'font', type: 'font/woff2', crossOrigin: 'anonymous' },
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'apple-touch-icon', href: '/apple-touch-icon.png' },
];

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  return {
    groups: await services.catalog.listGroups(),
    flashSale: { sale: services.saleBanner(), renderedAt: Date.now() },
    paymentsSimulated: services.paymentsSimulated,
    // schema.org Organization for every page's head: written once here, not in every route's meta.
    // Serialised here, on the server, so the browser's root module needs no JSON-LD code.
    organizationJsonLd: jsonLdScriptText(organizationJsonLd(services.publicUrl, services.storeInfo.supportEmail)),
  };
}

/** The shared data (service groups, sale end) does not change between navigations. */
export const shouldRevalidate: ShouldRevalidateFunction = () => false;

type HeaderGroups = Route.ComponentProps['loaderData']['groups'];

/** The header's links: each platform's first service page, then help (FAQ, contact, orders, courses). */
function headerLinks(groups: HeaderGroups): { to: string; label: string; wide: boolean }[] {
  return [
    ...groups.flatMap((group) =>
      group.services[0] ? [{ to: `/service/${group.services[0].slug}`, label: group.title, wide: false }] : [],
    ),
    // From 640 px the row holds the platforms, FAQ and My orders; Contact and Courses join at 768 px.
    ...HELP_LINKS.map((link) => ({ ...link, wide: link.to === '/contact' || link.to === '/courses' })),
  ];
}

/**
 * Storefront header: logo and one row of links from 640 px; below that a menu button opens the
 * same links as a list (Escape or a chosen link closes it, focus returns to the button).
 */
function SiteHeader({ groups }: { groups: HeaderGroups }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const links = headerLinks(groups);

  useEffect(() => {
    if (!menuOpen) return undefined;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [menuOpen]);

  return (
    <header data-testid="site-header" className="border-b border-line bg-white">
      <nav aria-label="Main" className="mx-auto max-w-7xl px-4">
        <div className="flex h-16 items-center justify-between gap-4">
          <Link to="/" aria-label="Boostly home" className="shrink-0 rounded-card">
            <Logo />
          </Link>
          <ul className="hidden items-center gap-5 text-sm font-semibold whitespace-nowrap text-gray-700 sm:flex">
            {links.map((link) => (
              <li key={link.to} className={link.wide ? 'hidden md:list-item' : undefined}>
                <Link className="hover:text-brand-700" to={link.to}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
          <button
            ref={menuButton}
            type="button"
            aria-expanded={menuOpen}
            aria-controls="site-menu"
            onClick={() => setMenuOpen((open) => !open)}
            className="flex h-11 items-center gap-2 rounded-card border border-line px-3 text-sm font-semibold text-ink sm:hidden"
          >
            <svg
              aria-hidden="true"
              viewBox="0 0 24 24"
              className="h-5 w-5"
              fill="none"
              stroke="currentColor"
              strokeWidth={2}
            >
              <path strokeLinecap="round" d={menuOpen ? 'M6 6l12 12M18 6 6 18' : 'M4 7h16M4 12h16M4 17h16'} />
            </svg>
            Menu
          </button>
        </div>
        {/* Always in the page so the button's aria-controls names an element; `hidden` while closed.
            A chosen link closes the menu: its click bubbles up to the list. */}
        {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- only catches clicks bubbling from the links, which are keyboard-operable themselves */}
        <ul
          id="site-menu"
          hidden={!menuOpen}
          className="grid gap-1 border-t border-line py-2 text-base font-semibold text-ink sm:hidden"
          onClick={(event) => {
            if ((event.target as HTMLElement).closest('a')) setMenuOpen(false);
          }}
        >
          {links.map((link) => (
            <li key={link.to}>
              <Link className="block rounded-card px-2 py-3 hover:bg-brand-50 hover:text-brand-800" to={link.to}>
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}

/** Every route change starts at the top of the page (spec section 2). */
function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>('root');
  const { pathname } = useLocation();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        {data ? (
          <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: data.organizationJsonLd }} />
        ) : null}
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        {data?.paymentsSimulated ? (
          <SandboxNotice forOperator={pathname === '/login' || pathname.startsWith('/admin')} />
        ) : null}
        {data && showsTopBar(pathname) ? (
          <TopBar sale={data.flashSale.sale} pathname={pathname} renderedAt={data.flashSale.renderedAt} />
        ) : null}
        {data && showsTopBar(pathname) ? <SiteHeader groups={data.groups} /> : null}
        <main className="flex-1">{children}</main>
        {data && showsFooter(pathname) ? <Footer groups={data.groups} /> : null}
        <ScrollToTop />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return (
    <section className="mx-auto max-w-xl px-4 py-24 text-center">
      <h1 className="text-3xl font-bold">Something went wrong</h1>
      <p className="mt-4 text-gray-700">Please try again in a moment.</p>
      <Link to="/" className="mt-6 inline-block font-semibold text-brand-700 underline">
        Back to home
      </Link>
    </section>
  );
}
