/**
 * The service editor (issue 14, decision 044): the service's fields (the title in a one-line
 * rich-text editor, ./TitleEditor.tsx), its plans in their order and their tiers,
 * each tier mapped to a supplier panel and service, with a per-plan "Price from supplier rate"
 * tool (core/catalog/markup.ts). The server checks everything again (zod, core/catalog/editor.ts);
 * its messages land under their fields by path ("plans.0.tiers.2.price"). Warnings (below cost,
 * outside the supplier's limits) come back with the save and never block it.
 */
import { Suspense, lazy, useEffect, useId, useState } from 'react';
import { formatE4, priceWithMarkupE4, supplierCostE4 } from '../../../core/catalog/markup.ts';
import { PLAN_TYPES, TARGET_KINDS, type TargetKind } from '../../../core/catalog/types.ts';
import { parseAmountE4 } from '../../../core/money/money.ts';
import { ApiError, type FieldError, messageOf } from '../../api/client.ts';
import { adminFieldClass, adminPrimaryButtonClass, adminSecondaryButtonClass } from '../list-parts.tsx';
import { isUnauthorized } from '../token.ts';
import {
  type ImportedService,
  type PanelSummary,
  type ServiceDocument,
  type ServiceInput,
  type TierWarning,
  createService,
  listImportedServices,
  listPanels,
  saveService,
  uploadImage,
} from './api.ts';

// Tiptap is fetched on the service editor page only (never by a public route: tests/e2e/js-budget.spec.ts).
const TitleEditor = lazy(() => import('./TitleEditor.tsx'));

type Plan = ServiceInput['plans'][number];
type Tier = Plan['tiers'][number];

const TARGET_LABELS: Record<TargetKind, string> = {
  youtube_video_url: 'YouTube video URL',
  instagram_username: 'Instagram username',
  instagram_post_url: 'Instagram post URL',
  tiktok_username: 'TikTok username',
  tiktok_post_url: 'TikTok video URL',
};

const emptyTier = (): Tier => ({
  qty: 100,
  text: '',
  price: '',
  discount: 0,
  supplierPanelId: 1,
  supplierServiceId: '',
});
const emptyPlan = (type: Plan['type']): Plan => ({
  type,
  title: `${type} plan`,
  icon: `/images/plans/${type.toLowerCase()}.svg`,
  currency: '$',
  options: [],
  tiers: [emptyTier()],
});

export const NEW_SERVICE: ServiceInput = {
  slug: '',
  name: '',
  titleHtml: '',
  description: '',
  image: '',
  targetKind: 'instagram_username',
  commentRequired: false,
  status: 'draft',
  plans: [emptyPlan('Standard')],
};

function inputOf(document: ServiceDocument): ServiceInput {
  const { groupSlug: _group, revision: _revision, publishedAt: _published, ...input } = document;
  return input;
}

function FieldMessage({ id, errors, field }: { id: string; errors: FieldError[]; field: string }) {
  const message = errors.find((error) => error.field === field)?.message;
  return message ? (
    <span id={id} className="mt-1 block text-sm font-medium text-red-800">
      {message}
    </span>
  ) : null;
}

/** A labelled text input with the server's message for `field` under it. */
function TextField(props: {
  label: string;
  field: string;
  value: string;
  errors: FieldError[];
  onChange: (value: string) => void;
  disabled?: boolean;
  hint?: string;
  className?: string;
  inputMode?: 'decimal' | 'numeric';
}) {
  const id = useId();
  const hasError = props.errors.some((error) => error.field === props.field);
  return (
    <label className={`flex min-w-0 flex-col text-sm font-semibold text-gray-900 ${props.className ?? ''}`}>
      {props.label}
      <input
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        disabled={props.disabled}
        aria-invalid={hasError || undefined}
        aria-describedby={hasError ? `${id}-error` : props.hint ? `${id}-hint` : undefined}
        inputMode={props.inputMode}
        className={`${adminFieldClass} mt-1 w-full font-normal disabled:bg-gray-100`}
        data-field={props.field}
      />
      {props.hint ? (
        <span id={`${id}-hint`} className="mt-1 text-xs font-normal text-gray-700">
          {props.hint}
        </span>
      ) : null}
      <FieldMessage id={`${id}-error`} errors={props.errors} field={props.field} />
    </label>
  );
}

function SupplierPicker({
  tier,
  panels,
  services,
  onChange,
  errors,
  field,
}: {
  tier: Tier;
  panels: PanelSummary[];
  services: ImportedService[] | undefined;
  onChange: (tier: Tier) => void;
  errors: FieldError[];
  field: string;
}) {
  const panelId = useId();
  const serviceId = useId();
  const chosen = services?.find((service) => service.service === tier.supplierServiceId);
  return (
    <div className="flex min-w-0 flex-wrap items-start gap-2">
      <label htmlFor={panelId} className="flex flex-col text-sm font-semibold text-gray-900">
        Supplier panel
        <select
          id={panelId}
          value={tier.supplierPanelId}
          onChange={(event) => onChange({ ...tier, supplierPanelId: Number(event.target.value) })}
          className={`${adminFieldClass} mt-1 font-normal`}
        >
          {panels.map((panel) => (
            <option key={panel.id} value={panel.id}>
              {panel.name}
            </option>
          ))}
        </select>
      </label>
      {services && services.length > 0 ? (
        <label htmlFor={serviceId} className="flex min-w-0 flex-col text-sm font-semibold text-gray-900">
          Supplier service
          <select
            id={serviceId}
            value={tier.supplierServiceId}
            onChange={(event) => onChange({ ...tier, supplierServiceId: event.target.value })}
            className={`${adminFieldClass} mt-1 max-w-xs font-normal`}
          >
            {chosen || !tier.supplierServiceId ? null : (
              <option value={tier.supplierServiceId}>{tier.supplierServiceId} (not imported)</option>
            )}
            {tier.supplierServiceId ? null : <option value="">Choose a service</option>}
            {services.map((service) => (
              <option key={service.service} value={service.service}>
                {service.service}: {service.name} · {formatE4(service.rateE4)}/1000 · {service.min}–{service.max}
              </option>
            ))}
          </select>
          <FieldMessage id={`${serviceId}-error`} errors={errors} field={`${field}.supplierServiceId`} />
        </label>
      ) : (
        <TextField
          label="Supplier service id"
          field={`${field}.supplierServiceId`}
          value={tier.supplierServiceId}
          errors={errors}
          onChange={(value) => onChange({ ...tier, supplierServiceId: value })}
          hint="Nothing imported from this panel yet: type the id."
        />
      )}
    </div>
  );
}

function MarkupTool({
  plan,
  servicesOf,
  onApply,
}: {
  plan: Plan;
  servicesOf: (panelId: number) => ImportedService[] | undefined;
  onApply: (tiers: Tier[]) => void;
}) {
  const kindId = useId();
  const valueId = useId();
  const [kind, setKind] = useState<'percent' | 'fixed'>('percent');
  const [value, setValue] = useState('50');
  const [note, setNote] = useState<string | null>(null);

  function apply() {
    let amount: number;
    try {
      amount = kind === 'percent' ? Number(value) : parseAmountE4(value);
    } catch {
      setNote('Enter the markup as a number, e.g. 50 or 0.25.');
      return;
    }
    if (!Number.isFinite(amount) || amount < 0) {
      setNote('Enter a markup of 0 or more.');
      return;
    }
    let priced = 0;
    const tiers = plan.tiers.map((tier) => {
      const supplier = servicesOf(tier.supplierPanelId)?.find((service) => service.service === tier.supplierServiceId);
      if (!supplier) return tier;
      priced += 1;
      const cost = supplierCostE4(supplier.rateE4, tier.qty);
      const markup = kind === 'percent' ? { kind, percent: amount } : { kind, amountE4: amount };
      return { ...tier, price: formatE4(priceWithMarkupE4(cost, markup, plan.currency)) };
    });
    onApply(tiers);
    setNote(
      priced === plan.tiers.length
        ? `Priced ${priced} tiers from the supplier rate. Save to keep them.`
        : `Priced ${priced} of ${plan.tiers.length} tiers: the others are not mapped to an imported supplier service.`,
    );
  }

  return (
    <fieldset className="mt-3 rounded-xl border border-gray-200 p-3">
      <legend className="px-1 text-sm font-bold text-gray-900">Price from supplier rate</legend>
      <div className="flex flex-wrap items-end gap-2">
        <label htmlFor={kindId} className="flex flex-col text-sm font-semibold text-gray-900">
          Markup
          <select
            id={kindId}
            value={kind}
            onChange={(event) => setKind(event.target.value === 'fixed' ? 'fixed' : 'percent')}
            className={`${adminFieldClass} mt-1 font-normal`}
          >
            <option value="percent">Percent of cost</option>
            <option value="fixed">Fixed amount per tier</option>
          </select>
        </label>
        <label htmlFor={valueId} className="flex flex-col text-sm font-semibold text-gray-900">
          {kind === 'percent' ? 'Percent' : `Amount (${plan.currency})`}
          <input
            id={valueId}
            value={value}
            inputMode="decimal"
            onChange={(event) => setValue(event.target.value)}
            className={`${adminFieldClass} mt-1 w-28 font-normal`}
          />
        </label>
        <button type="button" onClick={apply} className={adminSecondaryButtonClass}>
          Set {plan.type} prices
        </button>
      </div>
      <p className="mt-2 text-xs text-gray-700">Cost = rate × quantity / 1000; prices are rounded up to the cent.</p>
      {note ? (
        <p role="status" className="mt-1 text-sm text-gray-900">
          {note}
        </p>
      ) : null}
    </fieldset>
  );
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
  const [service, setService] = useState<ServiceInput>(document ? inputOf(document) : NEW_SERVICE);
  const [revision, setRevision] = useState(document?.revision ?? 0);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [warnings, setWarnings] = useState<TierWarning[]>([]);
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string; stale?: boolean } | null>(null);
  const [saving, setSaving] = useState(false);
  const [panels, setPanels] = useState<PanelSummary[]>([
    { id: 1, name: 'Main panel', kind: 'environment', currency: null },
  ]);
  const [imported, setImported] = useState<Record<number, ImportedService[]>>({});
  const slugLocked = document?.publishedAt != null;
  const ids = useId();

  useEffect(() => {
    const controller = new AbortController();
    void (async () => {
      try {
        const list = await listPanels(controller.signal);
        setPanels(list);
        const entries = await Promise.all(
          list.map(async (panel) => [panel.id, await listImportedServices(panel.id, controller.signal)] as const),
        );
        setImported(Object.fromEntries(entries));
      } catch {
        // Without the lists the tier editor takes typed ids (the server still checks the panel).
      }
    })();
    return () => controller.abort();
  }, []);

  const set = <K extends keyof ServiceInput>(key: K, value: ServiceInput[K]) =>
    setService((s) => ({ ...s, [key]: value }));
  const setPlan = (index: number, plan: Plan) =>
    setService((s) => ({ ...s, plans: s.plans.map((p, i) => (i === index ? plan : p)) }));
  /** The store shows plans in the list's order: the save writes each plan's position from it. */
  const movePlan = (index: number, direction: 'up' | 'down') => {
    // Messages name plans by index ("plans.1.tiers.0"): after a move they would sit under the wrong plan.
    setErrors((list) => list.filter((error) => !error.field.startsWith('plans.')));
    setWarnings([]);
    setService((s) => {
      const other = direction === 'up' ? index - 1 : index + 1;
      const moved = s.plans[index];
      const neighbour = s.plans[other];
      if (!moved || !neighbour) return s;
      const plans = [...s.plans];
      plans[other] = moved;
      plans[index] = neighbour;
      return { ...s, plans };
    });
  };
  const setTier = (p: number, t: number, tier: Tier) =>
    setService((s) => ({
      ...s,
      plans: s.plans.map((plan, i) =>
        i === p ? { ...plan, tiers: plan.tiers.map((x, j) => (j === t ? tier : x)) } : plan,
      ),
    }));

  async function upload(file: File | undefined) {
    if (!file) return;
    try {
      set('image', await uploadImage(file));
      setErrors((list) => list.filter((error) => error.field !== 'image'));
    } catch (failure) {
      if (!isUnauthorized(failure)) setErrors((list) => [...list, { field: 'image', message: messageOf(failure) }]);
    }
  }

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setSaving(true);
    setMessage(null);
    try {
      const reply = document
        ? await saveService(document.slug, revision, service)
        : await createService(groupSlug, service);
      setErrors([]);
      setWarnings(reply.warnings);
      setRevision(reply.data.revision);
      setService(inputOf(reply.data));
      setMessage({
        tone: 'success',
        text: reply.warnings.length ? `${reply.message}, with warnings below.` : reply.message,
      });
      onSaved(reply.data, reply.message);
    } catch (failure) {
      if (isUnauthorized(failure)) return;
      if (failure instanceof ApiError) {
        setErrors([...failure.fieldErrors]);
        setMessage({ tone: 'error', text: failure.message, stale: failure.status === 409 });
      } else setMessage({ tone: 'error', text: messageOf(failure) });
    } finally {
      setSaving(false);
    }
  }

  const titleError = errors.some((error) => error.field === 'titleHtml');
  const unusedTypes = PLAN_TYPES.filter((type) => !service.plans.some((plan) => plan.type === type));

  return (
    <form
      onSubmit={(event) => void save(event)}
      noValidate
      className="mt-6 flex flex-col gap-6"
      data-testid="service-form"
    >
      <div className="grid gap-4 rounded-2xl border border-gray-200 bg-white p-4 md:grid-cols-2">
        <TextField label="Name" field="name" value={service.name} errors={errors} onChange={(v) => set('name', v)} />
        <TextField
          label="Slug"
          field="slug"
          value={service.slug}
          errors={errors}
          onChange={(v) => set('slug', v)}
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
              onChange={(html) => set('titleHtml', html)}
              labelledBy={`${ids}-title-label`}
              describedBy={titleError ? `${ids}-title-error` : `${ids}-title-hint`}
              invalid={titleError}
            />
          </Suspense>
          <span id={`${ids}-title-hint`} className="mt-1 text-xs font-normal text-gray-700">
            One line under the service’s name on its page; select words and press Bold or Italic.
          </span>
          <FieldMessage id={`${ids}-title-error`} errors={errors} field="titleHtml" />
        </div>
        <label className="flex min-w-0 flex-col text-sm font-semibold text-gray-900 md:col-span-2">
          Description
          <textarea
            value={service.description}
            onChange={(event) => set('description', event.target.value)}
            rows={4}
            className={`${adminFieldClass} mt-1 font-normal`}
          />
          <FieldMessage id="description-error" errors={errors} field="description" />
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
          <FieldMessage id="image-error" errors={errors} field="image" />
        </div>
        <label className="flex flex-col text-sm font-semibold text-gray-900">
          The buyer enters
          <select
            value={service.targetKind}
            onChange={(event) => set('targetKind', event.target.value as TargetKind)}
            className={`${adminFieldClass} mt-1 font-normal`}
          >
            {TARGET_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {TARGET_LABELS[kind]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm font-semibold text-gray-900">
          <input
            type="checkbox"
            checked={service.commentRequired}
            onChange={(event) => set('commentRequired', event.target.checked)}
            className="h-5 w-5"
          />
          Comment required
        </label>
        <fieldset className="flex flex-wrap gap-4 text-sm">
          <legend className="font-semibold text-gray-900">Status</legend>
          {(['draft', 'published'] as const).map((status) => (
            <label key={status} className="flex items-center gap-2 text-gray-900">
              <input
                type="radio"
                name="status"
                value={status}
                checked={service.status === status}
                onChange={() => set('status', status)}
                className="h-5 w-5"
              />
              {status === 'draft' ? 'Draft (hidden from the store)' : 'Published'}
            </label>
          ))}
        </fieldset>
      </div>

      <FieldMessage id="plans-error" errors={errors} field="plans" />
      {service.plans.map((plan, p) => (
        <fieldset
          // Keyed by type (once per service): moving a plan moves its markup tool's state with it.
          key={plan.type}
          className="min-w-0 rounded-2xl border border-gray-200 bg-white p-4"
          data-testid={`plan-${plan.type}`}
        >
          <legend className="px-1 text-lg font-bold text-gray-900">{plan.type} plan</legend>
          <div className="grid gap-3 md:grid-cols-4">
            <TextField
              label="Plan title"
              field={`plans.${p}.title`}
              value={plan.title}
              errors={errors}
              onChange={(v) => setPlan(p, { ...plan, title: v })}
            />
            <TextField
              label="Icon"
              field={`plans.${p}.icon`}
              value={plan.icon}
              errors={errors}
              onChange={(v) => setPlan(p, { ...plan, icon: v })}
            />
            <TextField
              label="Currency"
              field={`plans.${p}.currency`}
              value={plan.currency}
              errors={errors}
              onChange={(v) => setPlan(p, { ...plan, currency: v })}
            />
            <TextField
              label="Options (comma-separated)"
              field={`plans.${p}.options`}
              value={plan.options.join(', ')}
              errors={errors}
              onChange={(v) =>
                setPlan(p, {
                  ...plan,
                  options: v
                    .split(',')
                    .map((o) => o.trim())
                    .filter(Boolean),
                })
              }
            />
          </div>
          <FieldMessage id={`plan-${p}-tiers-error`} errors={errors} field={`plans.${p}.tiers`} />
          <ol className="mt-4 flex flex-col gap-4">
            {plan.tiers.map((tier, t) => {
              const field = `plans.${p}.tiers.${t}`;
              const tierWarnings = warnings.filter((warning) => warning.field === field);
              return (
                <li
                  key={t}
                  className="rounded-xl border border-gray-100 bg-gray-50 p-3"
                  data-testid={`tier-${plan.type}-${t}`}
                >
                  <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
                    <TextField
                      label="Quantity"
                      field={`${field}.qty`}
                      value={String(tier.qty)}
                      inputMode="numeric"
                      errors={errors}
                      onChange={(v) => setTier(p, t, { ...tier, qty: Number(v) })}
                    />
                    <TextField
                      label="Text"
                      field={`${field}.text`}
                      value={tier.text}
                      errors={errors}
                      onChange={(v) => setTier(p, t, { ...tier, text: v })}
                    />
                    <TextField
                      label="Price"
                      field={`${field}.price`}
                      value={tier.price}
                      inputMode="decimal"
                      errors={errors}
                      onChange={(v) => setTier(p, t, { ...tier, price: v })}
                    />
                    <TextField
                      label="Discount %"
                      field={`${field}.discount`}
                      value={String(tier.discount)}
                      inputMode="numeric"
                      errors={errors}
                      onChange={(v) => setTier(p, t, { ...tier, discount: Number(v) })}
                    />
                  </div>
                  <div className="mt-3 flex flex-wrap items-end justify-between gap-3">
                    <SupplierPicker
                      tier={tier}
                      panels={panels}
                      services={imported[tier.supplierPanelId]}
                      onChange={(next) => setTier(p, t, next)}
                      errors={errors}
                      field={field}
                    />
                    <button
                      type="button"
                      disabled={plan.tiers.length === 1}
                      onClick={() => setPlan(p, { ...plan, tiers: plan.tiers.filter((_, j) => j !== t) })}
                      className={adminSecondaryButtonClass}
                    >
                      Remove tier
                      <span className="sr-only">
                        {' '}
                        {t + 1} of the {plan.type} plan
                      </span>
                    </button>
                  </div>
                  {tierWarnings.length > 0 ? (
                    <ul className="mt-2 list-disc pl-5 text-sm font-medium text-amber-900" data-testid="tier-warnings">
                      {tierWarnings.map((warning) => (
                        <li key={warning.message}>{warning.message}</li>
                      ))}
                    </ul>
                  ) : null}
                </li>
              );
            })}
          </ol>
          <div className="mt-3 flex flex-wrap gap-2">
            <button
              type="button"
              onClick={() => setPlan(p, { ...plan, tiers: [...plan.tiers, emptyTier()] })}
              className={adminSecondaryButtonClass}
            >
              Add tier<span className="sr-only"> to the {plan.type} plan</span>
            </button>
            <button
              type="button"
              disabled={service.plans.length === 1}
              onClick={() =>
                set(
                  'plans',
                  service.plans.filter((_, i) => i !== p),
                )
              }
              className={adminSecondaryButtonClass}
            >
              Remove the {plan.type} plan
            </button>
            <button
              type="button"
              disabled={p === 0}
              onClick={() => movePlan(p, 'up')}
              className={adminSecondaryButtonClass}
            >
              Move up<span className="sr-only">: the {plan.type} plan</span>
            </button>
            <button
              type="button"
              disabled={p === service.plans.length - 1}
              onClick={() => movePlan(p, 'down')}
              className={adminSecondaryButtonClass}
            >
              Move down<span className="sr-only">: the {plan.type} plan</span>
            </button>
          </div>
          <MarkupTool
            plan={plan}
            servicesOf={(id) => imported[id]}
            onApply={(tiers) => setPlan(p, { ...plan, tiers })}
          />
        </fieldset>
      ))}
      {unusedTypes.length > 0 ? (
        <div className="flex flex-wrap gap-2">
          {unusedTypes.map((type) => (
            <button
              key={type}
              type="button"
              onClick={() => set('plans', [...service.plans, emptyPlan(type)])}
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
    </form>
  );
}
