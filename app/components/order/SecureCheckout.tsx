/**
 * The payment methods accepted and the secure-checkout note by the pay button. It says only what
 * is true (decisions 006, 014, 033): with a real provider the buyer pays in its own window
 * (Razorpay) or on its hosted page (Cryptomus, Solidgate), and no card number reaches this store;
 * without one the sandbox takes the "payment" and no card is asked for at all.
 */

function VisaMark() {
  return (
    <svg viewBox="0 0 48 30" width={48} height={30} role="img" aria-label="Visa" className="shrink-0">
      <rect width="48" height="30" rx="4" fill="#fff" stroke="#d1d5db" />
      <text
        x="24"
        y="20"
        textAnchor="middle"
        fontFamily="Arial, Helvetica, sans-serif"
        fontSize="13"
        fontStyle="italic"
        fontWeight="800"
        fill="#1a1f71"
      >
        VISA
      </text>
    </svg>
  );
}

function MastercardMark() {
  return (
    <svg viewBox="0 0 48 30" width={48} height={30} role="img" aria-label="Mastercard" className="shrink-0">
      <rect width="48" height="30" rx="4" fill="#fff" stroke="#d1d5db" />
      <circle cx="20" cy="15" r="8" fill="#eb001b" />
      <circle cx="28" cy="15" r="8" fill="#f79e1b" fillOpacity="0.9" />
    </svg>
  );
}

export function SecureCheckoutNote({ sandbox }: { sandbox: boolean }) {
  return (
    <div data-testid="secure-checkout" className="mt-3 flex flex-wrap items-center justify-center gap-x-4 gap-y-2">
      <p className="flex items-center gap-1.5 text-sm text-gray-700">
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          width={16}
          height={16}
          className="text-green-700"
          fill="currentColor"
        >
          <path d="M10 1.5 4 4v5c0 4 2.6 7.6 6 8.5 3.4-.9 6-4.5 6-8.5V4l-6-2.5zm-1 11.3L6.3 10l1.4-1.4L9 9.9l3.3-3.3 1.4 1.4L9 12.8z" />
        </svg>
        {sandbox
          ? 'Test mode: payments run in a sandbox, no card is asked for or charged.'
          : 'Secure checkout: you pay in the payment provider’s own window or page, we never see your card number.'}
      </p>
      <p className="flex items-center gap-2 text-sm text-gray-700">
        <span className="sr-only">We accept </span>
        <VisaMark />
        <MastercardMark />
      </p>
    </div>
  );
}
