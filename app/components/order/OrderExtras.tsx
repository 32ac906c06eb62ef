/**
 * Pieces of the order page (spec "Order page", section 9). Decision 031: the spec's fixed
 * "208 people are buying right now" and the press quote were invented, so the activity line is a
 * real count from the database and there is no press quote.
 *
 * None of them holds state (the payment method chooser's choice is the form's), so the browser
 * loads this module lazily, after the page's own code (decision 050, 120 KB budget); the server
 * renders them in place (lazy-extras.tsx). The header's links are plain links in the server's
 * HTML until then, as the storefront header's are elsewhere.
 */
export { OrderHeader } from './OrderHeader.tsx';
export { SecureCheckoutNote } from './SecureCheckout.tsx';
export { PaymentMethodChooser } from './PaymentMethodChooser.tsx';

/** "12 orders paid in the last 24 hours", or nothing when there were none. */
export function LiveUsers({ count }: { count: number }) {
  if (!(count > 0)) return null;
  return (
    <p
      data-testid="live-users"
      className="inline-flex items-center gap-2 rounded-full bg-green-50 px-3 py-1.5 text-sm font-semibold text-green-900"
    >
      <span aria-hidden="true" className="relative flex h-2.5 w-2.5">
        <span className="relative inline-flex h-2.5 w-2.5 rounded-full bg-green-700" />
      </span>
      <span>
        <strong>{count.toLocaleString('en-US')}</strong> {count === 1 ? 'order' : 'orders'} paid in the last 24 hours
      </span>
    </p>
  );
}

export function TrustList() {
  return (
    <ul className="space-y-2 text-sm text-gray-800">
      {[
        'We never ask for your password',
        'Your account or post must be public',
        'Gradual delivery that starts within 24-72 hours',
        'Support 24 hours a day, 7 days a week',
      ].map((item) => (
        <li key={item} className="flex items-start gap-2">
          <span aria-hidden="true" className="text-green-700">
            ✓
          </span>
          {item}
        </li>
      ))}
    </ul>
  );
}

/**
 * A subscription service's period before payment (decision 057): what one period covers and how
 * it is renewed, both worded by the server (form-detail's `subscription`).
 */
export function SubscriptionTerms({ coverage, renewal }: { coverage: string; renewal: string }) {
  return (
    <div data-testid="subscription-terms" className="mt-3 rounded-xl bg-brand-50 px-4 py-3 text-sm text-gray-900">
      <p>
        <span className="font-semibold">Each period covers </span>
        <span data-testid="subscription-coverage">{coverage}</span>.
      </p>
      <p className="mt-1 text-gray-700" data-testid="subscription-renewal">
        {renewal}
      </p>
    </div>
  );
}

/** The target already has a live order of this kind here: when the buyer's will start (the server's words). */
export function LaneNotice({ notice }: { notice: string }) {
  return (
    <p
      role="status"
      data-testid="lane-notice"
      className="mt-2 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900"
    >
      {notice}
    </p>
  );
}
