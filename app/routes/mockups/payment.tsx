import { Suspense, lazy, useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { DEFAULT_PAYMENT_METHOD, paymentMethodById } from '../../../core/mockups/payment-methods.ts';
import type { Route } from './+types/payment';
import type { BillingForm as BillingFormComponent } from '../../components/mockups/BillingForm.tsx';
import { CacheStrategy } from '../../cache.ts';
import { MethodChooser } from '../../components/mockups/MethodChooser.tsx';
import { PreviewBanner } from '../../components/mockups/PreviewBanner.tsx';
import { requestContext } from '../../context.ts';
import { pageMeta } from '../../seo/meta.ts';

/**
 * `/payment` (spec "Static mock-ups"; docs/decisions/028-mock-up-pages.md): the two-step payment
 * chooser as a preview. Step 1 (`/payment`) picks one of four methods and shows what a sample
 * order costs through each; step 2 (`/payment?step=billing&method=…`) is the billing form, which
 * validates like a real one and, when valid, goes to the sample confirmation. It charges nothing
 * and sends nothing: real orders are paid on the order page.
 */

/**
 * The billing step's code (its form rules, the country list and the phone metadata: 75 KB of
 * gzip JavaScript) loads only when that step is shown, so step 1 stays under the first-load
 * budget (decision 036). The server still renders the form; the browser hydrates it once its
 * chunk has arrived.
 */
let billingFormModule: Promise<{ default: typeof BillingFormComponent }> | undefined;
/** The billing step's chunk, fetched once: step 1 asks for it as soon as it is on screen, so Continue does not wait. */
function loadBillingForm() {
  billingFormModule ??= import('../../components/mockups/BillingForm.tsx').then((module) => ({
    default: module.BillingForm,
  }));
  return billingFormModule;
}
const BillingForm = lazy(loadBillingForm);

const PATH = '/payment';

export function loader({ context }: Route.LoaderArgs) {
  return { publicUrl: context.get(requestContext).services.publicUrl };
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.catalogue });

export const meta: Route.MetaFunction = ({ data }) =>
  pageMeta({
    publicUrl: data?.publicUrl,
    path: PATH,
    title: 'Payment methods (preview)',
    description:
      'A preview of the payment-method chooser and billing form. It takes no payment: orders are paid on the order page.',
    noindex: true,
  });

export default function PaymentPreviewPage() {
  const [searchParams] = useSearchParams();
  const chosen = paymentMethodById(searchParams.get('method'));
  const method = chosen ?? paymentMethodById(DEFAULT_PAYMENT_METHOD);
  const onBilling = searchParams.get('step') === 'billing' && chosen !== undefined;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);

  useEffect(() => {
    if (!onBilling) void loadBillingForm();
  }, [onBilling]);

  // Moving between the steps puts focus on the new step's heading, so it is read out.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [onBilling]);

  return (
    <>
      <PreviewBanner>
        This page is a preview of our payment options: it takes no payment and places no order. To buy,{' '}
        <Link to="/" className="font-semibold underline">
          choose a package
        </Link>{' '}
        and pay on its order page.
      </PreviewBanner>
      <div className="mx-auto max-w-2xl px-4 py-12">
        <h1 className="text-3xl font-extrabold text-gray-900">Payment</h1>
        <ol className="mt-4 flex gap-4 text-sm" aria-label="Steps">
          <li
            className={onBilling ? 'text-gray-600' : 'font-bold text-brand-700'}
            aria-current={!onBilling ? 'step' : undefined}
          >
            1. Payment method
          </li>
          <li
            className={onBilling ? 'font-bold text-brand-700' : 'text-gray-600'}
            aria-current={onBilling ? 'step' : undefined}
          >
            2. Billing details
          </li>
        </ol>
        <section
          aria-labelledby="payment-step-title"
          className="mt-6 rounded-2xl border border-gray-200 bg-white p-6 shadow-sm sm:p-8"
        >
          <h2
            id="payment-step-title"
            ref={headingRef}
            tabIndex={-1}
            className="text-xl font-bold text-gray-900 focus:outline-none"
          >
            {onBilling ? 'Step 2 of 2: Billing details' : 'Step 1 of 2: Choose a payment method'}
          </h2>
          {/* Around both steps: moving to step 2 keeps step 1 on screen until the form's chunk is in (a navigation is a transition). */}
          <Suspense
            fallback={
              <p role="status" className="mt-4 text-sm text-gray-700">
                Loading the billing form…
              </p>
            }
          >
            {onBilling && method ? (
              <div className="mt-4">
                <p className="mb-6 text-sm text-gray-700">
                  Paying with <strong>{method.name}</strong>.{' '}
                  <Link to={`/payment?method=${method.id}`} className="font-semibold text-brand-700 underline">
                    Change method
                  </Link>
                </p>
                <BillingForm key={method.id} method={method} />
              </div>
            ) : (
              <div className="mt-4">
                <MethodChooser key={method?.id} selected={method?.id ?? DEFAULT_PAYMENT_METHOD} />
              </div>
            )}
          </Suspense>
        </section>
      </div>
    </>
  );
}
