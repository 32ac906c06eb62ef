import { useEffect } from 'react';
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
import stylesheet from './app.css?url';
import { Footer } from './components/Footer.tsx';
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
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export async function loader({ context }: Route.LoaderArgs) {
  const { services } = context.get(requestContext);
  return {
    groups: await services.catalog.listGroups(),
    flashSale: { endsAt: services.flashSaleEndsAt(), renderedAt: Date.now() },
    paymentsSimulated: services.paymentsSimulated,
    // schema.org Organization for every page's head: written once here, not in every route's meta.
    // Serialised here, on the server, so the browser's root module needs no JSON-LD code.
    organizationJsonLd: jsonLdScriptText(organizationJsonLd(services.publicUrl, services.storeInfo.supportEmail)),
  };
}

/** The shared data (service groups, sale end) does not change between navigations. */
export const shouldRevalidate: ShouldRevalidateFunction = () => false;

function SiteHeader({ groups }: { groups: Route.ComponentProps['loaderData']['groups'] }) {
  return (
    <header className="border-b border-gray-200 bg-white">
      <nav aria-label="Main" className="mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 py-3">
        <Link to="/" className="shrink-0">
          <img src="/images/logo.svg" alt="Boostly home" width={160} height={40} />
        </Link>
        <ul className="flex flex-wrap items-center gap-4 text-sm font-medium text-gray-700">
          {groups.map((group) =>
            group.services[0] ? (
              <li key={group.slug}>
                <Link className="hover:text-brand-700" to={`/service/${group.services[0].slug}`}>
                  {group.title}
                </Link>
              </li>
            ) : null,
          )}
          {HELP_LINKS.map((link) => (
            <li key={link.to}>
              <Link className="hover:text-brand-700" to={link.to}>
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
          <TopBar endsAt={data.flashSale.endsAt} renderedAt={data.flashSale.renderedAt} />
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
