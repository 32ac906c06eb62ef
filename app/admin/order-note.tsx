/**
 * The team's internal note on an order (core/admin/order-notes.ts): plain text, shown as text,
 * for owners and support admins only; the customer never sees it. Saving an empty note removes it.
 */
import { useId, useState } from 'react';
import { useRevalidator } from 'react-router';
import { ORDER_NOTE_MAX_LENGTH, type OrderNote, type OrderNoteBody } from '../../core/admin/contracts.ts';
import { messageOf } from '../api/client.ts';
import { adminFieldClass, adminSecondaryButtonClass } from './list-parts.tsx';
import { formatAdminDate } from './orders.tsx';
import { useToasts } from './toasts.tsx';
import { adminApi, isUnauthorized } from './token.ts';

export function OrderNotePanel({ orderId, note }: { orderId: string; note: OrderNote | null }) {
  const ids = useId();
  const toasts = useToasts();
  const revalidator = useRevalidator();
  const [text, setText] = useState(note?.text ?? '');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const unchanged = text.trim() === (note?.text ?? '');

  async function save() {
    if (saving) return;
    setSaving(true);
    setError(null);
    try {
      const reply = await adminApi.send<{ message: string; data: OrderNote | null }, OrderNoteBody>(
        'PUT',
        `/api/order/note/${encodeURIComponent(orderId)}`,
        { body: { note: text } },
      );
      setText(reply.data?.text ?? '');
      toasts.show(reply.message, 'success');
      void revalidator.revalidate();
    } catch (failure) {
      if (!isUnauthorized(failure)) setError(messageOf(failure));
    } finally {
      setSaving(false);
    }
  }

  return (
    <section
      aria-labelledby={`${ids}-title`}
      data-testid="order-note"
      className="mt-6 rounded-2xl border border-gray-200 bg-white p-6 shadow-sm"
    >
      <h2 id={`${ids}-title`} className="text-lg font-bold text-gray-900">
        Internal note
      </h2>
      <p id={`${ids}-help`} className="mt-1 text-sm text-gray-700">
        For your team only: the customer never sees it.
        {note ? ` Last changed ${formatAdminDate(note.updatedAt)}.` : ''}
      </p>
      <form
        className="mt-3"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <label htmlFor={`${ids}-text`} className="sr-only">
          Internal note
        </label>
        <textarea
          id={`${ids}-text`}
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={3}
          maxLength={ORDER_NOTE_MAX_LENGTH}
          aria-describedby={`${ids}-help ${ids}-count${error ? ` ${ids}-error` : ''}`}
          aria-invalid={error ? true : undefined}
          className={`${adminFieldClass} w-full`}
          data-testid="order-note-text"
        />
        <div className="mt-2 flex flex-wrap items-center gap-3">
          <button
            type="submit"
            disabled={saving || unchanged}
            className={adminSecondaryButtonClass}
            data-testid="order-note-save"
          >
            {saving ? 'Saving…' : 'Save note'}
          </button>
          <span id={`${ids}-count`} className="text-sm text-gray-700 tabular-nums">
            {text.length.toLocaleString('en-US')} of {ORDER_NOTE_MAX_LENGTH.toLocaleString('en-US')} characters
          </span>
        </div>
        {error ? (
          <p id={`${ids}-error`} role="alert" className="mt-2 text-sm text-red-800">
            {error}
          </p>
        ) : null}
      </form>
    </section>
  );
}
