import { useEffect, useId, useRef, useState } from 'react';
import { Link } from '../Link.tsx';
import { orderPath } from '../../../core/catalogue/order-path.ts';
import { TierPrice } from '../TierPrice.tsx';

export interface QuantityOption {
  qty: number;
  text: string;
  price: number;
  /** During a sale (decision 031): the price before it, shown struck through beside `price`. */
  listPrice?: number | undefined;
}

/**
 * A disclosure button listing the plan's packages as links to their order pages, with the
 * dropdown's price format (spec section 9: "$" and 2 decimals); during a sale the list price
 * struck through beside the sale price, as on the package cards (decision 031).
 */
export function QuantityDropdown({
  slug,
  type,
  options,
  selectedQty,
}: {
  slug: string;
  type: string;
  options: QuantityOption[];
  selectedQty: number;
}) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const selected = options.find((o) => o.qty === selectedQty);

  useEffect(() => {
    if (!open) return undefined;
    const onPointer = (event: PointerEvent) => {
      if (wrapper.current && !wrapper.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  // A new package was chosen (the page's address changed): fold the list away, in this render.
  const [shownQty, setShownQty] = useState(selectedQty);
  if (shownQty !== selectedQty) {
    setShownQty(selectedQty);
    setOpen(false);
  }

  return (
    <div
      ref={wrapper}
      className="relative"
      onBlur={(event) => {
        if (open && wrapper.current && !wrapper.current.contains(event.relatedTarget) && event.relatedTarget)
          setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        data-testid="quantity-dropdown"
        onClick={() => setOpen((value) => !value)}
        className="flex w-full items-center justify-between gap-3 rounded-xl border-2 border-gray-200 bg-white px-4 py-3 text-left font-semibold text-gray-900 hover:border-brand-500 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        <span>
          <span className="block text-xs font-bold uppercase tracking-wide text-gray-700">Quantity</span>
          <span>
            {selected ? (
              <>
                {selected.text} · <TierPrice price={selected.price} listPrice={selected.listPrice} />
              </>
            ) : (
              'Choose a quantity'
            )}
          </span>
        </span>
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className={`h-5 w-5 text-gray-700 transition-transform ${open ? 'rotate-180' : ''}`}
          fill="currentColor"
        >
          <path d="M5.3 7.3a1 1 0 0 1 1.4 0L10 10.6l3.3-3.3a1 1 0 1 1 1.4 1.4l-4 4a1 1 0 0 1-1.4 0l-4-4a1 1 0 0 1 0-1.4z" />
        </svg>
      </button>
      <ul
        id={listId}
        hidden={!open}
        aria-label="Quantities"
        className="absolute top-full right-0 left-0 z-30 mt-2 max-h-80 overflow-auto rounded-xl border border-gray-200 bg-white py-1 shadow-lg"
      >
        {options.map((option) => {
          const active = option.qty === selectedQty;
          return (
            <li key={option.qty}>
              <Link
                to={orderPath(slug, option.qty, type)}
                aria-current={active ? 'true' : undefined}
                data-testid="quantity-option"
                onClick={() => setOpen(false)}
                className={`flex items-center justify-between gap-4 px-4 py-2 text-sm hover:bg-brand-50 focus-visible:bg-brand-50 focus-visible:outline-none ${
                  active ? 'font-bold text-brand-800' : 'text-gray-800'
                }`}
              >
                <span>{option.text}</span>
                <span>
                  <TierPrice price={option.price} listPrice={option.listPrice} />
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
