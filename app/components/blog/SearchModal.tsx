import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { StrokeIcon } from '../StrokeIcon.tsx';
import { blogSearchPath } from './format.ts';

declare module 'react' {
  // Invoker commands (HTML: a button opens or closes a dialog with no script). React renders the
  // attributes as written (lowercase); @types/react does not list them yet.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- a merged interface must repeat React's type parameter
  interface ButtonHTMLAttributes<T> {
    commandfor?: string;
    command?: 'show-modal' | 'close';
  }
}

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * The blog header's search (spec "Public blog"): a modal dialog that keeps the focus inside,
 * closes on Escape, gives the focus back to the button that opened it, and goes to `/blog?s=`
 * only when the trimmed text is not empty (an empty one does nothing).
 *
 * The buttons open and close the dialog by themselves (invoker commands), and the form is a plain
 * GET form, so the search works on pages without JavaScript too (the post pages); there the
 * browser's own modal keeps the page inert and `required` refuses an empty search. Where React
 * runs, it adds the focus trap, the clearing and the navigation without a page load.
 */
export function SearchModal() {
  const navigate = useNavigate();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const openerRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const inputId = useId();
  const dialogId = useId();

  // The opener's command has already shown the dialog (a modal <dialog> makes the rest of the page
  // inert and closes on Escape by itself); this only follows its state and moves the focus.
  const onOpened = () => {
    setOpen(true);
    inputRef.current?.focus();
  };
  const hide = () => dialogRef.current?.close();

  /** Every way of closing (Escape, the close button, a search) ends here. */
  const onClose = () => {
    setOpen(false);
    if (inputRef.current) inputRef.current.value = '';
    openerRef.current?.focus();
  };

  /** Tab and Shift+Tab wrap around inside the dialog instead of leaving for the browser's own UI. */
  const trapFocus = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = [...dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = inputRef.current?.value ?? '';
    if (!text.trim()) {
      inputRef.current?.focus();
      return;
    }
    hide();
    void navigate(blogSearchPath(text));
  };

  return (
    <>
      <button
        ref={openerRef}
        type="button"
        // eslint-disable-next-line react/no-unknown-property -- invoker command attributes (declared above)
        command="show-modal"
        // eslint-disable-next-line react/no-unknown-property -- as above
        commandfor={dialogId}
        onClick={onOpened}
        aria-haspopup="dialog"
        aria-expanded={open}
        data-testid="blog-search-open"
        className="flex h-10 w-10 items-center justify-center rounded-full text-gray-800 hover:bg-brand-50 hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
      >
        <StrokeIcon className="h-5 w-5">
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-3.5-3.5" />
        </StrokeIcon>
        <span className="sr-only">Search the blog</span>
      </button>
      {/* The keydown handler is the focus trap; Escape is the dialog's own. */}
      <dialog
        ref={dialogRef}
        id={dialogId}
        aria-labelledby={titleId}
        onClose={onClose}
        onKeyDown={trapFocus}
        data-testid="blog-search-dialog"
        className="m-auto w-[min(36rem,calc(100vw-2rem))] rounded-2xl bg-white p-6 shadow-xl backdrop:bg-gray-900/60"
      >
        <div className="flex items-center justify-between gap-4">
          <h2 id={titleId} className="text-lg font-bold text-gray-900">
            Search the blog
          </h2>
          <button
            type="button"
            // eslint-disable-next-line react/no-unknown-property -- invoker command attributes (declared above)
            command="close"
            // eslint-disable-next-line react/no-unknown-property -- as above
            commandfor={dialogId}
            data-testid="blog-search-close"
            className="flex h-9 w-9 items-center justify-center rounded-full text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-brand-700"
          >
            <StrokeIcon className="h-5 w-5">
              <path d="M6 6l12 12M18 6 6 18" />
            </StrokeIcon>
            <span className="sr-only">Close search</span>
          </button>
        </div>
        <form role="search" method="get" action="/blog" onSubmit={onSubmit} className="mt-4 flex gap-2">
          <label htmlFor={inputId} className="sr-only">
            Search text
          </label>
          <input
            ref={inputRef}
            id={inputId}
            // Not type="search": Chromium's search field eats the first Escape to clear itself.
            type="text"
            enterKeyHint="search"
            name="s"
            required
            // The browser focuses it when the dialog opens, with or without JavaScript (the dialog's
            // autofocus, not the page's: the field is not rendered until the dialog opens).
            // eslint-disable-next-line jsx-a11y/no-autofocus -- see above
            autoFocus
            placeholder="Type and hit enter..."
            data-testid="blog-search-modal-input"
            className="min-w-0 flex-1 rounded-xl border-2 border-gray-300 px-4 py-3 text-gray-900 placeholder:text-gray-600 focus:border-brand-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
          />
          <button
            type="submit"
            className="rounded-xl bg-brand-700 px-5 py-3 font-bold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            Search
          </button>
        </form>
      </dialog>
    </>
  );
}
