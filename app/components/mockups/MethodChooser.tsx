import { Form } from 'react-router';
import {
  PAYMENT_METHODS,
  type PaymentMethodId,
  SAMPLE_ORDER,
  adjustmentLabel,
  formatSampleAmount,
  methodTotal,
} from '../../../core/mockups/payment-methods.ts';
import { primaryButton } from '../form.tsx';

/**
 * Step 1 of the /payment preview: the four methods, each with what the sample order would cost
 * through it (the discount or surcharge written out, so the maths is visible). A GET form, so the
 * step and the method live in the URL: the back button returns here and it works without
 * JavaScript.
 */
export function MethodChooser({ selected }: { selected: PaymentMethodId }) {
  const subtotal = formatSampleAmount(SAMPLE_ORDER.subtotalE4);
  return (
    <Form method="get" action="/payment" data-testid="method-chooser">
      <input type="hidden" name="step" value="billing" />
      <fieldset>
        <legend className="sr-only">Payment method</legend>
        <p className="text-sm text-gray-700">
          Sample order: {SAMPLE_ORDER.serviceName}, {SAMPLE_ORDER.packageName} ({SAMPLE_ORDER.plan}), {subtotal}.
        </p>
        <ul className="mt-4 space-y-3">
          {PAYMENT_METHODS.map((method) => {
            const totals = methodTotal(SAMPLE_ORDER.subtotalE4, method);
            const id = `payment-method-${method.id}`;
            const sign = totals.adjustmentE4 < 0 ? '−' : '+';
            return (
              <li
                key={method.id}
                data-testid={`method-${method.id}`}
                className="relative flex items-start gap-3 rounded-xl border-2 border-gray-200 bg-white p-4 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-700"
              >
                <input
                  id={id}
                  type="radio"
                  name="method"
                  value={method.id}
                  defaultChecked={method.id === selected}
                  aria-describedby={`${id}-details`}
                  className="mt-1 h-4 w-4 accent-brand-700"
                />
                <div className="flex-1">
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    {/* The label's box covers the whole card, so a click anywhere on it picks the method. */}
                    <label
                      htmlFor={id}
                      className="cursor-pointer font-bold text-gray-900 after:absolute after:inset-0 after:content-['']"
                    >
                      {method.name}
                    </label>
                    <span
                      className={`text-sm font-semibold ${
                        method.adjustmentPercent < 0
                          ? 'text-green-800'
                          : method.adjustmentPercent > 0
                            ? 'text-red-800'
                            : 'text-gray-700'
                      }`}
                    >
                      {adjustmentLabel(method)}
                    </span>
                  </div>
                  <p id={`${id}-details`} className="mt-0.5 text-sm text-gray-700">
                    {method.description}.{' '}
                    <span className="mt-1 block text-gray-900" data-testid={`method-${method.id}-total`}>
                      {totals.adjustmentE4 === 0
                        ? `Sample order: ${formatSampleAmount(totals.totalE4)}`
                        : `Sample order: ${subtotal} ${sign} ${formatSampleAmount(Math.abs(totals.adjustmentE4))} (${adjustmentLabel(method)}) = ${formatSampleAmount(totals.totalE4)}`}
                    </span>
                  </p>
                </div>
              </li>
            );
          })}
        </ul>
      </fieldset>
      <div className="mt-6">
        <button type="submit" className={primaryButton}>
          Continue to billing details
        </button>
      </div>
    </Form>
  );
}
