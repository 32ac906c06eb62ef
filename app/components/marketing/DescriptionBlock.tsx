import { useId } from 'react';

interface DetailItem {
  term: string;
  value: string;
  hint: string;
}

/**
 * Spec section 2, home page description block. The spec's "no refill or refund" contradicts the
 * 30-day refill guarantee and refund promises elsewhere; we keep the guarantees.
 */
const DETAILS: DetailItem[] = [
  { term: 'Start time', value: '24-72H', hint: 'Delivery begins within 24 to 72 hours of payment.' },
  { term: 'Speed', value: '1-10 K/D', hint: 'Between 1,000 and 10,000 a day, delivered gradually.' },
  { term: 'Quality', value: 'Mix Real', hint: 'A mix of real and active profiles.' },
  { term: 'Drop', value: '10-40%', hint: 'Some natural drop is expected over time.' },
  { term: 'Gift', value: '0-20%', hint: 'Bonus extra on top of your order, free of charge.' },
  { term: 'Link', value: 'Username without @', hint: 'Give your username only, never your password.' },
  { term: 'Refill', value: '30-day guarantee', hint: 'Drops within 30 days are topped up for free.' },
  {
    term: 'Refund',
    value: 'full, if not delivered',
    hint: 'What is not delivered is refunded within 48 hours of the order ending.',
  },
  { term: 'Page', value: 'Must be public', hint: 'We cannot deliver to a private account.' },
];

/** The home page's "Package details" block, as a definition list in a card grid. */
export function DescriptionBlock() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-7xl px-4 py-12">
      <h2 id={headingId} className="text-2xl font-bold text-gray-900 sm:text-3xl">
        Package details
      </h2>
      <dl className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {DETAILS.map((item) => (
          <div key={item.term} className="rounded-2xl border border-gray-200 bg-white p-5 shadow-sm">
            <dt className="text-sm font-medium uppercase tracking-wide text-gray-600">{item.term}</dt>
            <dd className="mt-1">
              <span className="block text-xl font-bold text-brand-700 first-letter:uppercase">{item.value}</span>
              <span className="mt-1 block text-sm text-gray-600">{item.hint}</span>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
