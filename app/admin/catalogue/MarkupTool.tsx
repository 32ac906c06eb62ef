/**
 * A plan's "Price from supplier rate" tool (decision 044): each tier mapped to an imported supplier
 * service is priced at its cost (rate × quantity / 1000) plus a markup, a percent or a fixed amount
 * (core/catalogue/markup.ts). It only fills the draft: the admin saves to keep the prices.
 */
import { useId, useState } from 'react';
import { formatE4, priceWithMarkupE4, supplierCostE4, supplierQuantityOf } from '../../../core/catalogue/markup.ts';
import type { ServiceKind, ServiceTerms } from '../../../core/subscriptions/terms.ts';
import { parseAmountE4 } from '../../../core/money/money.ts';
import { adminFieldClass, adminSecondaryButtonClass } from '../list-parts.tsx';
import type { ImportedService } from './api.ts';
import type { Plan, Tier } from './service-draft.ts';

export function MarkupTool({
  plan,
  kind: serviceKind,
  terms,
  servicesOf,
  onApply,
}: {
  plan: Plan;
  /** A subscription's tier costs its whole period: likes on every post, or every day's run. */
  kind: ServiceKind;
  terms: ServiceTerms | undefined;
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
      const cost = supplierCostE4(supplier.rateE4, supplierQuantityOf(serviceKind, terms, tier.qty));
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
      <p className="mt-2 text-xs text-gray-700">
        {serviceKind === 'automatic_likes'
          ? 'Cost = rate × likes per post × posts per period / 1000; prices are rounded up to the cent.'
          : serviceKind === 'daily_followers'
            ? 'Cost = rate × followers a day × days / 1000; prices are rounded up to the cent.'
            : 'Cost = rate × quantity / 1000; prices are rounded up to the cent.'}
      </p>
      {note ? (
        <p role="status" className="mt-1 text-sm text-gray-900">
          {note}
        </p>
      ) : null}
    </fieldset>
  );
}
