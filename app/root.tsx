// First: configures zod for our CSP before any schema is built (zod-csp.ts).
import './zod-csp.ts';
import { Suspense, useEffect } from 'react';
import {
  Links,
  Meta,
  Outlet,
  type ShouldRevalidateFunction,
  isRouteErrorResponse,
  useLocation,
  useRouteLoaderData,
} from 'react-router';
import type { Route } from './+types/root';
import brandFont from '@fontsource-variable/plus-jakarta-sans/files/plus-jakarta-sans-latin-wght-normal.woff2?url';
import stylesheet from './app.css?url';
import { NotFound } from './components/NotFound.tsx';
import { lazyPart } from './components/lazy-parts.ts';
import { SandboxNotice } from './components/SandboxNotice.tsx';
import { requestContext } from './context.ts';
import { showsTopBar } from './layout-rules.ts';
import { DocumentScripts } from './document-scripts.tsx';
import { footerLine } from './content/subscriptions.ts';
import { organizationJsonLd } from './seo/json-ld.ts';
import { privatePageMeta } from './seo/private-meta.ts';
import { jsonLdScriptText } from './seo/meta.ts';

/**
 * The sale bar, header and footer: one chunk, loaded only by pages that show them (decision 037);
 * rendered on the server in the same pass as the page (lazy-parts.ts).
 */
const loadChrome = () => import('./components/StorefrontChrome.tsx');
const TopBar = lazyPart('chrome', 'TopBar', loadChrome);
const SiteHeader = lazyPart('chrome', 'SiteHeader', loadChrome);
const Footer = lazyPart('chrome', 'Footer', loadChrome);

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
  const groups = await services.catalogue.listGroups();
  return {
    groups,
    // The footer names the subscriptions only while the catalogue sells them (decision 057).
    subscriptionNote: footerLine(await services.catalogue.subscriptionOffers()),
    // The groups let a sale on some services name them and show on their groups' pages (decision 038).
    flashSale: { sale: services.saleBanner(groups), renderedAt: Date.now() },
    paymentsSimulated: services.paymentsSimulated,
    // schema.org Organization for every page's head: written once here, not in every route's meta.
    // Serialised here, on the server, so the browser's root module needs no JSON-LD code.
    organizationJsonLd: jsonLdScriptText(organizationJsonLd(services.publicUrl, services.storeInfo.supportEmail)),
  };
}

/**
 * The title of a page whose own route failed (an unknown course, any thrown 404): the root's error
 * boundary renders it, and the failed route's `meta` is not called then, so without this the page
 * had an empty <title>.
 */
export const meta: Route.MetaFunction = ({ error }) =>
  error ? privatePageMeta(isRouteErrorResponse(error) && error.status === 404 ? 'Page not found' : 'Error') : [];

/** The shared data (service groups, sale end) does not change between navigations. */
export const shouldRevalidate: ShouldRevalidateFunction = () => false;

/** Every route change starts at the top of the page (spec section 2). */
function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>('root');
  const { pathname } = useLocation();
  // The footer shows on the same pages as the sale bar and header (layout-rules.ts).
  const chrome = showsTopBar(pathname) && data;
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
        {/* The first stop of the Tab key on every page: past the sale bar, header and menus. */}
        <a href="#main" className="sr-only bg-white p-2 text-brand-700 focus:not-sr-only focus:fixed">
          Skip to content
        </a>
        {data?.paymentsSimulated ? (
          <SandboxNotice forOperator={pathname === '/login' || pathname.startsWith('/admin')} />
        ) : null}
        {/* Both boundaries are there on every page, chrome or not: a navigation from a page without
            the chrome (the order page) then keeps that page on screen until the chrome's chunk has
            arrived, where a boundary new to the page would commit without it and pop it in. */}
        <Suspense fallback={null}>
          {chrome && (
            <TopBar sale={chrome.flashSale.sale} pathname={pathname} renderedAt={chrome.flashSale.renderedAt} />
          )}
          {chrome && <SiteHeader groups={chrome.groups} />}
        </Suspense>
        <main id="main" tabIndex={-1} className="flex-1">
          {children}
        </main>
        <Suspense fallback={null}>
          {chrome && <Footer groups={chrome.groups} subscriptionNote={chrome.subscriptionNote} />}
        </Suspense>
        <ScrollToTop />
        {/* React Router's scripts, or only a plain script on a page without the framework (page-handle.ts). */}
        <DocumentScripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return isRouteErrorResponse(error) && error.status === 404 ? (
    <NotFound />
  ) : (
    <NotFound mark="!" heading="Something went wrong" text="Please try again in a moment." />
  );
}
