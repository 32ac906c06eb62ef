import { redirect } from 'react-router';
import { Link } from '../components/Link.tsx';
import type { RenewalLinkView } from '../../core/subscriptions/renewal-contracts.ts';
import type { Route } from './+types/renew';
import { CacheStrategy } from '../cache.ts';
import { requestContext } from '../context.ts';
import { privatePageMeta } from '../seo/private-meta.ts';

/**
 * A subscription's renewal link (the reminder e-mail's button): a valid link goes straight to the
 * order page for the same package and account at today's price, with the token the checkout uses
 * to link the renewal. A used, stale or unknown link, or a package no longer sold, is a page that
 * says why and where to go instead. Private: noindex, never cached.
 */

export const meta: Route.MetaFunction = () => privatePageMeta('Renew your subscription', { nofollow: true });

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

export async function loader({ params, context }: Route.LoaderArgs) {
  const view = await context.get(requestContext).services.renewals.viewLink(params.token);
  if (view.state === 'open') throw redirect(view.orderPath, { headers: { 'Cache-Control': CacheStrategy.none } });
  return view;
}

const linkClass = 'font-semibold text-brand-700 underline hover:text-brand-800';

function Explanation({ view }: { view: Exclude<RenewalLinkView, { state: 'open' }> }) {
  switch (view.state) {
    case 'used':
      return (
        <>
          <h1 className="text-3xl font-extrabold text-gray-900">This subscription is renewed already</h1>
          <p className="mt-4 text-gray-700">
            The renewal was made with this link: order{' '}
            <Link to={view.confirmPath} className={`${linkClass} font-mono`} data-testid="renewal-order-link">
              {view.orderNumber}
            </Link>
            . It starts when the current period ends. A renewal link works once, so it cannot make another one.
          </p>
        </>
      );
    case 'gone':
      return (
        <>
          <h1 className="text-3xl font-extrabold text-gray-900">This package is no longer sold</h1>
          <p className="mt-4 text-gray-700">
            We no longer sell {view.serviceName} in the package you had, so this link cannot renew it.{' '}
            {view.servicePath
              ? 'You can choose another package of the same service.'
              : 'You can choose from our services.'}
          </p>
        </>
      );
    case 'expired':
      return (
        <>
          <h1 className="text-3xl font-extrabold text-gray-900">This renewal link has expired</h1>
          <p className="mt-4 text-gray-700">
            Your {view.serviceName} ended more than two weeks ago, so this link no longer renews it. You can buy it
            again as a new order.
          </p>
        </>
      );
    case 'invalid':
      return (
        <>
          <h1 className="text-3xl font-extrabold text-gray-900">This renewal link does not work</h1>
          <p className="mt-4 text-gray-700">
            Check that you opened the whole link from our e-mail. If it still does not work,{' '}
            <Link to="/contact" className={linkClass}>
              write to our support team
            </Link>{' '}
            with your order number.
          </p>
        </>
      );
  }
}

export default function RenewPage({ loaderData }: Route.ComponentProps) {
  const servicePath = 'servicePath' in loaderData ? loaderData.servicePath : null;
  return (
    <div className="mx-auto max-w-2xl px-4 py-12" data-testid={`renewal-${loaderData.state}`}>
      <Explanation view={loaderData} />
      <p className="mt-6 flex flex-wrap gap-x-6 gap-y-2">
        {servicePath ? (
          <Link to={servicePath} className={linkClass} data-testid="renewal-service-link">
            See the service
          </Link>
        ) : null}
        <Link to="/client" className={linkClass}>
          Your orders
        </Link>
        <Link to="/" className={linkClass}>
          Back to the store
        </Link>
      </p>
    </div>
  );
}
