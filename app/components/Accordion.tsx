import { type ReactNode, useState } from 'react';

export interface AccordionItem {
  question: string;
  answer: ReactNode;
}

export type AccordionVariant = 'card' | 'flush' | 'radio';

export interface AccordionProps {
  items: AccordionItem[];
  /** Prefix for the header and panel ids; must be unique on the page. */
  idPrefix: string;
  /** `card`: separate bordered boxes (default). `flush`: one divided list. `radio`: cards with a radio-style marker. */
  variant?: AccordionVariant;
}

const wrapperClass: Record<AccordionVariant, string> = {
  card: 'space-y-3',
  flush: 'divide-y divide-gray-200 border-y border-gray-200',
  radio: 'space-y-3',
};

const itemClass: Record<AccordionVariant, (open: boolean) => string> = {
  card: (open) =>
    `rounded-xl border bg-white shadow-sm transition-colors ${open ? 'border-brand-200' : 'border-gray-200'}`,
  flush: () => 'bg-white',
  radio: (open) =>
    `rounded-xl border bg-white transition-colors ${open ? 'border-brand-600 bg-brand-50' : 'border-gray-200'}`,
};

function Marker({ open, variant }: { open: boolean; variant: AccordionVariant }) {
  if (variant === 'radio') {
    return (
      <span
        aria-hidden="true"
        className={`flex h-5 w-5 shrink-0 items-center justify-center rounded-full border-2 ${
          open ? 'border-brand-700' : 'border-gray-400'
        }`}
      >
        {open ? <span className="h-2.5 w-2.5 rounded-full bg-brand-700" /> : null}
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
      className={`h-5 w-5 shrink-0 text-brand-700 transition-transform duration-200 ${open ? 'rotate-180' : ''}`}
    >
      <path d="M5 7.5l5 5 5-5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** Disclosure list: one item open at a time, the first open initially; clicking the open one closes it. */
export function Accordion({ items, idPrefix, variant = 'card' }: AccordionProps) {
  const [openIndex, setOpenIndex] = useState<number | null>(items.length > 0 ? 0 : null);
  const padded = variant !== 'flush';

  return (
    <div className={wrapperClass[variant]}>
      {items.map((item, index) => {
        const open = openIndex === index;
        const headerId = `${idPrefix}-header-${index}`;
        const panelId = `${idPrefix}-panel-${index}`;
        const radioFirst = variant === 'radio';
        return (
          <div key={headerId} data-testid="accordion-item" className={itemClass[variant](open)}>
            <h3 className="m-0">
              <button
                type="button"
                id={headerId}
                aria-expanded={open}
                aria-controls={panelId}
                onClick={() => setOpenIndex(open ? null : index)}
                className={`flex w-full items-center gap-3 text-left text-base font-semibold text-gray-900 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 ${
                  padded ? 'rounded-xl px-5 py-4' : 'py-4'
                } ${radioFirst ? '' : 'justify-between'}`}
              >
                {radioFirst ? <Marker open={open} variant={variant} /> : null}
                <span className={radioFirst ? 'flex-1' : ''}>{item.question}</span>
                {radioFirst ? null : <Marker open={open} variant={variant} />}
              </button>
            </h3>
            <div
              id={panelId}
              role="region"
              aria-labelledby={headerId}
              hidden={!open}
              className={`text-gray-700 leading-relaxed ${padded ? 'px-5 pb-5' : 'pb-4'} ${radioFirst ? 'pl-13' : ''}`}
            >
              {item.answer}
            </div>
          </div>
        );
      })}
    </div>
  );
}
