import { useId } from 'react';
import type { CopyItem } from './copy.ts';

/** The four-step "How to buy" guide. */
export function HowToBuy({ steps }: { steps: readonly CopyItem[] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-7xl px-4 py-12">
      <h2 id={headingId} className="text-center text-2xl font-bold text-ink sm:text-3xl">
        How to buy
      </h2>
      <ol className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {steps.map((step, index) => (
          <li key={step.title} className="rounded-card border border-line bg-white p-6 text-center shadow-card">
            <span
              aria-hidden="true"
              className="mx-auto flex h-10 w-10 items-center justify-center rounded-full bg-brand-700 font-bold text-white"
            >
              {index + 1}
            </span>
            <h3 className="mt-4 text-lg font-semibold text-ink">{step.title}</h3>
            <p className="mt-2 text-gray-600">{step.text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}
