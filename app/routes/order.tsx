import { Suspense, lazy, useCallback, useEffect, useState } from 'react';
import { data, useNavigation, useRevalidator } from 'react-router';
import { Link } from '../components/Link.tsx';
import { parseOrderParam } from '../../core/catalogue/order-path.ts';
import { ORDER_PAGE_MESSAGES } from '../../core/orders/form-detail.ts';
import type { CreatedOrder } from '../../core/orders/contracts.ts';
import type { Route } from './+types/order';
import { CacheStrategy } from '../cache.ts';
import { OrderForm } from '../components/order/OrderForm.tsx';
import { LiveUsers, OrderHeader, TrustList } from '../components/order/lazy-extras.tsx';
import { requestContext } from '../context.ts';
import { privatePageMeta } from '../seo/private-meta.ts';

export const meta: Route.MetaFunction = ({ loaderData }) =>
  privatePageMeta(loaderData?.detail ? 'Order' : 'Package not found');

/**
 * The payment window (sandbox or Razorpay checkout) opens only after Continue, so it is not part of
 * the page's first load (decision 037, 120 KB budget): its chunk is fetched once the page is idle,
 * well before a buyer can have filled the form in.
 */
const loadPaymentWindow = () => import('../components/order/PaymentWindow.tsx');
const PaymentWindow = lazy(() => loadPaymentWindow().then((module) => ({ default: module.PaymentWindow })));

/** The page itself holds nothing personal, but it is a checkout: never stored by any cache. */
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

/**
 * The package the address names (`/order/{slug}GOI{qty}?type=`), looked up on the server, so the
 * form is in the first HTML and nothing moves once the page is live. A malformed address or an
 * unknown package is the spec's message instead of the form.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const parsed = parseOrderParam(params.param);
  const type = new URL(request.url).searchParams.get('type')?.trim() ?? '';
  const { services } = context.get(requestContext);
  const sandbox = services.paymentsSimulated;
  const paidRecently = await services.ordersPaidRecently();
  // The page's message with the status the lookup gives (400 for a malformed address, 404 for an
  // unknown package), so a crawler or a monitor never takes it for a working page.
  if (!parsed || !type)
    return data({ detail: null, error: ORDER_PAGE_MESSAGES.invalidParams, sandbox, paidRecently }, { status: 400 });
  const lookup = await services.orderForm({ slug: parsed.slug, qty: String(parsed.qty), type });
  return lookup.ok
    ? { detail: lookup.detail, error: null, sandbox, paidRecently }
    : data({ detail: null, error: lookup.message, sandbox, paidRecently }, { status: lookup.status });
}

/** The quantity of an order page address, or null for any other page. */
function quantityOf(pathname: string): number | null {
  const match = /^\/order\/([^/]+)$/.exec(pathname);
  return match?.[1] ? (parseOrderParam(decodeURIComponent(match[1]))?.qty ?? null) : null;
}

export default function OrderPage({ loaderData }: Route.ComponentProps) {
  const { detail, error, sandbox } = loaderData;
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [payment, setPayment] = useState<CreatedOrder | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  // The payment window's code arrives while the buyer types, not after Continue.
  useEffect(() => {
    const timer = window.setTimeout(() => void loadPaymentWindow(), 1000);
    return () => window.clearTimeout(timer);
  }, []);

  // Another package of this page is on its way: its quantity shows as chosen at once, and the
  // form (with what the buyer typed) stays while its price loads.
  const pendingQty = navigation.location ? quantityOf(navigation.location.pathname) : null;
  const refreshing = (navigation.state === 'loading' && pendingQty !== null) || revalidator.state === 'loading';
  const qty = pendingQty ?? detail?.selected.qty ?? 0;

  const onCreated = useCallback((order: CreatedOrder) => {
    setNotice(null);
    setPayment(order);
  }, []);
  const onDismiss = useCallback((message?: string) => {
    setPayment(null);
    setNotice(message ?? null);
  }, []);
  const onPriceChanged = useCallback(() => void revalidator.revalidate(), [revalidator]);

  return (
    <div className="min-h-screen bg-gray-50">
      <OrderHeader />
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-8 lg:grid-cols-[1fr_20rem]">
        <section
          aria-labelledby="get-started-heading"
          className="rounded-2xl border border-gray-200 bg-white p-5 shadow-sm sm:p-8"
        >
          <LiveUsers count={loaderData.paidRecently} />
          <h1 id="get-started-heading" className="mt-4 text-3xl font-extrabold text-gray-900">
            Get Started
          </h1>
          <p className="mt-1 text-gray-700">
            {detail ? `${detail.name} · ${detail.planTitle}` : 'Tell us where to deliver, then choose how to pay.'}
          </p>

          {error ? (
            <div
              role="alert"
              data-testid="order-error"
              className="mt-6 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800"
            >
              <p className="font-semibold">{error}</p>
              <p className="mt-1 text-sm">
                <Link to="/" className="font-semibold underline">
                  Choose a package on the home page
                </Link>
              </p>
            </div>
          ) : null}

          {notice ? (
            <p
              role="status"
              className="mt-6 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900"
            >
              {notice}
            </p>
          ) : null}

          {!error && detail ? (
            <div className="mt-6">
              <OrderForm
                key={`${detail.serviceId}|${detail.planType}`}
                detail={detail}
                slug={detail.serviceId}
                type={detail.planType}
                qty={qty}
                refreshing={refreshing}
                sandbox={sandbox}
                onCreated={onCreated}
                onPriceChanged={onPriceChanged}
              />
            </div>
          ) : null}
        </section>

        <aside aria-label="Why Boostly" className="space-y-6">
          <div className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
            <h2 className="mb-3 font-bold text-gray-900">Safe and simple</h2>
            <TrustList />
          </div>
        </aside>
      </div>

      {payment ? (
        <Suspense fallback={null}>
          <PaymentWindow key={payment.razorpay_order_id} order={payment} onDismiss={onDismiss} />
        </Suspense>
      ) : null}
    </div>
  );
}
