import { useCallback, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { parseOrderParam } from '../../core/catalog/order-path.ts';
import { ORDER_PAGE_MESSAGES, type OrderFormDetail } from '../../core/orders/form-detail.ts';
import type { CreatedOrder } from '../../core/orders/orders.ts';
import type { Route } from './+types/order';
import { CacheStrategy } from '../cache.ts';
import { Spinner } from '../components/Spinner.tsx';
import { isAbort, messageOf, postJson } from '../components/order/api.ts';
import { OrderForm } from '../components/order/OrderForm.tsx';
import { LiveUsers, PressQuote, TrustList } from '../components/order/OrderExtras.tsx';
import { OrderHeader } from '../components/order/OrderHeader.tsx';
import { PaymentWindow } from '../components/order/PaymentWindow.tsx';
import { QuantityDropdown } from '../components/order/QuantityDropdown.tsx';

export const meta: Route.MetaFunction = () => [{ title: 'Order | Boostly' }, { name: 'robots', content: 'noindex' }];

/** The page itself holds nothing personal, but it is a checkout: never stored by any cache. */
export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.none });

type DetailState =
  | { status: 'loading'; detail: OrderFormDetail | null }
  | { status: 'ready'; detail: OrderFormDetail }
  | { status: 'failed'; message: string };

/** What a reply answers: the package asked for, and how many reloads had been asked for. */
interface DetailRequest {
  slug: string;
  qty: number;
  type: string;
  reloads: number;
}

/** The last reply, with the request it answers. */
type SettledDetail = ({ status: 'ready'; detail: OrderFormDetail } | { status: 'failed'; message: string }) & {
  request: DetailRequest;
};

/**
 * What the page shows for `request`: its reply once that has arrived. Until then it is loading,
 * and another quantity of the same plan keeps the form (and what the buyer typed) on screen.
 */
function detailState(settled: SettledDetail | null, request: DetailRequest): DetailState {
  if (!settled) return { status: 'loading', detail: null };
  const { slug, qty, type, reloads } = settled.request;
  if (slug === request.slug && qty === request.qty && type === request.type && reloads === request.reloads)
    return settled;
  const previous = settled.status === 'ready' ? settled.detail : null;
  const samePlan =
    previous && previous.serviceId === request.slug && previous.planType.toLowerCase() === request.type.toLowerCase();
  return { status: 'loading', detail: samePlan ? previous : null };
}

export default function OrderPage({ params }: Route.ComponentProps) {
  const [searchParams] = useSearchParams();
  const [settled, setSettled] = useState<SettledDetail | null>(null);
  const [reloads, setReloads] = useState(0);
  const [payment, setPayment] = useState<CreatedOrder | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const parsed = parseOrderParam(params.param);
  const type = searchParams.get('type')?.trim() ?? '';
  const slug = parsed?.slug ?? '';
  const qty = parsed?.qty ?? 0;
  const valid = !!parsed && type.length > 0;
  const state = detailState(settled, { slug, qty, type, reloads });

  useEffect(() => {
    if (!valid) return undefined;
    const controller = new AbortController();
    const request = { slug, qty, type, reloads };
    postJson<OrderFormDetail>('/api/order/form-detail', { slug, qty, type }, controller.signal).then(
      (detail) => {
        if (!controller.signal.aborted) setSettled({ request, status: 'ready', detail });
      },
      (error: unknown) => {
        if (!controller.signal.aborted && !isAbort(error))
          setSettled({ request, status: 'failed', message: messageOf(error) });
      },
    );
    return () => controller.abort();
  }, [valid, slug, qty, type, reloads]);

  const onCreated = useCallback((order: CreatedOrder) => {
    setNotice(null);
    setPayment(order);
  }, []);
  const onDismiss = useCallback((message?: string) => {
    setPayment(null);
    setNotice(message ?? null);
  }, []);
  const onPriceChanged = useCallback(() => setReloads((count) => count + 1), []);

  const error = !valid ? ORDER_PAGE_MESSAGES.invalidParams : state.status === 'failed' ? state.message : null;
  const detail = valid && state.status !== 'failed' ? state.detail : null;

  return (
    <div className="min-h-screen bg-gray-50">
      <OrderHeader />
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-8 lg:grid-cols-[1fr_20rem]">
        <section
          aria-labelledby="get-started-heading"
          className="rounded-2xl border border-gray-200 bg-white p-5 shadow-sm sm:p-8"
        >
          <LiveUsers />
          <h1 id="get-started-heading" className="mt-4 text-3xl font-extrabold text-gray-900">
            Get Started
          </h1>
          <p className="mt-1 text-gray-700">
            {detail ? `${detail.name} · ${detail.planTitle}` : 'Tell us where to deliver, then pay securely by card.'}
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

          {!error && !detail ? <Spinner label="Loading the order form" className="py-16" /> : null}

          {!error && detail ? (
            <div className="mt-6 space-y-6">
              <QuantityDropdown
                slug={detail.serviceId}
                type={detail.planType}
                options={detail.fields[2].list}
                selectedQty={state.status === 'loading' ? qty : detail.selected.qty}
              />
              <OrderForm
                key={`${detail.serviceId}|${detail.planType}`}
                detail={detail}
                slug={detail.serviceId}
                type={detail.planType}
                qty={qty}
                refreshing={state.status === 'loading'}
                onCreated={onCreated}
                onPriceChanged={onPriceChanged}
              />
            </div>
          ) : null}
        </section>

        <aside aria-label="Why Boostly" className="space-y-6">
          <PressQuote />
          <div className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
            <h2 className="mb-3 font-bold text-gray-900">Safe and simple</h2>
            <TrustList />
          </div>
        </aside>
      </div>

      {payment ? <PaymentWindow key={payment.razorpay_order_id} order={payment} onDismiss={onDismiss} /> : null}
    </div>
  );
}
