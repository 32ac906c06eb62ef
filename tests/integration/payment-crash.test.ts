/**
 * The worst moment to die for a payment: the provider has taken the buyer's money, and the store
 * is killed (SIGKILL) before its paid transition, so the webhook never lands. A real server
 * process with Cryptomus configured (against the local fake) is killed right after the capture
 * and another is started on the same database: its reconciler finds the payment and pays the
 * order exactly once, and the webhook's late delivery changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectName } from '../../db/database.ts';
import { type FakeCryptomus, startFakeCryptomus } from '../fakes/cryptomus.ts';
import { orderBody } from '../scale/order-body.ts';
import { dialects } from '../support/databases.ts';
import { CRYPTOMUS_TEST_KEYS, cryptomusEnv } from '../support/provider-env.ts';
import { processDatabase } from '../support/server-process.ts';
import { waitFor } from '../support/wait-for.ts';

describe.each(dialects)('a server killed between the capture and the paid transition (%s)', (dialect: DialectName) => {
  let cryptomus: FakeCryptomus;
  let store: Awaited<ReturnType<typeof processDatabase>>;

  beforeAll(async () => {
    cryptomus = await startFakeCryptomus(CRYPTOMUS_TEST_KEYS);
    store = await processDatabase(dialect, 'payment_crash');
  });
  afterAll(async () => {
    await store?.close();
    await cryptomus?.close();
  });

  it('the restarted store finds the payment and pays the order once', { timeout: 120_000 }, async () => {
    const { database } = store;
    const env = {
      ...cryptomusEnv(cryptomus.url),
      PAYMENT_RECONCILE_SECONDS: '1',
      JOB_POLL_MS: '100',
      // The killed store may hold the reconciler's run (it runs every second) when it dies; the
      // restarted one takes it over when that lease ends, so keep it short (the default is 60 s).
      JOB_LEASE_SECONDS: '5',
    };
    const first = await store.start(env);
    const created = await fetch(`${first.url}/api/order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...orderBody('paycrash', 1), paymentMethod: 'crypto' }),
    });
    expect(created.status, first.output()).toBe(200);
    const { orderId } = ((await created.json()) as { data: { orderId: string } }).data;

    // The buyer pays; before Cryptomus's webhook reaches the store, the store dies.
    await cryptomus.pay(orderId, { sendWebhook: false });
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const row = () =>
      database.db
        .selectFrom('orders')
        .select(['id', 'payment_status'])
        .where('provider_order_id', '=', `order_${orderId}`)
        .executeTakeFirstOrThrow();
    expect((await row()).payment_status).toBe('created');
    // The reconciler leaves orders younger than two minutes to the webhook: this one is older.
    await database.db
      .updateTable('orders')
      .set({ created_at: new Date(Date.now() - 5 * 60_000).toISOString() })
      .where('provider_order_id', '=', `order_${orderId}`)
      .execute();

    const second = await store.start(env);
    await waitFor(async () => (await row()).payment_status === 'paid', {
      timeout: 30_000,
      interval: 200,
      message: 'the restarted store to find the captured payment',
    });

    // The webhook arrives late, at the new instance: nothing more happens.
    const late = await fetch(`${second.url}/api/payments/cryptomus/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: cryptomus.webhookBody(orderId),
    });
    expect(late.status).toBe(200);
    const { id } = await row();
    const paidEntries = await database.db
      .selectFrom('order_events')
      .select('id')
      .where('order_id', '=', id)
      .where('kind', '=', 'payment.paid')
      .execute();
    expect(paidEntries).toHaveLength(1);
    await waitFor(
      async () =>
        (await database.db.selectFrom('jobs').select('status').where('dedupe_key', '=', `receipt:${id}`).execute())
          .length === 1,
      { timeout: 15_000, interval: 200, message: 'the receipt to be queued' },
    );
    const receipts = await database.db
      .selectFrom('jobs')
      .select('id')
      .where('dedupe_key', '=', `receipt:${id}`)
      .execute();
    expect(receipts).toHaveLength(1);

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});
