/**
 * A modal question with two answers (delete a post, leave with unsaved changes). The native
 * `<dialog>` opened with `showModal()` gives the modal behaviour for free: the rest of the page is
 * inert, focus stays inside, Escape cancels, and focus goes back where it was on close.
 */
import { type ReactNode, useEffect, useId, useRef } from 'react';
import { ButtonSpinner } from '../spinner.tsx';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  cancelLabel?: string;
  /** The confirm button is red (a destructive action). */
  destructive?: boolean;
  /** Shows a spinner on the confirm button and ignores further clicks. */
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  testId?: string;
  /** What the question is about, under the text (a list of the prices it would set…). */
  children?: ReactNode;
}

export function ConfirmDialog({
  open,
  title,
  text,
  confirmLabel,
  cancelLabel = 'Cancel',
  destructive = false,
  busy = false,
  onConfirm,
  onCancel,
  testId,
  children,
}: ConfirmDialogProps) {
  const ids = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      // The safe answer first: Enter or Space right away must not delete or discard.
      cancelButton.current?.focus();
    }
    if (!open && element.open) element.close();
  }, [open]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={`${ids}-title`}
      aria-describedby={`${ids}-text`}
      data-testid={testId}
      // Escape (and the browser's own close) is a cancel.
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl border border-gray-200 bg-white p-6 text-gray-900 shadow-xl backdrop:bg-gray-900/50"
    >
      <div className="flex flex-col items-center text-center">
        <span
          aria-hidden="true"
          className={`mb-4 flex h-14 w-14 items-center justify-center rounded-full border-4 text-2xl font-bold ${
            destructive ? 'border-amber-300 text-amber-600' : 'border-brand-200 text-brand-700'
          }`}
        >
          !
        </span>
        <h2 id={`${ids}-title`} className="text-2xl font-bold">
          {title}
        </h2>
        <p id={`${ids}-text`} className="mt-2 text-gray-700">
          {text}
        </p>
        {children}
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <button
            type="button"
            onClick={onConfirm}
            disabled={busy}
            className={`inline-flex items-center gap-2 rounded-xl px-5 py-2 font-semibold text-white focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-wait disabled:opacity-70 ${
              destructive
                ? 'bg-red-700 hover:bg-red-800 focus-visible:outline-red-700'
                : 'bg-brand-700 hover:bg-brand-800 focus-visible:outline-brand-700'
            }`}
          >
            {busy ? <ButtonSpinner /> : null}
            {confirmLabel}
          </button>
          <button
            type="button"
            onClick={onCancel}
            ref={cancelButton}
            disabled={busy}
            className="rounded-xl border-2 border-gray-300 bg-white px-5 py-2 font-semibold text-gray-900 hover:border-brand-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            {cancelLabel}
          </button>
        </div>
      </div>
    </dialog>
  );
}
