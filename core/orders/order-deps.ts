/** What the checkout and payment use cases need, passed in once at boot. */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Catalogue } from '../catalogue/catalogue.ts';
import type { TargetKind } from '../catalogue/types.ts';
import type { PaymentProvider } from '../payments/provider.ts';

export type TargetCheckResult =
  | { outcome: 'verified'; canonical: string }
  | { outcome: 'invalid'; message: string }
  | { outcome: 'unavailable'; canonical: string; message: string };

/** Format and existence check of a target (core/verification). */
export type TargetCheck = (kind: TargetKind, input: string) => Promise<TargetCheckResult>;

export interface OrderServiceDeps {
  db: Kysely<Database>;
  catalogue: Catalogue;
  provider: PaymentProvider;
  checkTarget: TargetCheck;
  publicUrl: string;
  now: () => Date;
}

export function findOrderByProviderId(deps: Pick<OrderServiceDeps, 'db'>, providerOrderId: string) {
  return deps.db.selectFrom('orders').selectAll().where('provider_order_id', '=', providerOrderId).executeTakeFirst();
}
