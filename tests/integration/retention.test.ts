import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobStatus } from '../../db/column-values.ts';
import { purgeExpiredData } from '../../core/retention/purge.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';

const YEAR_MS = 365 * 86_400_000;

describe.each(dialects)('data retention on %s', (dialect) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await openTestDatabase(dialect);
    await migrateToLatest(database.db);
  });
  afterEach(async () => {
    await database.dispose();
  });

  const at = (agoMs: number) => new Date(Date.now() - agoMs).toISOString();

  async function insertOrder(createdAt: string, providerOrderId: string) {
    const { id } = await database.db
      .insertInto('orders')
      .values({
        provider: 'sandbox',
        provider_order_id: providerOrderId,
        client_order_id: providerOrderId,
        email: 'old@example.com',
        service_slug: 'instagram-followers',
        service_name: 'Instagram Followers',
        plan_type: 'Standard',
        quantity: 100,
        target: 'someone',
        target_kind: 'instagram_username',
        comment: null,
        supplier_service_id: '1001',
        price_e4: 29_900,
        amount_e4: 29_900,
        currency: 'USD',
        payment_status: 'paid',
        order_status: 'Completed',
        payment_id: null,
        review_reason: null,
        error_message: null,
        created_at: createdAt,
        updated_at: createdAt,
        paid_at: createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await database.db
      .insertInto('order_events')
      .values({ order_id: id, at: createdAt, kind: 'order.created', detail_json: '{}' })
      .execute();
    await database.db
      .insertInto('refunds')
      .values({
        order_id: id,
        idempotency_key: `remains:${id}`,
        origin: 'remains',
        status: 'done',
        provider: 'sandbox',
        provider_refund_id: `rfnd_${id}`,
        amount_e4: 100,
        reason: 'Partial',
        created_at: createdAt,
      })
      .execute();
    return id;
  }

  async function insertJob(createdAt: string, kind: string, status: JobStatus) {
    await database.db
      .insertInto('jobs')
      .values({
        kind,
        payload_json: '{}',
        dedupe_key: null,
        status,
        max_attempts: 8,
        run_at: createdAt,
        locked_by: null,
        locked_until: null,
        last_error: null,
        created_at: createdAt,
        updated_at: createdAt,
      })
      .execute();
  }

  it('purges orders, e-mails, codes and leftovers older than 2 years, and nothing newer', async () => {
    const old = at(2 * YEAR_MS + 86_400_000);
    const recent = at(2 * YEAR_MS - 86_400_000);
    const oldOrder = await insertOrder(old, 'order_old000001');
    const recentOrder = await insertOrder(recent, 'order_new000001');
    // Every supplier order goes with its order.
    for (const [orderId, createdAt] of [
      [oldOrder, old],
      [recentOrder, recent],
    ] as const) {
      await database.db
        .insertInto('supplier_orders')
        .values({
          order_id: orderId,
          supplier_order_id: `so-${orderId}`,
          quantity: 100,
          status: 'Completed',
          remains: 0,
          start_count: 0,
          charge_e4: 1000,
          final: 1,
          cancel_requested_at: null,
          error_message: null,
          created_at: createdAt,
          synced_at: createdAt,
        })
        .execute();
    }
    await insertJob(old, 'mail.send', 'done');
    await insertJob(old, 'mail.send', 'pending'); // unfinished work is never dropped
    await insertJob(old, 'order.fulfil', 'failed');
    await insertJob(recent, 'mail.send', 'done');
    await database.db
      .insertInto('one_time_codes')
      .values({
        purpose: 'order-history',
        subject: 'old@example.com',
        code_hash: 'x',
        expires_at: old,
        max_attempts: 5,
        consumed_at: null,
        last_sent_at: old,
        sends_in_window: 1,
        window_started_at: old,
        created_at: old,
      })
      .execute();
    await database.db
      .insertInto('webhook_events')
      .values({ provider: 'razorpay', event_id: 'evt_old', received_at: old })
      .execute();

    const counts = await purgeExpiredData(database.db);
    expect(counts).toEqual({
      orders: 1,
      mails: 1,
      jobs: 1,
      recurringRuns: 0,
      codes: 1,
      webhookEvents: 1,
      sandboxPayments: 0,
      simulatedPanelOrders: 0,
      contactMessages: 0,
    });

    const orders = await database.db.selectFrom('orders').select('id').execute();
    expect(orders.map((o) => o.id)).toEqual([recentOrder]);
    expect(
      await database.db.selectFrom('order_events').select('id').where('order_id', '=', oldOrder).execute(),
    ).toHaveLength(0);
    expect(
      await database.db.selectFrom('refunds').select('id').where('order_id', '=', oldOrder).execute(),
    ).toHaveLength(0);
    expect(
      (await database.db.selectFrom('supplier_orders').select('order_id').execute()).map((row) => row.order_id),
    ).toEqual([recentOrder]);
    expect(await database.db.selectFrom('jobs').select('status').execute()).toHaveLength(2);
    expect(await purgeExpiredData(database.db)).toEqual({
      orders: 0,
      mails: 0,
      jobs: 0,
      recurringRuns: 0,
      codes: 0,
      webhookEvents: 0,
      sandboxPayments: 0,
      simulatedPanelOrders: 0,
      contactMessages: 0,
    });
  });
  it('keeps finished runs of recurring jobs a day, and never touches open ones or other kinds', async () => {
    const now = new Date('2026-06-01T12:00:00Z');
    const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * 3_600_000).toISOString();
    const insertJob = (
      kind: string,
      status: 'pending' | 'running' | 'done' | 'failed',
      hoursAgo: number,
      key: string,
    ) =>
      database.db
        .insertInto('jobs')
        .values({
          kind,
          payload_json: '{}',
          dedupe_key: key,
          status,
          attempts: 1,
          max_attempts: 3,
          run_at: at(hoursAgo),
          locked_by: null,
          locked_until: null,
          last_error: null,
          created_at: at(hoursAgo),
          updated_at: at(hoursAgo),
        })
        .execute();
    await insertJob('fulfilment.sync', 'done', 30, 'rr-old-done');
    await insertJob('fulfilment.sync', 'failed', 30, 'rr-old-failed');
    await insertJob('fulfilment.sync', 'done', 2, 'rr-recent');
    await insertJob('fulfilment.sync', 'pending', 30, 'rr-old-pending');
    await insertJob('order.fulfil', 'done', 30, 'rr-other-kind');

    const counts = await purgeExpiredData(database.db, now, ['fulfilment.sync']);
    expect(counts.recurringRuns).toBe(2);
    const left = await database.db
      .selectFrom('jobs')
      .select('dedupe_key')
      .where('dedupe_key', 'like', 'rr-%')
      .orderBy('dedupe_key')
      .execute();
    expect(left.map((row) => row.dedupe_key)).toEqual(['rr-old-pending', 'rr-other-kind', 'rr-recent']);
  });
});
