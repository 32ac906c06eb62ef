import type { ReactNode } from 'react';

export interface AccordionItem {
  question: string;
  answer: ReactNode;
}

export type AccordionVariant = 'card' | 'flush' | 'radio';

export interface AccordionProps {
  items: AccordionItem[];
  /** Names the group of items of which one at a time is open; must be unique on the page. */
  idPrefix: string;
  /** `card`: separate bordered boxes (default). `flush`: one divided list. `radio`: cards with a radio-style marker. */
  variant?: AccordionVariant;
}

const wrapperClass: Record<AccordionVariant, string> = {
  card: 'space-y-3',
  flush: 'divide-y divide-gray-200 border-y border-gray-200',
  radio: 'space-y-3',
};

// The open item's look comes from the `open` attribute (Tailwind's open: and group-open:), so it
// follows the browser's own state with or without JavaScript.
const itemClass: Record<AccordionVariant, string> = {
  card: 'rounded-xl border border-gray-200 bg-white shadow-sm transition-colors open:border-brand-200',
  flush: 'bg-white',
  radio: 'rounded-xl border border-gray-200 bg-white transition-colors open:border-brand-600 open:bg-brand-50',
};

function Marker({ variant }: { variant: AccordionVariant }) {
  if (variant === 'radio') {
    return (
      <span
        aria-hidden="true"
        className="flex h-5 w-5 shrink-0 items-center justify-center rounded-full border-2 border-gray-400 group-open:border-brand-700"
      >
        <span className="hidden h-2.5 w-2.5 rounded-full bg-brand-700 group-open:block" />
      </span>
    );
  }
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      className="h-5 w-5 shrink-0 text-brand-700 transition-transform duration-200 group-open:rotate-180"
    >
      <path d="M5 7.5l5 5 5-5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * Disclosure list: one item open at a time, the first open initially; clicking the open one closes
 * it. Built on `<details name>`, so the browser does all of it, with or without JavaScript, and
 * tells assistive technology whether each question is expanded.
 */
export function Accordion({ items, idPrefix, variant = 'card' }: AccordionProps) {
  const padded = variant !== 'flush';
  const radioFirst = variant === 'radio';
  return (
    <div className={wrapperClass[variant]}>
      {items.map((item, index) => {
        return (
          // `open` is the first render's state only: the browser keeps it from then on (React never
          // changes the attribute again, since the prop never changes).
          <details
            key={item.question}
            name={idPrefix}
            open={index === 0}
            data-testid="accordion-item"
            className={`group ${itemClass[variant]}`}
          >
            <summary
              className={`flex w-full cursor-pointer list-none items-center gap-3 text-left text-base font-semibold text-gray-900 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 [&::-webkit-details-marker]:hidden ${
                padded ? 'rounded-xl px-5 py-4' : 'py-4'
              } ${radioFirst ? '' : 'justify-between'}`}
            >
              {radioFirst ? <Marker variant={variant} /> : null}
              {/* A heading inside the summary (the HTML content model allows it) keeps the page's outline. */}
              <h3 className={`m-0 text-base font-semibold ${radioFirst ? 'flex-1' : ''}`}>{item.question}</h3>
              {radioFirst ? null : <Marker variant={variant} />}
            </summary>
            <div
              className={`text-gray-700 leading-relaxed ${padded ? 'px-5 pb-5' : 'pb-4'} ${radioFirst ? 'pl-13' : ''}`}
            >
              {item.answer}
            </div>
          </details>
        );
      })}
    </div>
  );
}
