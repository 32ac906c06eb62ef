/**
 * One plan of the service editor (decision 044): its title, icon, currency and options, its tiers
 * (quantity, text, price, discount, supplier), the buttons that add, remove and move, and its
 * markup tool. Every change is a `ServiceDraftAction` for the form's draft reducer.
 */
import { adminSecondaryButtonClass } from '../list-parts.tsx';
import type { ServiceKind, ServiceTerms } from '../../../core/subscriptions/terms.ts';
import type { ImportedService, PanelSummary, TierWarning } from './api.ts';
import { QUANTITY_LABELS } from './KindFields.tsx';
import { MarkupTool } from './MarkupTool.tsx';
import { FieldMessage, ServiceTextField } from './ServiceFields.tsx';
import { SupplierPicker } from './SupplierPicker.tsx';
import type { Plan, ServiceDraftAction } from './service-draft.ts';

export function PlanEditor({
  plan,
  kind,
  terms,
  index: p,
  planCount,
  dispatch,
  errorOf,
  warnings,
  panels,
  imported,
  onMove,
}: {
  plan: Plan;
  /** What the service sells: a tier's quantity is per post or per day for a subscription. */
  kind: ServiceKind;
  terms: ServiceTerms | undefined;
  /** The plan's place in the list (its messages are named by it: "plans.1.tiers.0"). */
  index: number;
  planCount: number;
  dispatch: (action: ServiceDraftAction) => void;
  errorOf: (field: string) => string | undefined;
  warnings: TierWarning[];
  panels: PanelSummary[];
  imported: Record<number, ImportedService[]>;
  onMove: (direction: 'up' | 'down') => void;
}) {
  const path = `plans.${p}`;
  return (
    <fieldset className="min-w-0 rounded-2xl border border-gray-200 bg-white p-4" data-testid={`plan-${plan.type}`}>
      <legend className="px-1 text-lg font-bold text-gray-900">{plan.type} plan</legend>
      <div className="grid gap-3 md:grid-cols-4">
        <ServiceTextField
          label="Plan title"
          field={`${path}.title`}
          value={plan.title}
          error={errorOf(`${path}.title`)}
          onChange={(title) => dispatch({ type: 'plan', plan: p, change: { title } })}
        />
        <ServiceTextField
          label="Icon"
          field={`${path}.icon`}
          value={plan.icon}
          error={errorOf(`${path}.icon`)}
          onChange={(icon) => dispatch({ type: 'plan', plan: p, change: { icon } })}
        />
        <ServiceTextField
          label="Currency"
          field={`${path}.currency`}
          value={plan.currency}
          error={errorOf(`${path}.currency`)}
          onChange={(currency) => dispatch({ type: 'plan', plan: p, change: { currency } })}
        />
        <ServiceTextField
          label="Options (comma-separated)"
          field={`${path}.options`}
          value={plan.options.join(', ')}
          error={errorOf(`${path}.options`)}
          onChange={(value) =>
            dispatch({
              type: 'plan',
              plan: p,
              change: {
                options: value
                  .split(',')
                  .map((option) => option.trim())
                  .filter(Boolean),
              },
            })
          }
        />
      </div>
      <FieldMessage id={`plan-${p}-tiers-error`} message={errorOf(`${path}.tiers`)} />
      <ol className="mt-4 flex flex-col gap-4">
        {plan.tiers.map((tier, t) => {
          const field = `${path}.tiers.${t}`;
          const tierWarnings = warnings.filter((warning) => warning.field === field);
          const change = (next: Partial<typeof tier>) => dispatch({ type: 'tier', plan: p, tier: t, change: next });
          return (
            <li
              key={t}
              className="rounded-xl border border-gray-100 bg-gray-50 p-3"
              data-testid={`tier-${plan.type}-${t}`}
            >
              <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
                <ServiceTextField
                  label={QUANTITY_LABELS[kind]}
                  field={`${field}.qty`}
                  value={String(tier.qty)}
                  inputMode="numeric"
                  error={errorOf(`${field}.qty`)}
                  onChange={(value) => change({ qty: Number(value) })}
                />
                <ServiceTextField
                  label="Text"
                  field={`${field}.text`}
                  value={tier.text}
                  error={errorOf(`${field}.text`)}
                  onChange={(text) => change({ text })}
                />
                <ServiceTextField
                  label="Price"
                  field={`${field}.price`}
                  value={tier.price}
                  inputMode="decimal"
                  error={errorOf(`${field}.price`)}
                  onChange={(price) => change({ price })}
                />
                <ServiceTextField
                  label="Discount %"
                  field={`${field}.discount`}
                  value={String(tier.discount)}
                  inputMode="numeric"
                  error={errorOf(`${field}.discount`)}
                  onChange={(value) => change({ discount: Number(value) })}
                />
              </div>
              <div className="mt-3 flex flex-wrap items-end justify-between gap-3">
                <SupplierPicker
                  tier={tier}
                  panels={panels}
                  services={imported[tier.supplierPanelId]}
                  onChange={change}
                  errorOf={errorOf}
                  field={field}
                />
                <button
                  type="button"
                  disabled={plan.tiers.length === 1}
                  onClick={() => dispatch({ type: 'tierRemoved', plan: p, tier: t })}
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
          onClick={() => dispatch({ type: 'tierAdded', plan: p })}
          className={adminSecondaryButtonClass}
        >
          Add tier<span className="sr-only"> to the {plan.type} plan</span>
        </button>
        <button
          type="button"
          disabled={planCount === 1}
          onClick={() => dispatch({ type: 'planRemoved', plan: p })}
          className={adminSecondaryButtonClass}
        >
          Remove the {plan.type} plan
        </button>
        <button type="button" disabled={p === 0} onClick={() => onMove('up')} className={adminSecondaryButtonClass}>
          Move up<span className="sr-only">: the {plan.type} plan</span>
        </button>
        <button
          type="button"
          disabled={p === planCount - 1}
          onClick={() => onMove('down')}
          className={adminSecondaryButtonClass}
        >
          Move down<span className="sr-only">: the {plan.type} plan</span>
        </button>
      </div>
      <MarkupTool
        plan={plan}
        kind={kind}
        terms={terms}
        servicesOf={(id) => imported[id]}
        onApply={(tiers) => dispatch({ type: 'tiersPriced', plan: p, tiers })}
      />
    </fieldset>
  );
}
