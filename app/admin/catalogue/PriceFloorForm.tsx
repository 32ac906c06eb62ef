/**
 * The owner's price floor on the catalogue page (core/catalogue/price-floor.ts): a save that
 * prices a tier below it, or cuts a price by more than half, asks first. Empty turns it off.
 */
import { useEffect, useId, useState } from 'react';
import type { PriceFloor } from '../../../core/catalogue/price-floor.ts';
import { isAbort, messageOf } from '../../api/client.ts';
import { adminFieldClass, adminSecondaryButtonClass } from '../list-parts.tsx';
import { formatAdminPrice } from '../orders.tsx';
import { useToasts } from '../toasts.tsx';
import { adminApi, isUnauthorized } from '../token.ts';

const PATH = '/api/admin/catalogue/price-floor';

export function PriceFloorForm() {
  const ids = useId();
  const toasts = useToasts();
  const [floor, setFloor] = useState<PriceFloor | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    adminApi.get<PriceFloor>(PATH, { signal: controller.signal }).then(
      (loaded) => {
        setFloor(loaded);
        setText(loaded.floor === null ? '' : loaded.floor.toFixed(2));
      },
      (failure: unknown) => {
        if (!isAbort(failure) && !isUnauthorized(failure)) setError(messageOf(failure));
      },
    );
    return () => controller.abort();
  }, []);

  async function save() {
    if (saving) return;
    setSaving(true);
    setError(null);
    try {
      const trimmed = text.trim().replace(/^\$/, '');
      const reply = await adminApi.send<{ message: string; data: PriceFloor }, { floor: string | null }>('PUT', PATH, {
        body: { floor: trimmed === '' ? null : trimmed },
      });
      setFloor(reply.data);
      setText(reply.data.floor === null ? '' : reply.data.floor.toFixed(2));
      toasts.show(reply.message, 'success');
    } catch (failure) {
      if (!isUnauthorized(failure)) setError(messageOf(failure));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      className="mt-6 rounded-2xl border border-gray-200 bg-white p-4"
      aria-labelledby={`${ids}-title`}
      data-testid="price-floor"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
      noValidate
    >
      <h2 id={`${ids}-title`} className="text-lg font-bold text-gray-900">
        Price floor
      </h2>
      <p id={`${ids}-help`} className="mt-1 text-sm text-gray-700">
        A save that prices a package below this, or cuts a price by more than half, asks you first. Leave it empty to
        ask only about cuts.
        {floor?.isDefault ? ` Not set yet: ${formatAdminPrice(floor.defaultFloor)} applies.` : ''}
      </p>
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <div className="min-w-0">
          <label htmlFor={`${ids}-floor`} className="block text-sm font-semibold text-gray-900">
            Lowest price without asking ($)
          </label>
          <input
            id={`${ids}-floor`}
            value={text}
            inputMode="decimal"
            onChange={(event) => setText(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${ids}-help${error ? ` ${ids}-error` : ''}`}
            className={`${adminFieldClass} mt-1 w-40 tabular-nums`}
            data-testid="price-floor-input"
          />
        </div>
        <button type="submit" disabled={saving || floor === null} className={adminSecondaryButtonClass}>
          {saving ? 'Saving…' : 'Save floor'}
        </button>
      </div>
      {error ? (
        <p id={`${ids}-error`} role="alert" className="mt-2 text-sm text-red-800">
          {error}
        </p>
      ) : null}
    </form>
  );
}
