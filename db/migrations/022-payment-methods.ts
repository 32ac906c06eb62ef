import { type MigrationDb, idColumn, isPostgres, sql } from './helpers.ts';

/**
 * Payments through any provider, by method (decision 055).
 *
 * - `orders.payment_method` and `orders.adjustment_e4`: the method the order is (to be) paid with
 *   and the price change that method brought (negative: a discount). `orders.provider` is the
 *   provider of that method. Both follow the buyer's latest choice until the order is paid, then
 *   name what took the money.
 * - `payment_attempts`: one per order and method the buyer chose, with the provider's reference
 *   for it (Razorpay's order id, the order id we gave Cryptomus or Solidgate) and the amount
 *   that method charges. Webhooks, the checkout window and the reconciler find the order
 *   through it. Orders from before get one attempt: the provider order they were created with.
 * - `order_payments`: money received. The one that paid the order (`applied`), and any other
 *   payment for the same order (`extra`, the buyer paid twice: to be refunded). Refunds are
 *   capped per payment, by compare-and-set on `refunded_e4 + refund_pending_e4`.
 * - `refunds`: any number per order now (the owner's partial refunds besides the automatic one of
 *   undelivered remains), each unique by its idempotency key and tied to one payment. The old
 *   one-per-order refunds keep the key `remains:<order id>` the automatic refund still uses.
 * - `payment_disputes`: chargebacks a provider reported, once each.
 */
export async function up(db: MigrationDb): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .alterTable('orders')
    .addColumn('payment_method', 'text', (c) => c.notNull().defaultTo('card'))
    .execute();
  await db.schema
    .alterTable('orders')
    .addColumn('adjustment_e4', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('orders_provider_created').on('orders').columns(['provider', 'created_at']).execute();

  await idColumn(db, db.schema.createTable('payment_attempts'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('amount_e4', 'bigint', (c) => c.notNull())
    .addColumn('adjustment_e4', 'bigint', (c) => c.notNull())
    .addColumn('checkout_json', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('payment_attempts_reference', ['provider', 'reference'])
    .addUniqueConstraint('payment_attempts_order_method', ['order_id', 'method'])
    .execute();
  await sql`insert into payment_attempts (order_id, provider, method, reference, amount_e4, adjustment_e4, checkout_json, created_at)
    select id, provider, 'card', provider_order_id, amount_e4, 0, '{}', created_at from orders`.execute(db);

  await idColumn(db, db.schema.createTable('order_payments'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('attempt_id', 'integer', (c) => c.references('payment_attempts.id').onDelete('set null'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('payment_id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('amount_e4', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('refunded_e4', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('refund_pending_e4', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('order_payments_payment', ['provider', 'payment_id'])
    .execute();
  await db.schema.createIndex('order_payments_order').on('order_payments').column('order_id').execute();
  await db.schema
    .createIndex('order_payments_created')
    .on('order_payments')
    .columns(['created_at', 'provider'])
    .execute();
  await sql`insert into order_payments (order_id, attempt_id, provider, method, payment_id, role, amount_e4, currency, refunded_e4, created_at)
    select o.id, a.id, o.provider, 'card', o.payment_id, 'applied', o.amount_e4, o.currency, o.refunded_e4, coalesce(o.paid_at, o.updated_at)
      from orders o join payment_attempts a on a.order_id = o.id
     where o.payment_status = 'paid' and o.payment_id is not null`.execute(db);

  // refunds: many per order now, so the table is made anew without its unique order_id.
  await sql`alter table refunds rename to refunds_before_022`.execute(db);
  if (pg) await sql`alter index refunds_pkey rename to refunds_before_022_pkey`.execute(db);
  await idColumn(db, db.schema.createTable('refunds'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('order_payment_id', 'integer', (c) => c.references('order_payments.id').onDelete('set null'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_refund_id', 'text')
    .addColumn('amount_e4', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text')
    .addColumn('failure', 'text')
    .addColumn('payout_address', 'text')
    .addColumn('address_token_hash', 'text', (c) => c.unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('settled_at', 'text')
    .execute();
  await sql`insert into refunds (order_id, order_payment_id, idempotency_key, origin, status, provider, provider_refund_id, amount_e4, reason, created_at, settled_at)
    select r.order_id, p.id, 'remains:' || r.order_id, 'remains', 'done', o.provider, r.provider_refund_id, r.amount_e4, r.reason, r.created_at, r.created_at
      from refunds_before_022 r join orders o on o.id = r.order_id
      left join order_payments p on p.order_id = r.order_id and p.role = 'applied'`.execute(db);
  await db.schema.dropTable('refunds_before_022').execute();
  await db.schema.createIndex('refunds_order').on('refunds').column('order_id').execute();
  await db.schema.createIndex('refunds_created').on('refunds').columns(['created_at', 'provider']).execute();

  await idColumn(db, db.schema.createTable('payment_disputes'))
    .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('dispute_id', 'text', (c) => c.notNull())
    .addColumn('amount_e4', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('payment_disputes_dispute', ['provider', 'dispute_id'])
    .execute();
  await db.schema
    .createIndex('payment_disputes_created')
    .on('payment_disputes')
    .columns(['created_at', 'provider'])
    .execute();
  await db.schema.createIndex('payment_disputes_order').on('payment_disputes').column('order_id').execute();
}

export async function down(db: MigrationDb): Promise<void> {
  await db.schema.dropTable('payment_disputes').execute();
  await db.schema.dropTable('refunds').execute();
  await idColumn(db, db.schema.createTable('refunds_one_per_order'))
    .addColumn('order_id', 'integer', (c) => c.notNull().unique().references('orders.id').onDelete('cascade'))
    .addColumn('provider_refund_id', 'text', (c) => c.notNull())
    .addColumn('amount_e4', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await sql`alter table refunds_one_per_order rename to refunds`.execute(db);
  await db.schema.dropTable('order_payments').execute();
  await db.schema.dropTable('payment_attempts').execute();
  await db.schema.dropIndex('orders_provider_created').execute();
  await db.schema.alterTable('orders').dropColumn('adjustment_e4').execute();
  await db.schema.alterTable('orders').dropColumn('payment_method').execute();
}
