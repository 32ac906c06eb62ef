import { useId } from 'react';

/** Short "why Boostly is reliable" copy (home and service pages); the text is RELIABILITY_TEXT in copy.ts. */
export function ReliabilityText({ paragraphs }: { paragraphs: readonly string[] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-3xl px-4 py-12 text-center">
      <h2 id={headingId} className="text-2xl font-bold text-ink sm:text-3xl">
        Reliable growth you can count on
      </h2>
      {paragraphs.map((paragraph) => (
        <p key={paragraph} className="mt-4 leading-relaxed text-gray-700">
          {paragraph}
        </p>
      ))}
    </section>
  );
}
