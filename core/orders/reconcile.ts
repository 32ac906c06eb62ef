/**
 * The payment reconciler (recurring job `payments.reconcile`): asks each provider about the
 * attempts of orders still waiting for payment, because the buyer may have closed the window or
 * the hosted page after paying, and a webhook may never come (or come to an instance that died). Windows and bounds: decision 014.
 */
import { defineRecurringJob } from '../jobs/recurring.ts';
import { type PaymentOutcome, type PaymentProvider, PaymentProviderError } from '../payments/provider.ts';
import type { PaymentGateways } from '../payments/methods.ts';
import { type OrderServiceDeps, countPaymentOutcome, findOrderByReference } from './order-deps.ts';
import { OrderError, PAYMENT_MESSAGES } from './order-error.ts';
import type { PaymentStatus } from './status.ts';
import { publicOrderId } from './types.ts';
import { applyPaymentOutcome } from './payments.ts';
import { expireOrder, markPaymentChecked } from './transitions/index.ts';

/** Recurring: asks the payment provider about unpaid orders (every PAYMENT_RECONCILE_SECONDS). */
export const PAYMENT_RECONCILE_JOB = defineRecurringJob('payments.reconcile');

/** Unpaid orders with a payment attempt (failed, authorised) older than this are expired by the reconciler. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;
/**
 * Unpaid orders the provider has no payment attempt for at all are expired sooner: nobody opened
 * the payment window, and each one kept would lengthen the reconciler's rotation (decision 014).
 */
export const UNATTEMPTED_EXPIRY_MS = 60 * 60 * 1000;
/** The reconciler leaves fresh orders to the checkout callback and webhooks. */
export const RECONCILE_AFTER_MS = 2 * 60 * 1000;
/** Orders one reconciler run asks the provider about (the rest wait for the next run, in rotation). */
export const RECONCILE_BATCH = 500;
/** Provider calls one reconciler run makes at a time. */
export const RECONCILE_CONCURRENCY = 8;

export interface ReconcileResult {
  /** Orders the provider answered about. */
  checked: number;
  paid: number;
  expired: number;
  /** Orders the provider could not be asked about this run (they go to the back of the rotation). */
  errors: number;
  /** Captured payments that disagree with their order, flagged for review by this run. */
  flagged: { orderId: number; providerOrderId: string; paymentId: string; reason: string }[];
}

/**
 * Asks the provider about orders still waiting for payment (the buyer may have closed the
 * window after paying), in rotation: never-checked orders first, then those checked longest
 * ago (`last_checked_at`), up to `limit` per run, `RECONCILE_CONCURRENCY` at a time. Expires
 * orders the provider has no payment attempt for after UNATTEMPTED_EXPIRY_MS, and those with
 * attempts (failed, authorised) after ABANDONED_AFTER_MS. A captured payment that disagrees
 * with the order is flagged for review (`flagged`, for the caller to log). A provider error on
 * one order is counted and the order still moves to the back of the rotation, so one bad
 * order cannot stall the rest. Windows and bounds: decision 014.
 */
/**
 * What the providers say about these attempts (those whose provider is still configured), or
 * undefined when one of them could not be asked.
 */
async function lookUpAttempts(
  gateways: PaymentGateways,
  attempts: readonly { provider: string; reference: string }[],
): Promise<{ provider: PaymentProvider; outcome: PaymentOutcome }[] | undefined> {
  const outcomes: { provider: PaymentProvider; outcome: PaymentOutcome }[] = [];
  for (const attempt of attempts) {
    const provider = gateways.provider(attempt.provider);
    if (!provider) continue;
    try {
      for (const outcome of await provider.lookUp(attempt.reference)) outcomes.push({ provider, outcome });
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      return undefined;
    }
  }
  return outcomes;
}

/**
 * The buyer is back from a hosted payment page: the providers are asked now instead of waiting
 * for their webhook (which may be slow, or lost), so the confirmation page can say "paid" at
 * once. Safe to call any number of times: a payment applies through the same transitions.
 */
export async function checkOrderPayment(
  deps: OrderServiceDeps,
  publicId: string,
): Promise<{ orderId: string; paymentStatus: PaymentStatus }> {
  const order = await findOrderByReference(deps, publicId.trim());
  if (!order) throw new OrderError(PAYMENT_MESSAGES.orderNotFound, 404);
  const orderId = publicOrderId(order.provider_order_id);
  // An expired order is asked too: money that still arrived for it is refunded (late-payment.ts).
  if (order.payment_status === 'paid') return { orderId, paymentStatus: order.payment_status };
  const attempts = await deps.db
    .selectFrom('payment_attempts')
    .select(['provider', 'reference'])
    .where('order_id', '=', order.id)
    .execute();
  const outcomes = (await lookUpAttempts(deps.gateways, attempts)) ?? [];
  const money = outcomes.filter(({ outcome }) => outcome.kind === 'captured' || outcome.kind === 'underpaid');
  if (money.length > 0) {
    const applied = await deps.db.transaction().execute(async (trx) => {
      const results: [string, string][] = [];
      for (const { provider, outcome } of money)
        results.push([provider.id, await applyPaymentOutcome(trx, deps, provider, outcome, 'checkout', false)]);
      return results;
    });
    for (const [provider, result] of applied) countPaymentOutcome(deps, provider, result);
  }
  const now = await deps.db
    .selectFrom('orders')
    .select('payment_status')
    .where('id', '=', order.id)
    .executeTakeFirstOrThrow();
  return { orderId, paymentStatus: now.payment_status };
}

export async function reconcilePayments(deps: OrderServiceDeps, limit = RECONCILE_BATCH): Promise<ReconcileResult> {
  const { db, gateways, now } = deps;
  const current = now().getTime();
  const due = await db
    .selectFrom('orders')
    .select(['id', 'provider_order_id', 'created_at', 'payment_status'])
    .where('payment_status', 'in', ['created', 'fail'])
    .where('created_at', '<', new Date(current - RECONCILE_AFTER_MS).toISOString())
    .orderBy('last_checked_at', (order) => order.asc().nullsFirst())
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  const attempts =
    due.length === 0
      ? []
      : await db
          .selectFrom('payment_attempts')
          .select(['order_id', 'provider', 'reference'])
          .where(
            'order_id',
            'in',
            due.map((o) => o.id),
          )
          .orderBy('id')
          .execute();
  const result: ReconcileResult = { checked: 0, paid: 0, expired: 0, errors: 0, flagged: [] };

  const outcomesOf = (orderId: number) =>
    lookUpAttempts(
      gateways,
      attempts.filter((a) => a.order_id === orderId),
    );

  async function checkOne(order: (typeof due)[number]): Promise<void> {
    const checkedAt = now();
    const outcomes = await outcomesOf(order.id);
    if (!outcomes) {
      result.errors += 1;
      await markPaymentChecked(db, order.id, checkedAt);
      return;
    }
    result.checked += 1;
    const counted: [string, string][] = [];
    await db.transaction().execute(async (trx) => {
      counted.length = 0; // a retried transaction starts its count again
      let applied = false;
      for (const { provider, outcome } of outcomes) {
        if (outcome.kind !== 'captured' && outcome.kind !== 'underpaid') continue;
        const done = await applyPaymentOutcome(trx, deps, provider, outcome, 'reconciler', false, (reason) =>
          result.flagged.push({
            orderId: order.id,
            providerOrderId: order.provider_order_id,
            paymentId: outcome.paymentId,
            reason,
          }),
        );
        applied = true;
        counted.push([provider.id, done]);
        if (done === 'paid') result.paid += 1;
      }
      if (!applied) {
        const attempted = outcomes.length > 0 || order.payment_status === 'fail';
        const window = attempted ? ABANDONED_AFTER_MS : UNATTEMPTED_EXPIRY_MS;
        if (Date.parse(order.created_at) < current - window && (await expireOrder(trx, order.id, checkedAt)))
          result.expired += 1;
      }
      await markPaymentChecked(trx, order.id, checkedAt);
    });
    for (const [provider, done] of counted) countPaymentOutcome(deps, provider, done);
  }

  // A few provider calls at a time: a backlog of hundreds is one run, not hundreds of seconds.
  let next = 0;
  const lane = async () => {
    while (next < due.length) {
      const order = due[next];
      next += 1;
      if (order) await checkOne(order);
    }
  };
  await Promise.all(Array.from({ length: Math.min(RECONCILE_CONCURRENCY, due.length) }, lane));
  return result;
}
