/** What the checkout and payment use cases need, passed in once at boot. */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Catalogue } from '../catalogue/catalogue.ts';
import type { TargetKind } from '../catalogue/types.ts';
import { type PaymentGateways, loadMethodAdjustments } from '../payments/methods.ts';
import type { CheckoutMethods } from './form-detail.ts';
import type { MetricsRecorder } from '../metrics/recorder.ts';

export type TargetCheckResult =
  | { outcome: 'verified'; canonical: string }
  | { outcome: 'invalid'; message: string }
  | { outcome: 'unavailable'; canonical: string; message: string };

/** Format and existence check of a target (core/verification). */
export type TargetCheck = (kind: TargetKind, input: string) => Promise<TargetCheckResult>;

export interface OrderServiceDeps {
  db: Kysely<Database>;
  catalogue: Catalogue;
  /** The configured payment providers and the methods they serve. */
  gateways: PaymentGateways;
  checkTarget: TargetCheck;
  publicUrl: string;
  now: () => Date;
  /** Told of each payment outcome once it is committed (the metrics count them). */
  metrics?: Pick<MetricsRecorder, 'recordPayment'> | undefined;
}

/** The methods offered right now, with the owner's adjustments. */
export async function checkoutMethods(deps: Pick<OrderServiceDeps, 'db' | 'gateways'>): Promise<CheckoutMethods> {
  return { gateways: deps.gateways, adjustments: await loadMethodAdjustments(deps.db) };
}

/** The order with this reference (`order_…`) or public id (without `order_`). */
export function findOrderByReference(deps: Pick<OrderServiceDeps, 'db'>, reference: string) {
  const withPrefix = reference.startsWith('order_') ? reference : `order_${reference}`;
  return deps.db.selectFrom('orders').selectAll().where('provider_order_id', '=', withPrefix).executeTakeFirst();
}

/** A payment attempt by the provider's reference for it, with its order id. */
export function findAttempt(deps: Pick<OrderServiceDeps, 'db'>, provider: string, reference: string) {
  return deps.db
    .selectFrom('payment_attempts')
    .selectAll()
    .where('provider', '=', provider)
    .where('reference', '=', reference)
    .executeTakeFirst();
}

/**
 * Counts an outcome that changed something (a payment taken, refused, flagged, short or
 * disputed); repeats of what was already recorded and notices about nothing of ours are left out.
 */
export function countPaymentOutcome(deps: Pick<OrderServiceDeps, 'metrics'>, provider: string, outcome: string): void {
  if (outcome === 'ignored' || outcome === 'already-paid' || outcome === 'duplicate' || outcome === 'rejected') return;
  deps.metrics?.recordPayment(provider, outcome);
}
