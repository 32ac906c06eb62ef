/**
 * A captured payment the order cannot take (its amount or currency disagrees) is flagged for the
 * owner with one timeline entry per payment, per dialect, through the real transitions: the
 * reconciler and repeated verifies look at the same payments again and again, in any order, and
 * another flag in between must not make an old payment look new.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flagPaymentMismatch } from '../../core/orders/transitions/index.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

describe.each(dialects)('payment flags on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('adds one timeline entry per mismatched payment, however often and in whatever order it is seen', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/order',
      payload: {
        type: 'Standard',
        slug: 'instagram-followers',
        qty: 100,
        name: 'flags.buyer',
        email: 'flags@example.com',
        order_id: '424242',
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const order = await t.database.db
      .selectFrom('orders')
      .select('id')
      .where('provider_order_id', '=', created.json<{ data: { razorpay_order_id: string } }>().data.razorpay_order_id)
      .executeTakeFirstOrThrow();

    const seen: boolean[] = [];
    for (const paymentId of ['pay_A', 'pay_B', 'pay_A', 'pay_B', 'pay_A', 'pay_A']) {
      seen.push(
        await t.database.db.transaction().execute((trx) =>
          flagPaymentMismatch(trx, {
            orderId: order.id,
            paymentId,
            reason: 'Payment amount does not match the order',
            source: 'reconciler',
          }),
        ),
      );
    }
    // Only the first sight of each payment flags it (and tells the caller so).
    expect(seen).toEqual([true, true, false, false, false, false]);
    const mismatches = await t.database.db
      .selectFrom('order_events')
      .select('detail_json')
      .where('order_id', '=', order.id)
      .where('kind', '=', 'payment.mismatch')
      .orderBy('id')
      .execute();
    expect(mismatches.map((row) => (JSON.parse(row.detail_json) as { paymentId: string }).paymentId)).toEqual([
      'pay_A',
      'pay_B',
    ]);
    const row = await t.database.db
      .selectFrom('orders')
      .select(['needs_review', 'review_reason'])
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(row.needs_review).toBe(1);
    expect(row.review_reason).toMatch(/pay_[AB]/);
  });
});
