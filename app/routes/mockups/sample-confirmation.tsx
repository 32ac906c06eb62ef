import { Link, useSearchParams } from 'react-router';
import {
  DEFAULT_PAYMENT_METHOD,
  SAMPLE_ORDER,
  adjustmentLabel,
  formatSampleAmount,
  methodTotal,
  paymentMethodById,
} from '../../../core/mockups/payment-methods.ts';
import type { Route } from './+types/sample-confirmation';
import { CacheStrategy } from '../../cache.ts';
import { PreviewBanner } from '../../components/mockups/PreviewBanner.tsx';
import { requestContext } from '../../context.ts';
import { pageMeta } from '../../seo/meta.ts';

/**
 * `/payment/sample-confirmation` (docs/decisions/028-mock-up-pages.md): where a valid submit of
 * the /payment preview lands. Placeholder order details for the chosen method, marked as a
 * sample: no order was placed and nothing was charged. The billing details typed on /payment
 * never reach this page (nor the server).
 */

const PATH = '/payment/sample-confirmation';

export function loader({ context }: Route.LoaderArgs) {
  return { publicUrl: context.get(requestContext).services.publicUrl };
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.catalogue });

export const meta: Route.MetaFunction = ({ data }) =>
  pageMeta({
    publicUrl: data?.publicUrl,
    path: PATH,
    title: 'Sample order confirmation (preview)',
    description: 'A sample of the confirmation shown after paying. No order was placed and nothing was charged.',
    noindex: true,
  });

export default function SampleConfirmationPage() {
  const [searchParams] = useSearchParams();
  const method = paymentMethodById(searchParams.get('method')) ?? paymentMethodById(DEFAULT_PAYMENT_METHOD);
  const totals = method ? methodTotal(SAMPLE_ORDER.subtotalE4, method) : undefined;

  return (
    <>
      <PreviewBanner>
        This is a sample confirmation: no order was placed and nothing was charged.{' '}
        <Link to="/" className="font-semibold underline">
          Choose a real package
        </Link>{' '}
        to order.
      </PreviewBanner>
      <div className="mx-auto max-w-2xl px-4 py-12">
        <p className="text-sm font-bold tracking-wide text-amber-800 uppercase">Sample</p>
        <h1 className="mt-1 text-3xl font-extrabold text-gray-900">Sample order confirmation</h1>
        <p data-testid="sample-no-order" className="mt-3 text-lg font-semibold text-gray-900">
          No order was placed.
        </p>
        <p className="mt-2 text-gray-700">
          After a real payment, this page shows your order with its number and status, and we e-mail you a receipt. The
          details below are placeholders.
        </p>

        <section
          aria-labelledby="sample-order-title"
          className="mt-8 rounded-2xl border border-dashed border-gray-400 bg-gray-50 p-6"
        >
          <h2 id="sample-order-title" className="text-lg font-bold text-gray-900">
            Order details (sample)
          </h2>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm" data-testid="sample-order-details">
            <dt className="font-semibold text-gray-700">Order ID</dt>
            <dd className="text-gray-900">SAMPLE-000000 (placeholder)</dd>
            <dt className="font-semibold text-gray-700">Service</dt>
            <dd className="text-gray-900">
              {SAMPLE_ORDER.serviceName}, {SAMPLE_ORDER.packageName} ({SAMPLE_ORDER.plan})
            </dd>
            <dt className="font-semibold text-gray-700">Payment method</dt>
            <dd className="text-gray-900" data-testid="sample-method">
              {method ? `${method.name} (${adjustmentLabel(method)})` : 'None chosen'}
            </dd>
            {totals ? (
              <>
                <dt className="font-semibold text-gray-700">Amount</dt>
                <dd className="text-gray-900" data-testid="sample-amount">
                  {formatSampleAmount(totals.totalE4)} (sample; not charged)
                </dd>
              </>
            ) : null}
            <dt className="font-semibold text-gray-700">Status</dt>
            <dd className="text-gray-900">Sample only: not paid, not placed</dd>
          </dl>
        </section>

        <div className="mt-8 flex flex-wrap gap-4">
          <Link
            to="/service/instagram-followers"
            className="rounded-xl bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            See Instagram followers packages
          </Link>
          <Link
            to="/payment"
            className="rounded-xl border-2 border-gray-300 px-6 py-3 font-bold text-gray-900 hover:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            Back to the payment preview
          </Link>
        </div>
      </div>
    </>
  );
}
