/** What the scale-out and backup suites buy: the catalogue's first package, one customer at a time. */
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';

const followers = catalogueSeed.groups[0].services[0];
const plan = followers.plans[0];
const tier = plan.tiers[0];

/** The catalogue's supplier service for that package (the fake panel must offer it). */
export const supplierServiceId = tier.supplierServiceId;

/**
 * The body of `POST /api/order` for customer `n` of a run: an Instagram account and an e-mail of
 * their own (`<run>.buyer<n>`), so each order can be recognised at the supplier and in the inbox.
 */
export function orderBody(run: string, n: number) {
  return {
    type: plan.type,
    slug: followers.slug,
    qty: tier.qty,
    name: `${run}.buyer${n}`,
    email: `${run}.buyer${n}@example.com`,
    amount: Number(tier.price),
    currency: 'USD',
    order_id: String(100_000 + n),
  };
}
