/**
 * The service, plan and price-tier choosers shared by the home page and the service page. Each is
 * a radio group (radio-group.ts): one Tab stop, the arrow keys choose within it.
 */
import type { PlanType, PlanView, PriceTierView } from '../../core/catalogue/types.ts';
import { describePrice } from '../../core/catalogue/pricing.ts';
import { TierPrice } from './TierPrice.tsx';
import { moveInRadioGroup, radioProps } from './radio-group.ts';

const pill = (active: boolean) =>
  `rounded-full border px-4 py-2 text-sm font-semibold transition ${
    active
      ? 'border-brand-700 bg-brand-700 text-white'
      : 'border-gray-300 bg-white text-gray-800 hover:border-brand-600'
  }`;

export function ServiceTabs({
  services,
  selected,
  onSelect,
}: {
  services: { slug: string; name: string }[];
  selected: string;
  onSelect: (slug: string) => void;
}) {
  return (
    <div role="radiogroup" aria-label="Services" className="flex flex-wrap gap-2">
      {services.map((service) => (
        <button
          key={service.slug}
          type="button"
          {...radioProps(service.slug === selected)}
          onKeyDown={(event) =>
            moveInRadioGroup(
              event,
              services.map((choice) => choice.slug),
              onSelect,
            )
          }
          className={pill(service.slug === selected)}
          onClick={() => onSelect(service.slug)}
        >
          {service.name}
        </button>
      ))}
    </div>
  );
}

export function PlanTabs({
  plans,
  selected,
  onSelect,
  showType = false,
}: {
  plans: Pick<PlanView, 'type' | 'title' | 'icon'>[];
  selected: PlanType;
  onSelect: (type: PlanType) => void;
  /** The service page labels each plan with its type (Standard, Popular, Exclusive). */
  showType?: boolean;
}) {
  return (
    <div role="radiogroup" aria-label="Plans" className="grid grid-cols-1 gap-3 sm:grid-cols-3">
      {plans.map((plan) => {
        const active = plan.type === selected;
        return (
          <button
            key={plan.type}
            type="button"
            {...radioProps(active)}
            onKeyDown={(event) =>
              moveInRadioGroup(
                event,
                plans.map((choice) => choice.type),
                onSelect,
              )
            }
            data-testid="plan-tab"
            onClick={() => onSelect(plan.type)}
            className={`flex items-center gap-3 rounded-card border-2 p-3 text-left transition ${
              active ? 'border-brand-700 bg-brand-50' : 'border-line bg-white hover:border-brand-500'
            }`}
          >
            <img src={plan.icon} alt="" width={32} height={32} />
            <span>
              {showType ? (
                <span className="block text-xs font-bold uppercase tracking-wide text-brand-800">{plan.type}</span>
              ) : null}
              <span className="block font-semibold text-ink">{plan.title}</span>
            </span>
          </button>
        );
      })}
    </div>
  );
}

export function PriceCards({
  tiers,
  currency,
  selectedQty,
  onSelect,
  detailed = false,
}: {
  tiers: PriceTierView[];
  currency: string;
  selectedQty: number;
  onSelect: (qty: number) => void;
  /** Service page: four decimals with the plan currency and the discount badge. */
  detailed?: boolean;
}) {
  return (
    // auto-rows-fr: every card as tall as the tallest, also across rows (a quantity that wraps on a
    // phone makes the whole grid taller, never one card).
    <div
      role="radiogroup"
      aria-label="Packages"
      className="grid auto-rows-fr grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4"
    >
      {tiers.map((tier) => {
        const active = tier.qty === selectedQty;
        const price = describePrice(tier.price, tier.discount, currency, tier.listPrice);
        return (
          <div key={tier.qty} className="flex">
            <button
              type="button"
              {...radioProps(active)}
              onKeyDown={(event) =>
                moveInRadioGroup(
                  event,
                  tiers.map((choice) => choice.qty),
                  onSelect,
                )
              }
              data-testid="price-card"
              data-qty={tier.qty}
              onClick={() => onSelect(tier.qty)}
              className={`relative flex w-full flex-col items-center justify-center gap-1 rounded-card border-2 px-3 py-4 text-center transition ${
                active ? 'border-brand-700 bg-brand-50' : 'border-line bg-white hover:border-brand-500'
              }`}
            >
              {detailed && price.badge ? (
                <span className="absolute -top-2 right-2 rounded-full bg-danger-700 px-2 py-0.5 text-xs font-bold text-white">
                  {price.badge}
                </span>
              ) : null}
              <span className="block text-lg font-bold text-ink">{tier.text}</span>
              <span className="block text-sm text-gray-700">
                {detailed ? price.price : <TierPrice price={tier.price} listPrice={tier.listPrice} />}
              </span>
            </button>
          </div>
        );
      })}
    </div>
  );
}
