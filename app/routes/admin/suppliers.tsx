import { type FormEvent, useId, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Link } from '../../components/Link.tsx';
import type { Route } from './+types/suppliers';
import {
  AddPanelSchema,
  EditPanelSchema,
  type ImportResult,
  type PanelBalance,
  type PanelView,
  type SuppliersPage,
} from '../../../core/fulfilment/supplier-contracts.ts';
import { adminFieldClass, adminPrimaryButtonClass, adminSecondaryButtonClass } from '../../admin/list-parts.tsx';
import { ButtonSpinner, formatAdminDate } from '../../admin/orders.tsx';
import { type AdminLoad, AdminLoadFailed, adminPage, loadAdminData } from '../../admin/page.tsx';
import { useToasts } from '../../admin/toasts.tsx';
import { adminApi, isUnauthorized } from '../../admin/token.ts';
import { ApiError, messageOf } from '../../api/client.ts';
import { schemaCheck } from '../../components/schema-check.ts';
import { useFormCheck } from '../../components/use-form-check.ts';

/**
 * Supplier panels (decision 045), owner only: each panel with where its URL comes from, its
 * currency, balance and low-balance threshold; add, edit and remove stored panels (their API keys
 * are stored encrypted and never shown: the page only says a key is saved, or that it cannot be
 * opened with the configured key); "Import services" per panel; the tiers mapped to a service the
 * panel no longer offers or never listed, listed on every visit with links to their services'
 * editors. Without SUPPLIER_KEY_ENCRYPTION_KEY there is no add form: the page says what to set.
 * Loaded in the browser with the admin's token, like every admin page.
 */

const page = adminPage({
  title: 'Suppliers',
  titleId: 'suppliers-title',
  description:
    'The SMM panels that deliver your orders. Each price tier is bought from one panel (set in the catalogue); an order stays with the panel it was sold with.',
  loading: { label: 'Loading suppliers...', testId: 'suppliers-loading' },
});

export const meta: Route.MetaFunction = page.meta;
export const headers: Route.HeadersFunction = page.headers;
export const HydrateFallback = page.HydrateFallback;

type SuppliersLoad = AdminLoad<{ page: SuppliersPage; balances: PanelBalance[] }>;

export function clientLoader({ request }: Route.ClientLoaderArgs): Promise<SuppliersLoad> {
  return loadAdminData('GET /api/admin/suppliers', async () => {
    const [suppliersPage, balances] = await Promise.all([
      adminApi.get<SuppliersPage>('/api/admin/suppliers', { signal: request.signal }),
      adminApi.get<PanelBalance[]>('/api/admin/suppliers/balances', { signal: request.signal }),
    ]);
    return { page: suppliersPage, balances };
  });
}

function useReload() {
  const navigate = useNavigate();
  const location = useLocation();
  return () => void navigate(`${location.pathname}${location.search}`, { replace: true });
}

function ErrorBox({ message, testId }: { message: string | null; testId: string }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      data-testid={testId}
      className="mt-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-red-800"
    >
      {message}
    </p>
  );
}

function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string;
  hint?: string;
  error?: string | undefined;
  children: (ids: { id: string; describedBy: string | undefined; invalid: true | undefined }) => React.ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-semibold text-gray-900">
        {label}
      </label>
      {children({ id, describedBy, invalid: error ? true : undefined })}
      {hint ? (
        <p id={hintId} className="text-xs text-gray-700">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm font-semibold text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const PANEL_FORM_FIELDS = ['name', 'url', 'apiKey', 'lowBalanceThreshold'] as const;

interface PanelFormValues {
  name: string;
  url: string;
  apiKey: string;
  lowBalanceThreshold: string;
}

/** The add form, and the edit form of one panel (`panel` set). */
function PanelForm({ panel, canSeal, onDone }: { panel?: PanelView; canSeal: boolean; onDone: () => void }) {
  const toasts = useToasts();
  const reload = useReload();
  const editing = panel !== undefined;
  const environment = panel?.kind === 'environment';
  // The URL and key of a stored panel change only with SUPPLIER_KEY_ENCRYPTION_KEY (the server refuses otherwise).
  const connectionEditable = !environment && canSeal;
  const [values, setValues] = useState<PanelFormValues>({
    name: panel?.name ?? '',
    url: panel?.url ?? '',
    apiKey: '',
    lowBalanceThreshold: panel?.lowBalanceThreshold ?? '',
  });
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (field: keyof PanelFormValues) => (event: { target: { value: string } }) =>
    setValues((current) => ({ ...current, [field]: event.target.value }));
  /** What a save sends: the URL and key only where they can change; an empty key on the edit form keeps the saved one. */
  const bodyOf = (typed: PanelFormValues) => {
    const body: Record<string, string> = { name: typed.name, lowBalanceThreshold: typed.lowBalanceThreshold };
    if (connectionEditable) {
      body['url'] = typed.url;
      if (!editing || typed.apiKey.trim() !== '') body['apiKey'] = typed.apiKey;
    }
    return body;
  };
  /** The API's own schema checks the form first; the server's refusals land on the same fields. */
  const check = useFormCheck({
    fields: PANEL_FORM_FIELDS,
    check: (typed) => schemaCheck(editing ? EditPanelSchema : AddPanelSchema, bodyOf(typed)),
    validateOn: 'submit',
    whileTyping: 'clear',
  });
  const fieldError = check.errorOf;
  const titleId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setError(null);
    if (check.submit(form) === null) return;
    setSaving(true);
    try {
      const body = bodyOf(values);
      const reply = editing
        ? await adminApi.send<{ message: string }>('PATCH', `/api/admin/suppliers/${panel.id}`, { body })
        : await adminApi.send<{ message: string }>('POST', '/api/admin/suppliers', { body });
      toasts.show(reply.message, 'success');
      setValues((current) => ({ ...current, apiKey: '' }));
      onDone();
      reload();
    } catch (failure) {
      if (isUnauthorized(failure)) return;
      if (failure instanceof ApiError) check.refuseFields(failure.fieldErrors, form);
      setError(messageOf(failure));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      onSubmit={(event) => void submit(event)}
      onInput={check.onInput}
      noValidate
      aria-labelledby={titleId}
      data-testid={editing ? `panel-edit-form-${panel.id}` : 'panel-add-form'}
      className={
        editing ? 'mt-4 border-t border-gray-200 pt-4' : 'rounded-2xl border border-gray-200 bg-white p-4 sm:p-6'
      }
    >
      <h2 id={titleId} className={editing ? 'text-base font-bold text-gray-900' : 'text-lg font-bold text-gray-900'}>
        {editing ? `Edit ${panel.name}` : 'Add a panel'}
      </h2>
      {!editing ? (
        <p className="mt-1 text-sm text-gray-700">
          Any panel speaking SMM panel API v2. We ask it for its balance before saving, so a wrong URL or key is caught
          now. The key is stored encrypted and never shown again.
        </p>
      ) : null}
      {editing && !environment && !canSeal ? (
        <p className="mt-1 text-sm text-gray-700">
          The URL and API key can be changed once SUPPLIER_KEY_ENCRYPTION_KEY is set (see below).
        </p>
      ) : null}
      <ErrorBox message={error} testId="panel-form-error" />
      <div className="mt-4 grid gap-4 md:grid-cols-2">
        <Field label="Name" error={fieldError('name')}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              name="name"
              value={values.name}
              onChange={set('name')}
              maxLength={80}
              autoComplete="off"
              aria-describedby={describedBy}
              aria-invalid={invalid}
              className={`${adminFieldClass} w-full`}
            />
          )}
        </Field>
        {!connectionEditable ? null : (
          <Field label="API URL" hint="For example https://panel.example/api/v2" error={fieldError('url')}>
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                name="url"
                type="url"
                inputMode="url"
                value={values.url}
                onChange={set('url')}
                maxLength={500}
                autoComplete="off"
                spellCheck={false}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                className={`${adminFieldClass} w-full`}
              />
            )}
          </Field>
        )}
        {!connectionEditable ? null : (
          <Field
            label={editing ? 'New API key' : 'API key'}
            {...(editing ? { hint: 'Key saved. Leave empty to keep it; enter a new one to replace it.' } : {})}
            error={fieldError('apiKey')}
          >
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                name="apiKey"
                type="password"
                value={values.apiKey}
                onChange={set('apiKey')}
                maxLength={500}
                autoComplete="off"
                spellCheck={false}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                className={`${adminFieldClass} w-full`}
              />
            )}
          </Field>
        )}
        <Field
          label="Low-balance alert below"
          hint="In the panel's currency, e.g. 25. Owners get one e-mail when the balance drops below it. Empty: no alert."
          error={fieldError('lowBalanceThreshold')}
        >
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              name="lowBalanceThreshold"
              inputMode="decimal"
              value={values.lowBalanceThreshold}
              onChange={set('lowBalanceThreshold')}
              maxLength={14}
              autoComplete="off"
              aria-describedby={describedBy}
              aria-invalid={invalid}
              className={`${adminFieldClass} w-full`}
            />
          )}
        </Field>
      </div>
      <div className="mt-4 flex flex-wrap gap-2">
        <button type="submit" className={adminPrimaryButtonClass} disabled={saving}>
          {saving ? <ButtonSpinner /> : null}
          {editing ? 'Save panel' : 'Check and add panel'}
        </button>
        {editing ? (
          <button type="button" className={adminSecondaryButtonClass} onClick={onDone}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}

function ImportOutcome({ result }: { result: ImportResult }) {
  return (
    <div
      className="mt-3 rounded-xl border border-gray-200 bg-gray-50 px-4 py-3 text-sm text-gray-900"
      data-testid="import-result"
    >
      <p>
        {result.imported} service{result.imported === 1 ? '' : 's'} imported ({result.added} new
        {result.vanished > 0 ? `, ${result.vanished} no longer offered` : ''}).
        {result.warnings.length > 0 ? ' Some price tiers need another service: see below.' : ''}
      </p>
    </div>
  );
}

/**
 * The tiers mapped to a service this panel no longer offers or never listed, on every visit
 * (computed by the server on each read), each with a link to its service's editor.
 */
function MappingWarnings({ panel }: { panel: PanelView }) {
  const titleId = useId();
  const { warnings } = panel;
  if (warnings.length === 0) return null;
  const one = warnings.length === 1;
  return (
    <section
      aria-labelledby={titleId}
      className="mt-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-950"
      data-testid="mapping-warnings"
    >
      <h3 id={titleId} className="font-semibold">
        {warnings.length} price tier{one ? ' is' : 's are'} mapped to a service {panel.name} does not offer
      </h3>
      <p className="mt-1">
        Orders for {one ? 'it' : 'them'} will fail until you map {one ? 'it' : 'them'} to another service in the
        catalogue.
      </p>
      <ul className="mt-2 flex list-disc flex-col gap-1 pl-5">
        {warnings.map((warning) => (
          <li key={warning.tierId} className="break-words" data-testid="mapping-warning">
            <Link
              to={`/admin/catalogue/services/${encodeURIComponent(warning.serviceSlug)}`}
              className="font-semibold text-red-900 underline hover:text-red-950"
            >
              {warning.serviceName}
              <span className="sr-only"> (edit the service)</span>
            </Link>
            , {warning.planType}, {warning.qty.toLocaleString('en-US')}: service {warning.supplierServiceId}{' '}
            {warning.reason === 'vanished' ? 'is no longer offered' : 'was never listed'}
          </li>
        ))}
      </ul>
    </section>
  );
}

function balanceText(balance: PanelBalance | undefined): string {
  if (!balance) return '—';
  return 'error' in balance.reading
    ? balance.reading.error
    : `${balance.reading.balance} ${balance.reading.currency}`.trim();
}

function PanelCard({
  panel,
  balance,
  canSeal,
}: {
  panel: PanelView;
  balance: PanelBalance | undefined;
  canSeal: boolean;
}) {
  const toasts = useToasts();
  const reload = useReload();
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState<'import' | 'remove' | null>(null);
  const [imported, setImported] = useState<ImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const titleId = useId();

  async function importServices() {
    setBusy('import');
    setError(null);
    try {
      const reply = await adminApi.send<{ message: string; data: ImportResult }>(
        'POST',
        `/api/admin/suppliers/${panel.id}/import`,
      );
      setImported(reply.data);
      toasts.show(reply.message, 'success');
      reload();
    } catch (failure) {
      if (!isUnauthorized(failure)) setError(messageOf(failure));
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    if (!window.confirm(`Remove the panel "${panel.name}"? Its imported services are removed too.`)) return;
    setBusy('remove');
    setError(null);
    try {
      const reply = await adminApi.send<{ message: string }>('DELETE', `/api/admin/suppliers/${panel.id}`);
      toasts.show(reply.message, 'success');
      reload();
    } catch (failure) {
      if (!isUnauthorized(failure)) setError(messageOf(failure));
    } finally {
      setBusy(null);
    }
  }

  const totalServices = panel.services + panel.vanishedServices;
  return (
    <li
      aria-labelledby={titleId}
      data-testid={`panel-${panel.id}`}
      className="min-w-0 rounded-2xl border border-gray-200 bg-white p-4 sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <h2 id={titleId} className="min-w-0 text-lg font-bold break-words text-gray-900">
          {panel.name}
          <span className="ml-2 inline-block rounded-full bg-gray-100 px-2 py-0.5 align-middle text-xs font-semibold text-gray-800">
            {panel.kind === 'environment' ? 'Environment' : 'Stored'}
          </span>
        </h2>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={adminSecondaryButtonClass}
            onClick={() => void importServices()}
            disabled={busy !== null}
          >
            {busy === 'import' ? <ButtonSpinner /> : null}
            Import services<span className="sr-only"> of {panel.name}</span>
          </button>
          <button
            type="button"
            className={adminSecondaryButtonClass}
            aria-expanded={editing}
            onClick={() => setEditing((open) => !open)}
          >
            Edit<span className="sr-only"> {panel.name}</span>
          </button>
          {panel.removeBlockedBy === null ? (
            <button
              type="button"
              className={adminSecondaryButtonClass}
              onClick={() => void remove()}
              disabled={busy !== null}
            >
              {busy === 'remove' ? <ButtonSpinner /> : null}
              Remove<span className="sr-only"> {panel.name}</span>
            </button>
          ) : null}
        </div>
      </div>
      <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-3">
        <div className="min-w-0">
          <dt className="font-semibold text-gray-700">URL</dt>
          <dd className="break-all text-gray-900">{panel.source}</dd>
        </div>
        <div>
          <dt className="font-semibold text-gray-700">API key</dt>
          <dd className="text-gray-900">
            {panel.kind === 'environment'
              ? panel.source.startsWith('Set by')
                ? 'Set by SMM_PANEL_KEY'
                : 'Not needed'
              : panel.keySaved
                ? 'Key saved'
                : 'No key saved'}
            {panel.keyProblem ? (
              <span className="mt-1 block font-semibold text-red-800" data-testid="panel-key-problem">
                {panel.keyProblem}
              </span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-gray-700">Balance</dt>
          <dd className="break-words text-gray-900 tabular-nums" data-testid="panel-balance">
            {balanceText(balance)}
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-gray-700">Currency</dt>
          <dd className="text-gray-900">{panel.currency ?? 'Not known yet'}</dd>
        </div>
        <div>
          <dt className="font-semibold text-gray-700">Low-balance alert below</dt>
          <dd className="text-gray-900">
            {panel.lowBalanceThreshold === null
              ? 'No alert'
              : `${panel.lowBalanceThreshold}${panel.currency ? ` ${panel.currency}` : ''}`}
            {panel.lowBalanceAlertedAt ? ` (alert sent ${formatAdminDate(panel.lowBalanceAlertedAt)})` : ''}
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-gray-700">Services</dt>
          <dd className="text-gray-900">
            {totalServices === 0 ? (
              'None imported yet'
            ) : (
              <Link
                to={`/admin/suppliers/${panel.id}/services`}
                className="font-semibold text-brand-800 underline hover:text-brand-900"
              >
                {panel.services.toLocaleString('en-US')} offered
                {panel.vanishedServices > 0 ? `, ${panel.vanishedServices} no longer offered` : ''}
                <span className="sr-only"> by {panel.name}</span>
              </Link>
            )}
            {panel.importedAt ? (
              <span className="block text-gray-700">Imported {formatAdminDate(panel.importedAt)}</span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-gray-700">Price tiers</dt>
          <dd className="text-gray-900">{panel.tiers.toLocaleString('en-US')} mapped</dd>
        </div>
      </dl>
      {panel.removeBlockedBy !== null && panel.kind === 'stored' ? (
        <p className="mt-3 text-sm text-gray-700">{panel.removeBlockedBy}</p>
      ) : null}
      <ErrorBox message={error} testId="panel-error" />
      {imported ? <ImportOutcome result={imported} /> : null}
      <MappingWarnings panel={panel} />
      {editing ? <PanelForm panel={panel} canSeal={canSeal} onDone={() => setEditing(false)} /> : null}
    </li>
  );
}

export default function SuppliersPage({ loaderData }: Route.ComponentProps) {
  if (!loaderData.ok) {
    return (
      <section aria-labelledby="suppliers-title">
        <page.Title />
        <AdminLoadFailed load={loaderData} />
      </section>
    );
  }
  const { page: panelsPage, balances } = loaderData;
  return (
    <section aria-labelledby="suppliers-title" data-testid="suppliers">
      <page.Title />
      <ul className="flex flex-col gap-4" data-testid="panels">
        {panelsPage.panels.map((panel) => (
          <PanelCard
            key={panel.id}
            panel={panel}
            canSeal={panelsPage.addBlockedBy === null}
            balance={balances.find((b) => b.panelId === panel.id)}
          />
        ))}
      </ul>
      <div className="mt-8">
        {panelsPage.addBlockedBy ? (
          <div
            className="rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-950 sm:p-6"
            data-testid="add-blocked"
          >
            <h2 className="text-lg font-bold">Adding a panel</h2>
            <p className="mt-1 text-sm">{panelsPage.addBlockedBy}</p>
          </div>
        ) : (
          <PanelForm canSeal onDone={() => undefined} />
        )}
      </div>
    </section>
  );
}
