/** Form pieces shared by the one-column forms (order history lookup, admin login). */

export const inputClass = (invalid: boolean) =>
  `w-full rounded-xl border-2 bg-white px-4 py-3 text-gray-900 placeholder:text-gray-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${
    invalid ? 'border-red-700' : 'border-gray-300 focus:border-brand-600'
  }`;

export const primaryButton =
  'inline-flex w-full items-center justify-center gap-2 rounded-xl bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:bg-gray-500';

export const linkButton =
  'font-semibold text-brand-700 underline hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:text-gray-700 disabled:no-underline';

export function ButtonSpinner() {
  return (
    <span aria-hidden="true" className="h-5 w-5 animate-spin rounded-full border-2 border-white/40 border-t-white" />
  );
}

/** The red banner with the server's message (spec section 8). */
export function ErrorBanner({ message, testId }: { message: string; testId: string }) {
  return (
    <div
      role="alert"
      data-testid={testId}
      className="rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800"
    >
      {message}
    </div>
  );
}
