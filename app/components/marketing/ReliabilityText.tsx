import { useId } from 'react';

/** Short "why Boostly is reliable" copy for the home page. */
export function ReliabilityText() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-3xl px-4 py-12 text-center">
      <h2 id={headingId} className="text-2xl font-bold text-gray-900 sm:text-3xl">
        Reliable growth you can count on
      </h2>
      <p className="mt-4 leading-relaxed text-gray-700">
        Boostly promotes your profile through advertising, so new followers, views and likes arrive gradually over days
        rather than all at once. Steady delivery looks natural and keeps your account safe, and we only ever need your
        username or link, never your password.
      </p>
      <p className="mt-4 leading-relaxed text-gray-700">
        Every order is tracked from payment to completion, backed by a 30-day refill guarantee and a full refund if
        delivery fails. Our support team is available 24 hours a day, 7 days a week, holidays included.
      </p>
    </section>
  );
}
