/** Static pieces of the order page: the live-users counter and the press quote (spec "Order page", section 9). */

/** Spec section 9: the live users counter is fixed at 208. */
export const LIVE_USERS = 208;

export function LiveUsers() {
  return (
    <p
      data-testid="live-users"
      className="inline-flex items-center gap-2 rounded-full bg-green-50 px-3 py-1.5 text-sm font-semibold text-green-900"
    >
      <span aria-hidden="true" className="relative flex h-2.5 w-2.5">
        <span className="absolute inline-flex h-full w-full animate-ping rounded-full bg-green-600 opacity-75 motion-reduce:animate-none" />
        <span className="relative inline-flex h-2.5 w-2.5 rounded-full bg-green-700" />
      </span>
      <span>
        <strong>{LIVE_USERS}</strong> people are buying right now
      </span>
    </p>
  );
}

export function PressQuote() {
  return (
    <figure className="rounded-2xl border border-gray-200 bg-white p-6 shadow-sm">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-8 w-8 text-brand-600" fill="currentColor">
        <path d="M9.5 6C6.5 7.2 4.5 9.8 4.5 13v5h6v-6h-3c0-2 1.2-3.6 3-4.4zm9 0c-3 1.2-5 3.8-5 7v5h6v-6h-3c0-2 1.2-3.6 3-4.4z" />
      </svg>
      <blockquote className="mt-3 text-lg font-medium text-gray-900">
        “A simple way for creators to get a first push: pick a package, paste a username or link, and growth arrives
        gradually, with no password ever asked for.”
      </blockquote>
      <figcaption className="mt-3 text-sm font-semibold text-gray-700">Creator Economy Review</figcaption>
    </figure>
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
