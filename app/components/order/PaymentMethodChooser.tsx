import { formatHomePrice } from '../../../core/catalogue/pricing.ts';
import type { PaymentMethodOption } from '../../../core/orders/contracts.ts';

/** "−5%", "+5%", or nothing for a method at the package's price. */
function adjustmentBadge(percent: number): string | null {
  if (percent === 0) return null;
  return `${percent < 0 ? '−' : '+'}${Math.abs(percent)}%`;
}

export interface PaymentMethodChooserProps {
  methods: readonly PaymentMethodOption[];
  selected: string;
  onSelect: (methodId: string) => void;
  /** Only the sandbox takes payments: said plainly above the choice. */
  testMode: boolean;
  /** The package is being reloaded (another quantity): prices show as pending. */
  refreshing: boolean;
}

/**
 * The order page's payment method choice (the spec's /payment design, made real): one radio card
 * per method the store offers, each with what this package costs through it, the owner's price
 * change as a badge, and the buyer's pick sent with the order. It holds no state of its own (the
 * form does), so it can load after the page's code and hydrate in place (lazy-extras.tsx).
 */
export function PaymentMethodChooser({ methods, selected, onSelect, testMode, refreshing }: PaymentMethodChooserProps) {
  return (
    <fieldset data-testid="payment-methods">
      <legend className="mb-2 font-semibold text-gray-900">Payment method</legend>
      {testMode ? (
        <p data-testid="payment-test-mode" className="mb-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Test mode: no money moves. Every method is simulated in a test payment window.
        </p>
      ) : null}
      <ul className="space-y-3">
        {methods.map((method) => {
          const id = `payment-method-${method.id}`;
          const badge = adjustmentBadge(method.adjustmentPercent);
          return (
            <li
              key={method.id}
              data-testid={`method-${method.id}`}
              className="relative flex items-start gap-3 rounded-xl border-2 border-gray-200 bg-white p-4 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-700"
            >
              <input
                id={id}
                type="radio"
                name="paymentMethod"
                value={method.id}
                checked={method.id === selected}
                onChange={() => onSelect(method.id)}
                aria-describedby={`${id}-detail`}
                className="mt-1 h-4 w-4 accent-brand-700"
              />
              <div className="min-w-0 flex-1">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
                  {/* The label's box covers the whole card, so a tap anywhere on it picks the method. */}
                  <label
                    htmlFor={id}
                    className="cursor-pointer font-bold text-gray-900 after:absolute after:inset-0 after:content-['']"
                  >
                    {method.label}
                  </label>
                  <span className="flex items-baseline gap-2">
                    {badge ? (
                      <span
                        data-testid={`method-${method.id}-badge`}
                        className={`rounded-full px-2 py-0.5 text-xs font-bold ${
                          method.adjustmentPercent < 0 ? 'bg-green-100 text-green-900' : 'bg-amber-100 text-amber-900'
                        }`}
                      >
                        <span className="sr-only">{method.adjustmentPercent < 0 ? 'Discount ' : 'Surcharge '}</span>
                        {badge}
                      </span>
                    ) : null}
                    <span
                      data-testid={`method-${method.id}-price`}
                      className="font-semibold text-gray-900 tabular-nums"
                    >
                      {refreshing ? '…' : formatHomePrice(method.charge)}
                    </span>
                  </span>
                </div>
                <p id={`${id}-detail`} className="mt-0.5 text-sm text-gray-700">
                  {method.detail}
                </p>
              </div>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
