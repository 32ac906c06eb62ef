import { useId } from 'react';
import type { DetailItem } from './copy.ts';

/** The home page's "Package details" block, as a definition list in a card grid. */
export function DescriptionBlock({ items }: { items: readonly DetailItem[] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-7xl px-4 py-12">
      <h2 id={headingId} className="text-2xl font-bold text-ink sm:text-3xl">
        Package details
      </h2>
      <dl className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((item) => (
          <div key={item.term} className="rounded-card border border-line bg-white p-5 shadow-card">
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
