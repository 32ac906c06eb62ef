/**
 * The service editor (decision 044): the service's fields (the title in a one-line rich-text
 * editor, ./TitleEditor.tsx), its plans in their order (./PlanEditor.tsx) and their tiers, each
 * tier mapped to a supplier panel and service (./SupplierPicker.tsx), with a per-plan "Price from
 * supplier rate" tool (./MarkupTool.tsx). The draft is a pure reducer (./service-draft.ts). In the
 * store's form style (decision 052) the save is checked first with the API's own schema
 * (`ServiceInputSchema`), and the server checks everything again (core/catalogue/editor.ts); both
 * put their messages under their fields by path ("plans.0.tiers.2.price"). Warnings (below cost,
 * outside the supplier's limits) come back with the save and never block it.
 */
import { type FormEvent, Suspense, lazy, useId, useReducer, useState } from 'react';
import type { RiskyPrice } from '../../../core/catalogue/risky-prices.ts';
import { ServiceInputSchema, termsOfInput } from '../../../core/catalogue/service-document.ts';
import { PLAN_TYPES } from '../../../core/catalogue/types.ts';
import { ApiError, messageOf } from '../../api/client.ts';
import { schemaCheck } from '../../components/schema-check.ts';
import { useFormCheck } from '../../components/use-form-check.ts';
import { adminFieldClass, adminPrimaryButtonClass, adminSecondaryButtonClass } from '../list-parts.tsx';
import { ConfirmDialog } from '../blog/ConfirmDialog.tsx';
import { isUnauthorized } from '../token.ts';
import { type ServiceDocument, type TierWarning, createService, saveService, uploadImage } from './api.ts';
import { KindFields } from './KindFields.tsx';
import { PlanEditor } from './PlanEditor.tsx';
import { FieldMessage, ServiceSettings, ServiceTextField } from './ServiceFields.tsx';
import { useSupplierLists } from './SupplierPicker.tsx';
import { NEW_SERVICE, draftFieldPaths, inputOf, serviceDraftReducer } from './service-draft.ts';

// Tiptap is fetched on the service editor page only (never by a public route: tests/e2e/js-budget.spec.ts).
const TitleEditor = lazy(() => import('./TitleEditor.tsx'));

type FormMessage = { tone: 'error' | 'success'; text: string; stale?: boolean };

/** The prices a 409 asks the owner about (core/catalogue/risky-prices.ts), or null for another 409. */
function riskyPricesOf(failure: ApiError): RiskyPrice[] | null {
  const listed = failure.reply?.riskyPrices;
  return Array.isArray(listed) && listed.length > 0 ? (listed as RiskyPrice[]) : null;
}

export function ServiceForm({
  document,
  groupSlug,
  onSaved,
}: {
  /** The service being edited; null for "New service" in `groupSlug`. */
  document: ServiceDocument | null;
  groupSlug: string;
  onSaved: (document: ServiceDocument, message: string) => void;
}) {
  const [service, dispatch] = useReducer(serviceDraftReducer, document ? inputOf(document) : NEW_SERVICE);
  const [revision, setRevision] = useState(document?.revision ?? 0);
  const [warnings, setWarnings] = useState<TierWarning[]>([]);
  const [message, setMessage] = useState<FormMessage | null>(null);
  const [saving, setSaving] = useState(false);
  /** The prices the server asked about (409): the save waits for "Save anyway" or "Cancel". */
  const [riskyPrices, setRiskyPrices] = useState<RiskyPrice[] | null>(null);
  const { panels, imported } = useSupplierLists();
  const slugLocked = document?.publishedAt != null;
  const ids = useId();
  const fields = draftFieldPaths(service);
  const check = useFormCheck({
    fields,
    // The draft, not the controls' text: quantities and discounts are numbers, options a list.
    check: () => schemaCheck(ServiceInputSchema, service),
    validateOn: 'submit',
    // The form is controlled: a re-check while typing would see the draft before this keystroke.
    whileTyping: 'clear',
  });
  const errorOf = check.errorOf;

  const movePlan = (plan: number, direction: 'up' | 'down') => {
    // Messages name plans by index ("plans.1.tiers.0"): after a move they would sit under the wrong plan.
    check.clear((field) => field.startsWith('plans.'));
    setWarnings([]);
    dispatch({ type: 'planMoved', plan, direction });
  };

  async function upload(file: File | undefined) {
    if (!file) return;
    try {
      dispatch({ type: 'field', key: 'image', value: await uploadImage(file) });
      check.clear((field) => field === 'image');
    } catch (failure) {
      if (!isUnauthorized(failure)) check.refuse({ image: messageOf(failure) });
    }
  }

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setMessage(null);
    if (check.submit(form) === null) {
      // A message with no field of its own on the page still needs saying.
      const result = schemaCheck(ServiceInputSchema, service);
      const stray = result.ok ? undefined : Object.entries(result.errors).find(([field]) => !fields.includes(field));
      if (stray) setMessage({ tone: 'error', text: `${stray[0]}: ${stray[1] ?? ''}` });
      return;
    }
    await send(form, false);
  }

  /** Sends the draft; `confirmRiskyPrices` once the owner said "Save anyway" to the prices asked about. */
  async function send(form: HTMLFormElement | null, confirmRiskyPrices: boolean) {
    setSaving(true);
    const body = confirmRiskyPrices ? { ...service, confirmRiskyPrices: true } : service;
    try {
      const reply = document ? await saveService(document.slug, revision, body) : await createService(groupSlug, body);
      setRiskyPrices(null);
      setWarnings(reply.warnings);
      setRevision(reply.data.revision);
      dispatch({ type: 'saved', service: inputOf(reply.data) });
      setMessage({
        tone: 'success',
        text: reply.warnings.length ? `${reply.message}, with warnings below.` : reply.message,
      });
      onSaved(reply.data, reply.message);
    } catch (failure) {
      if (isUnauthorized(failure)) return;
      const asked = failure instanceof ApiError && failure.status === 409 ? riskyPricesOf(failure) : null;
      if (asked) {
        // Nothing was saved: the form keeps what was typed, and the dialog asks about these prices.
        setRiskyPrices(asked);
        return;
      }
      setRiskyPrices(null);
      if (failure instanceof ApiError) {
        check.refuseFields(failure.fieldErrors, form);
        setMessage({ tone: 'error', text: failure.message, stale: failure.status === 409 });
      } else setMessage({ tone: 'error', text: messageOf(failure) });
    } finally {
      setSaving(false);
    }
  }

  const titleError = errorOf('titleHtml');
  const unusedTypes = PLAN_TYPES.filter((type) => !service.plans.some((plan) => plan.type === type));

  return (
    <form
      onSubmit={(event) => void save(event)}
      onInput={check.onInput}
      noValidate
      className="mt-6 flex flex-col gap-6"
      data-testid="service-form"
    >
      <div className="grid gap-4 rounded-2xl border border-gray-200 bg-white p-4 md:grid-cols-2">
        <ServiceTextField
          label="Name"
          field="name"
          value={service.name}
          error={errorOf('name')}
          onChange={(value) => dispatch({ type: 'field', key: 'name', value })}
        />
        <ServiceTextField
          label="Slug"
          field="slug"
          value={service.slug}
          error={errorOf('slug')}
          onChange={(value) => dispatch({ type: 'field', key: 'slug', value })}
          disabled={slugLocked}
          hint={
            slugLocked
              ? 'Fixed: the service has been published (orders, reviews and links use it).'
              : 'Lowercase words joined by hyphens, e.g. tiktok-shares.'
          }
        />
        <div className="flex min-w-0 flex-col text-sm md:col-span-2">
          <span id={`${ids}-title-label`} className="font-semibold text-gray-900">
            Title
          </span>
          <Suspense
            fallback={
              <p role="status" className="mt-1 rounded-lg border-2 border-gray-300 px-3 py-2 text-gray-700">
                Loading the title editor…
              </p>
            }
          >
            <TitleEditor
              // A save answers the stored (sanitised) title: the editor starts again from it.
              key={revision}
              initialHtml={service.titleHtml}
              onChange={(html) => dispatch({ type: 'field', key: 'titleHtml', value: html })}
              labelledBy={`${ids}-title-label`}
              describedBy={titleError ? `${ids}-title-error` : `${ids}-title-hint`}
              invalid={titleError !== undefined}
            />
          </Suspense>
          <span id={`${ids}-title-hint`} className="mt-1 text-xs font-normal text-gray-700">
            One line under the service’s name on its page; select words and press Bold or Italic.
          </span>
          <FieldMessage id={`${ids}-title-error`} message={titleError} />
        </div>
        <label className="flex min-w-0 flex-col text-sm font-semibold text-gray-900 md:col-span-2">
          Description
          <textarea
            name="description"
            value={service.description}
            onChange={(event) => dispatch({ type: 'field', key: 'description', value: event.target.value })}
            rows={4}
            aria-invalid={errorOf('description') !== undefined || undefined}
            aria-describedby={errorOf('description') !== undefined ? 'description-error' : undefined}
            className={`${adminFieldClass} mt-1 font-normal`}
          />
          <FieldMessage id="description-error" message={errorOf('description')} />
        </label>
        <div className="flex min-w-0 flex-col text-sm">
          <span className="font-semibold text-gray-900">Image</span>
          <span className="mt-1 flex items-center gap-3">
            {service.image ? (
              <img src={service.image} alt="" width={48} height={48} className="h-12 w-12 rounded" />
            ) : null}
            <label className={adminSecondaryButtonClass}>
              Upload service image
              <input
                type="file"
                accept="image/png,image/jpeg,image/webp,image/svg+xml"
                className="sr-only"
                onChange={(event) => void upload(event.target.files?.[0])}
              />
            </label>
          </span>
          <FieldMessage id="image-error" message={errorOf('image')} />
        </div>
        <KindFields
          service={service}
          errorOf={errorOf}
          dispatch={(action) => {
            // A tier's warnings were about its quantity under the kind it was saved with.
            if (action.type === 'kind') setWarnings([]);
            dispatch(action);
          }}
        />
        <ServiceSettings service={service} dispatch={dispatch} errorOf={errorOf} />
      </div>

      <FieldMessage id="plans-error" message={errorOf('plans')} />
      {service.plans.map((plan, p) => (
        <PlanEditor
          // Keyed by type (once per service): moving a plan moves its markup tool's state with it.
          key={plan.type}
          plan={plan}
          kind={service.kind}
          terms={termsOfInput(service)}
          index={p}
          planCount={service.plans.length}
          dispatch={dispatch}
          errorOf={errorOf}
          warnings={warnings}
          panels={panels}
          imported={imported}
          onMove={(direction) => movePlan(p, direction)}
        />
      ))}
      {unusedTypes.length > 0 ? (
        <div className="flex flex-wrap gap-2">
          {unusedTypes.map((type) => (
            <button
              key={type}
              type="button"
              onClick={() => dispatch({ type: 'planAdded', planType: type })}
              className={adminSecondaryButtonClass}
            >
              Add a {type} plan
            </button>
          ))}
        </div>
      ) : null}

      <div className="sticky bottom-0 flex flex-wrap items-center gap-3 border-t border-gray-200 bg-white py-3">
        <button type="submit" disabled={saving} className={adminPrimaryButtonClass}>
          {document ? 'Save service' : 'Create service'}
        </button>
        {message ? (
          <p
            role={message.tone === 'error' ? 'alert' : 'status'}
            data-testid="service-form-message"
            className={`text-sm font-medium ${message.tone === 'error' ? 'text-red-800' : 'text-green-900'}`}
          >
            {message.text}
            {message.stale ? (
              <>
                {' '}
                <a href={typeof window === 'undefined' ? '' : window.location.pathname} className="underline">
                  Reload
                </a>
              </>
            ) : null}
          </p>
        ) : null}
      </div>
      <ConfirmDialog
        open={riskyPrices !== null}
        title={riskyPrices?.length === 1 ? 'Check this price' : 'Check these prices'}
        text="Buyers pay the new price as soon as the service is saved. Nothing is saved yet."
        confirmLabel="Save anyway"
        cancelLabel="Cancel"
        destructive
        busy={saving}
        onConfirm={() => void send(null, true)}
        onCancel={() => setRiskyPrices(null)}
        testId="risky-prices-dialog"
      >
        <ul className="mt-4 w-full space-y-2 text-left text-sm text-gray-900" data-testid="risky-prices">
          {riskyPrices?.map((risky) => (
            <li key={risky.field} className="rounded-lg bg-amber-50 px-3 py-2 break-words">
              {risky.words}
            </li>
          ))}
        </ul>
      </ConfirmDialog>
    </form>
  );
}
