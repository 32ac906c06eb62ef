import { useId, useState } from 'react';
import { useRevalidator } from 'react-router';
import type { Route } from './+types/payment-methods';
import { e4ToNumber } from '../../../core/money/money.ts';
import {
  PREVIEW_BASE_E4,
  type PaymentMethodSetting,
  type PaymentMethodSettings,
  isRiskyAdjustment,
} from '../../../core/payments/method-settings-contracts.ts';
import { MINIMUM_CHARGE_E4, adjustedAmountE4 } from '../../../core/payments/methods.ts';
import { ConfirmDialog } from '../../admin/blog/ConfirmDialog.tsx';
import { adminFieldClass, adminPrimaryButtonClass } from '../../admin/list-parts.tsx';
import { ButtonSpinner, formatAdminPrice } from '../../admin/orders.tsx';
import { type AdminLoad, AdminLoadFailed, adminPage, loadAdminData } from '../../admin/page.tsx';
import { useToasts } from '../../admin/toasts.tsx';
import { adminApi, isUnauthorized } from '../../admin/token.ts';
import { ApiError, messageOf } from '../../api/client.ts';

/**
 * The owner's payment methods: each method the store offers, the provider that serves it, whether
 * it takes real money or is simulated, and its price change in percent (a discount below zero),
 * with what a $10.00 package costs by it as typed. Saving reprices the next checkout; a discount
 * deeper than 20% is asked about first. Owner only, like the catalogue's prices (decision 041).
 */

const page = adminPage({
  title: 'Payment methods',
  titleId: 'payment-methods-title',
  description:
    'How buyers can pay, and what each way costs them: a price change in percent on every package (below zero is a discount, for example to pass on a cheaper provider’s saving).',
  loading: { label: 'Loading payment methods...', testId: 'payment-methods-loading' },
});

export const meta: Route.MetaFunction = page.meta;
export const headers: Route.HeadersFunction = page.headers;
export const HydrateFallback = page.HydrateFallback;

type SettingsLoad = AdminLoad<{ settings: PaymentMethodSettings }>;

export function clientLoader({ request }: Route.ClientLoaderArgs): Promise<SettingsLoad> {
  return loadAdminData('GET /api/admin/payment-methods', async () => ({
    settings: await adminApi.get<PaymentMethodSettings>('/api/admin/payment-methods', { signal: request.signal }),
  }));
}

/** "-5", "2.5", "0": a percent as the owner types it. */
const percentText = (value: number) => String(value);

/** "+5%", "−5%", "no change". */
function describePercent(value: number): string {
  if (value === 0) return 'no change';
  return value > 0 ? `+${value}%` : `−${Math.abs(value)}%`;
}

/** The typed text as a percent within the bounds with at most 2 decimals, or why not. */
function readPercent(
  text: string,
  settings: PaymentMethodSettings,
): { ok: true; value: number } | { ok: false; error: string } {
  const trimmed = text.trim().replace('−', '-').replace(/%$/, '').trim();
  if (!/^[+-]?\d+(\.\d{1,2})?$/.test(trimmed)) {
    return { ok: false, error: 'Enter a percent with at most 2 decimals, for example -5 or 2.5.' };
  }
  const value = Number(trimmed);
  if (value < settings.minPercent || value > settings.maxPercent) {
    return { ok: false, error: `Enter a percent from ${settings.minPercent} to ${settings.maxPercent}.` };
  }
  return { ok: true, value };
}

function MethodRow({
  method,
  text,
  error,
  onChange,
  settings,
}: {
  method: PaymentMethodSetting;
  text: string;
  error: string | undefined;
  onChange: (text: string) => void;
  settings: PaymentMethodSettings;
}) {
  const ids = useId();
  const read = readPercent(text, settings);
  const shownError = error ?? (read.ok ? undefined : read.error);
  const preview = read.ok ? e4ToNumber(adjustedAmountE4(PREVIEW_BASE_E4, read.value).amountE4) : null;
  return (
    <li
      className="grid gap-4 rounded-2xl border border-gray-200 bg-white p-4 sm:grid-cols-[1fr_auto] sm:items-start"
      data-testid="payment-method"
      data-method={method.id}
    >
      <div className="min-w-0">
        <h2 className="text-base font-bold text-gray-900">{method.label}</h2>
        <p className="mt-1 text-sm text-gray-700">{method.detail}</p>
        <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-gray-700">
          <span>
            Through <span className="font-semibold text-gray-900">{method.providerLabel}</span>
          </span>
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-bold ${
              method.testMode ? 'bg-amber-100 text-amber-900' : 'bg-green-100 text-green-900'
            }`}
            data-testid="payment-method-mode"
          >
            {method.testMode ? 'Test mode: payments are simulated' : 'Live: takes real money'}
          </span>
        </p>
      </div>
      <div className="min-w-0 sm:w-64">
        <label htmlFor={`${ids}-percent`} className="block text-sm font-semibold text-gray-900">
          Price change (%)
        </label>
        <input
          id={`${ids}-percent`}
          value={text}
          inputMode="decimal"
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={`${ids}-preview ${shownError ? `${ids}-error` : ''}`.trim()}
          className={`${adminFieldClass} mt-1 w-full tabular-nums`}
          data-testid="payment-method-percent"
        />
        {shownError ? (
          <p id={`${ids}-error`} className="mt-1 text-sm text-red-800">
            {shownError}
          </p>
        ) : null}
        <p id={`${ids}-preview`} className="mt-1 text-sm text-gray-700" data-testid="payment-method-preview">
          {preview === null
            ? `A ${formatAdminPrice(settings.previewBase)} package: enter a valid percent to see its price.`
            : `A ${formatAdminPrice(settings.previewBase)} package costs ${formatAdminPrice(preview)}.`}{' '}
          Default {describePercent(method.defaultAdjustmentPercent)}.
        </p>
      </div>
    </li>
  );
}

export default function PaymentMethodsPage({ loaderData: load }: Route.ComponentProps) {
  const toasts = useToasts();
  const revalidator = useRevalidator();
  const settings = load.ok ? load.settings : null;
  /** What the owner typed per method; a method not typed in shows its saved value. */
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);

  if (!settings) {
    return (
      <section aria-labelledby={page.titleId}>
        <page.Title />
        {!load.ok ? <AdminLoadFailed load={load} /> : null}
      </section>
    );
  }

  const textOf = (method: PaymentMethodSetting) => typed[method.id] ?? percentText(method.adjustmentPercent);
  const changes = settings.methods.flatMap((method) => {
    const read = readPercent(textOf(method), settings);
    return read.ok && read.value !== method.adjustmentPercent ? [{ method, value: read.value }] : [];
  });
  const invalid = settings.methods.some((method) => !readPercent(textOf(method), settings).ok);
  const risky = changes.filter((change) => isRiskyAdjustment(change.value));
  const testMode = settings.methods.some((method) => method.testMode);

  async function save() {
    setConfirming(false);
    setSaving(true);
    setServerErrors({});
    try {
      const adjustments = Object.fromEntries(changes.map(({ method, value }) => [method.id, value]));
      const reply = await adminApi.send<{ message: string }>('PUT', '/api/admin/payment-methods', {
        body: { adjustments },
      });
      toasts.show(reply.message, 'success');
      // The fields keep what was typed until the saved values have been read back.
      await revalidator.revalidate();
      setTyped({});
    } catch (error) {
      if (isUnauthorized(error)) return;
      if (error instanceof ApiError && error.fieldErrors.length > 0) {
        setServerErrors(
          Object.fromEntries(
            error.fieldErrors.map((entry) => [entry.field.replace(/^adjustments\./, ''), entry.message]),
          ),
        );
      }
      toasts.show('The prices were not saved', 'error', messageOf(error));
    } finally {
      setSaving(false);
    }
  }

  const riskyText = risky
    .map(({ method, value }) => {
      const charge = e4ToNumber(adjustedAmountE4(PREVIEW_BASE_E4, value).amountE4);
      return `${method.label} at ${describePercent(value)}: a ${formatAdminPrice(settings.previewBase)} package would sell for ${formatAdminPrice(charge)}`;
    })
    .join('; ');

  return (
    <section aria-labelledby={page.titleId}>
      <page.Title
        action={
          <button
            type="button"
            className={adminPrimaryButtonClass}
            disabled={saving || invalid || changes.length === 0}
            onClick={() => (risky.length > 0 ? setConfirming(true) : void save())}
            data-testid="payment-methods-save"
          >
            {saving ? <ButtonSpinner /> : null}
            Save prices
          </button>
        }
      />
      {testMode ? (
        <p className="mb-4 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          No payment provider’s keys are set, so every method is simulated and every page says so. Set a provider’s keys
          (see the README’s configuration) to take real money; the price changes set here stay.
        </p>
      ) : null}
      {settings.methods.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-gray-300 bg-white p-6 text-gray-700">
          No payment method is configured. Set a payment provider’s keys to offer one.
        </p>
      ) : (
        <ul className="grid gap-4" data-testid="payment-methods">
          {settings.methods.map((method) => (
            <MethodRow
              key={method.id}
              method={method}
              settings={settings}
              text={textOf(method)}
              error={serverErrors[method.id]}
              onChange={(text) => {
                setTyped((current) => ({ ...current, [method.id]: text }));
                setServerErrors((current) => {
                  const { [method.id]: _dropped, ...rest } = current;
                  return rest;
                });
              }}
            />
          ))}
        </ul>
      )}
      <p className="mt-4 text-sm text-gray-700">
        Changes from {settings.minPercent}% to +{settings.maxPercent}%, up to 2 decimals. Buyers see each method’s price
        before they pay, and are charged exactly that; no method charges less than{' '}
        {formatAdminPrice(e4ToNumber(MINIMUM_CHARGE_E4))} unless the package itself costs less.
      </p>
      <ConfirmDialog
        open={confirming}
        title={`Sell at a discount of more than ${settings.riskyDiscountPercent}%?`}
        text={`${riskyText}. Every package bought this way sells that far below its price, from the next checkout on.`}
        confirmLabel="Save the discount"
        destructive
        busy={saving}
        onConfirm={() => void save()}
        onCancel={() => setConfirming(false)}
        testId="payment-methods-confirm"
      />
    </section>
  );
}
