/**
 * The order page's parts that hold no state (its header, the activity line, the trust list, the
 * secure-checkout note, the payment method chooser, a subscription's terms and the lane notice:
 * OrderExtras.tsx), loaded by the browser after the page's own code so that
 * they are not in its first-load JavaScript (decision 050, 120 KB budget). The server renders them
 * in place (lazy-parts.ts); the browser keeps that HTML until their chunk has arrived and then
 * hydrates them, so nothing moves. The chunk is fetched as soon as the order page's module runs,
 * so that after a navigation from another page it is usually here before the page renders.
 */
import { type FunctionComponent, type LazyExoticComponent, Suspense, memo } from 'react';
import { type LazyModules, lazyPart, loadLazyModule } from '../lazy-parts.ts';

const loadOrderExtras = (): Promise<LazyModules['orderExtras']> => import('./OrderExtras.tsx');

if (typeof document !== 'undefined') void loadLazyModule('orderExtras', loadOrderExtras).catch(() => undefined);

/**
 * A lazy part in its own Suspense boundary, so that hydration keeps the server's HTML of that part
 * while its chunk is on its way and goes on with the rest of the page (the form is live before the
 * chunk arrives). Memoised: React client-renders a boundary that gets new props before it has
 * hydrated, from its fallback (nothing), which drops the server's HTML and moves the page (the form's
 * first effects re-render its parents at once). Equal props stop at the memo and never reach it.
 */
function inPlace<Props extends object>(Part: LazyExoticComponent<FunctionComponent<Props>>) {
  return memo(function InPlace(props: Props) {
    return (
      <Suspense fallback={null}>
        <Part {...props} />
      </Suspense>
    );
  });
}

export const OrderHeader = inPlace(lazyPart('orderExtras', 'OrderHeader', loadOrderExtras));
export const LiveUsers = inPlace(lazyPart('orderExtras', 'LiveUsers', loadOrderExtras));
export const TrustList = inPlace(lazyPart('orderExtras', 'TrustList', loadOrderExtras));
export const SecureCheckoutNote = inPlace(lazyPart('orderExtras', 'SecureCheckoutNote', loadOrderExtras));
export const PaymentMethodChooser = inPlace(lazyPart('orderExtras', 'PaymentMethodChooser', loadOrderExtras));
export const SubscriptionTerms = inPlace(lazyPart('orderExtras', 'SubscriptionTerms', loadOrderExtras));
export const LaneNotice = inPlace(lazyPart('orderExtras', 'LaneNotice', loadOrderExtras));
