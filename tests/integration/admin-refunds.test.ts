/**
 * The owner's refunds through the real app on each dialect, against the keyless sandbox (which
 * refunds any amount, and whose refund id is derived from the idempotency key): full and partial
 * refunds, the cap (what is left, automatic refunds of undelivered remains included), exactly
 * once under 20 concurrent clicks with one key, one winner among 20 different keys, a second
 * payment refunded by itself, the audit entry, the customer's e-mail, the order detail's payments
 * and refunds in words, and the customer's refund link refusing a spent or unknown token.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderDetailSchema } from '../../core/admin/contracts.ts';
import { PAYMENT_ROLE_TEXT } from '../../core/admin/order-refunds.ts';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { MAIL_JOB } from '../../core/mail/send-mail-job.ts';
import { orderMailsSubscriber, refundMailKey } from '../../core/notifications/order-mails.ts';
import { ORDER_EVENT_JOB, handleOrderEvents } from '../../core/orders/events.ts';
import { REFUND_FORM_MESSAGES, REFUND_STATE_TEXT } from '../../core/orders/refund-rules.ts';
import { REFUND_MESSAGES } from '../../core/orders/refunds.ts';
import { reserveRefund } from '../../core/orders/transitions/index.ts';
import type { PaymentProvider, RefundInput } from '../../core/payments/provider.ts';
import { seedAdmin } from '../support/admin-accounts.ts';
import { adminToken } from '../support/admin-session.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const followers = catalogueSeed.groups[0].services[0];
const tier = followers.plans[0].tiers[0];
const PASSWORD = 'a long enough admin password';

let sequence = 400_000;
const next = () => (sequence += 1);
const uuid = () => crypto.randomUUID();

describe.each(dialects)('owner refunds on %s', (dialect) => {
  let t: TestApp;
  let token = '';
  let ownerEmail = '';
  /** Every idempotency key the sandbox was asked to refund with: one key is one refund at the provider. */
  const askedKeys: string[] = [];

  beforeAll(async () => {
    t = await startTestApp(dialect, { env: { PUBLIC_URL: 'https://shop.example' } });
    ownerEmail = `owner-${dialect}@refunds.example`;
    const owner = await seedAdmin(t.database.db, ownerEmail, PASSWORD, { verified: true });
    await t.database.db.updateTable('admins').set({ role: 'owner' }).where('id', '=', owner.id).execute();
    token = await adminToken(t, { email: ownerEmail, password: PASSWORD }, '10.91.0.1');
    // Records what the real sandbox is asked, and lets it answer as it does.
    const sandbox = t.store.gateways.provider('sandbox') as PaymentProvider;
    const refund = sandbox.refund.bind(sandbox);
    Object.assign(sandbox, {
      refund: (input: RefundInput) => {
        askedKeys.push(input.idempotencyKey);
        return refund(input);
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (url: string, payload: object, remoteAddress = '10.92.0.1') =>
    t.app.inject({ method: 'POST', url, payload, remoteAddress });

  /** A paid sandbox order as a buyer makes one; `twice`: the buyer paid it a second time. */
  async function paidOrder(options: { twice?: boolean } = {}) {
    const n = next();
    const address = `10.93.${Math.floor(n / 250) % 250}.${n % 250}`;
    const created = await post(
      '/api/order',
      {
        type: 'Standard',
        slug: followers.slug,
        qty: tier.qty,
        name: `refund.buyer${n}`,
        email: `buyer${n}@example.com`,
        order_id: String(n),
      },
      address,
    );
    expect(created.statusCode, created.body).toBe(200);
    const { razorpay_order_id: reference, orderId } = created.json<{
      data: { razorpay_order_id: string; orderId: string };
    }>().data;
    const pay = async () => {
      const paid = await post('/api/sandbox/pay', { razorpay_order_id: reference }, address);
      expect(paid.statusCode, paid.body).toBe(200);
      return paid.json<{ data: Record<string, string> }>().data;
    };
    // A second window paid before the first one's result arrived: both payments are captured.
    const payments = options.twice ? [await pay(), await pay()] : [await pay()];
    for (const payment of payments) {
      const verified = await post('/api/order/verify-payment', payment, address);
      expect(verified.statusCode, verified.body).toBe(200);
    }
    const row = await t.database.db
      .selectFrom('orders')
      .selectAll()
      .where('provider_order_id', '=', reference)
      .executeTakeFirstOrThrow();
    return { orderId, row };
  }

  const refund = (orderId: string, body: object, remoteAddress = '10.94.0.1') =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${orderId}/refunds`,
      headers: { authorization: `Bearer ${token}` },
      payload: body,
      remoteAddress,
    });

  const detail = async (orderId: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/order/detail/${orderId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    return OrderDetailSchema.parse(response.json<{ data: unknown }>().data);
  };

  const orderRow = (id: number) =>
    t.database.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const refundsOf = (id: number) =>
    t.database.db.selectFrom('refunds').selectAll().where('order_id', '=', id).orderBy('id').execute();
  const refundedEvents = async (refundIds: number[]) =>
    (
      await t.database.db
        .selectFrom('jobs')
        .select(['dedupe_key', 'payload_json'])
        .where('kind', '=', ORDER_EVENT_JOB.kind)
        .execute()
    ).filter((job) => refundIds.some((id) => job.dedupe_key === `event:order.refunded:${id}`));

  it('refunds the whole payment, in words, once, audited, with the e-mail queued once', async () => {
    const { orderId, row } = await paidOrder();
    const cents = row.amount_e4 / 100;
    const key = uuid();
    const response = await refund(orderId, {
      amountCents: cents,
      reason: 'Customer changed their mind',
      idempotencyKey: key,
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ isSuccessful: boolean; message: string; data: { state: string; amount: number } }>();
    expect(body.isSuccessful).toBe(true);
    expect(body.message).toMatch(/^Refunded \$\d+\.\d{2} to the buyer through Test payments\.$/);
    expect(body.data).toMatchObject({ state: 'done', stateText: REFUND_STATE_TEXT.done, amount: cents / 100 });
    expect((await orderRow(row.id)).refunded_e4).toBe(row.amount_e4);

    // Asked again (a retry after a lost reply): the same refund, nothing more.
    const again = await refund(orderId, {
      amountCents: cents,
      reason: 'Customer changed their mind',
      idempotencyKey: key,
    });
    expect(again.statusCode).toBe(200);
    expect((await orderRow(row.id)).refunded_e4).toBe(row.amount_e4);
    const refunds = await refundsOf(row.id);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ origin: 'owner', status: 'done', requested_by: ownerEmail });

    // Nothing is left: a new refund is refused with the owner's message.
    const more = await refund(orderId, { amountCents: 1, reason: 'One more cent', idempotencyKey: uuid() });
    expect(more.statusCode).toBe(409);
    expect(more.json()).toMatchObject({ isSuccessful: false, message: REFUND_MESSAGES.tooMuch });

    const audit = await t.database.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('action', '=', 'order.refund')
      .where('target_id', '=', orderId)
      .orderBy('id')
      .execute();
    expect(audit.map((entry) => entry.outcome)).toEqual([200, 200]);
    expect(audit[0]).toMatchObject({ admin_email: ownerEmail, target_type: 'order' });
    expect(JSON.parse(audit[0].summary!)).toMatchObject({
      after: { reason: 'Customer changed their mind', state: REFUND_STATE_TEXT.done, provider: 'Test payments' },
    });
    const refusedAudit = await t.database.db
      .selectFrom('admin_audit')
      .select('outcome')
      .where('target_id', '=', orderId)
      .where('outcome', '=', 409)
      .execute();
    expect(refusedAudit).toHaveLength(1);

    // The event's subscriber queues the customer's e-mail once, however often the event runs.
    const events = await refundedEvents([refunds[0].id]);
    expect(events).toHaveLength(1);
    const handler = handleOrderEvents(t.database.db, [orderMailsSubscriber({ publicUrl: 'https://shop.example' })]);
    const job = await t.database.db
      .selectFrom('jobs')
      .selectAll()
      .where('dedupe_key', '=', events[0].dedupe_key)
      .executeTakeFirstOrThrow();
    await handler.run(JSON.parse(job.payload_json), job);
    await handler.run(JSON.parse(job.payload_json), job);
    const mails = await t.database.db
      .selectFrom('jobs')
      .select('payload_json')
      .where('kind', '=', MAIL_JOB)
      .where('dedupe_key', '=', refundMailKey(refunds[0].id))
      .execute();
    expect(mails).toHaveLength(1);
    const mail = JSON.parse(mails[0].payload_json) as { to: string; subject: string; text: string };
    expect(mail.to).toBe(row.email);
    expect(mail.subject).toContain('refunded');
    expect(mail.text).toContain(`We refunded $${(cents / 100).toFixed(2)} for your order ${orderId}.`);
    expect(mail.text).toContain('Customer changed their mind');

    // The detail lists it in words.
    const { money } = await detail(orderId);
    expect(money.canRefund).toBe(true);
    expect(money.payments).toEqual([
      expect.objectContaining({
        kind: 'applied',
        roleText: PAYMENT_ROLE_TEXT.applied,
        providerLabel: 'Test payments',
        methodLabel: 'Card',
        left: 0,
        refunds: 'any',
      }),
    ]);
    expect(money.refunds).toEqual([
      expect.objectContaining({
        by: ownerEmail,
        stateText: REFUND_STATE_TEXT.done,
        reason: 'Customer changed their mind',
      }),
    ]);
  });

  it('refunds part, then the rest, and never more than is left', async () => {
    const { orderId, row } = await paidOrder();
    const cents = row.amount_e4 / 100;
    const part = Math.floor(cents / 3);
    const first = await refund(orderId, {
      amountCents: part,
      reason: 'Half the followers dropped',
      idempotencyKey: uuid(),
    });
    expect(first.statusCode, first.body).toBe(200);
    expect((await detail(orderId)).money.payments[0].left).toBe((cents - part) / 100);

    const tooMuch = await refund(orderId, {
      amountCents: cents - part + 1,
      reason: 'The rest and a cent',
      idempotencyKey: uuid(),
    });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().message).toBe(REFUND_MESSAGES.tooMuch);

    const rest = await refund(orderId, { amountCents: cents - part, reason: 'The rest', idempotencyKey: uuid() });
    expect(rest.statusCode, rest.body).toBe(200);
    expect((await orderRow(row.id)).refunded_e4).toBe(row.amount_e4);
    expect((await refundsOf(row.id)).map((r) => r.amount_e4)).toEqual([part * 100, (cents - part) * 100]);
  });

  it('refuses bad input with the field at fault, and an unknown order with 404', async () => {
    const { orderId } = await paidOrder();
    const cases: [object, string][] = [
      [{ amountCents: 0, reason: 'x', idempotencyKey: uuid() }, 'amountCents'],
      [{ amountCents: 1.5, reason: 'x', idempotencyKey: uuid() }, 'amountCents'],
      [{ amountCents: 100, reason: '   ', idempotencyKey: uuid() }, 'reason'],
      [{ amountCents: 100, reason: 'x'.repeat(301), idempotencyKey: uuid() }, 'reason'],
      [{ amountCents: 100, reason: 'x', idempotencyKey: 'short' }, 'idempotencyKey'],
      [{ amountCents: 100, reason: 'x' }, 'idempotencyKey'],
    ];
    for (const [body, field] of cases) {
      const response = await refund(orderId, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().errors[0].field).toBe(field);
    }
    expect(
      (await refund(orderId, { amountCents: 100, reason: 'x', idempotencyKey: uuid(), orderPaymentId: 999_999 }))
        .statusCode,
    ).toBe(404);
    const unknown = await refund('NoSuchOrder123', { amountCents: 100, reason: 'x', idempotencyKey: uuid() });
    expect(unknown.statusCode).toBe(404);
    const blank = await refund(orderId, { amountCents: 100, reason: ' ', idempotencyKey: uuid() });
    expect(blank.json().errors[0]).toEqual({ field: 'reason', message: REFUND_FORM_MESSAGES.reasonRequired });
  });

  it('makes one refund of 20 concurrent clicks with one key: one row, one event, one key at the provider', async () => {
    const { orderId, row } = await paidOrder();
    const cents = row.amount_e4 / 100;
    const key = uuid();
    const asked = askedKeys.length;
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        refund(orderId, { amountCents: cents, reason: 'Double clicked', idempotencyKey: key }, `10.95.0.${i + 1}`),
      ),
    );
    for (const reply of replies) expect([200, 202], reply.body).toContain(reply.statusCode);
    const refunds = await refundsOf(row.id);
    expect(refunds).toHaveLength(1);
    // A click that found the refund still with the provider asks it again with the same key: one refund there.
    const keysAsked = new Set(askedKeys.slice(asked));
    expect(keysAsked.size).toBe(1);
    expect([...keysAsked][0]).toContain(key);
    expect((await orderRow(row.id)).refunded_e4).toBe(row.amount_e4);
    expect(refunds[0]).toMatchObject({ status: 'done', amount_e4: row.amount_e4 });
    expect(await refundedEvents([refunds[0].id])).toHaveLength(1);
    const payment = await t.database.db
      .selectFrom('order_payments')
      .selectAll()
      .where('order_id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(payment).toMatchObject({ refunded_e4: row.amount_e4, refund_pending_e4: 0 });
  });

  it('lets exactly one of 20 concurrent refunds of the whole amount with different keys through', async () => {
    const { orderId, row } = await paidOrder();
    const cents = row.amount_e4 / 100;
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        refund(orderId, { amountCents: cents, reason: `Click ${i}`, idempotencyKey: uuid() }, `10.96.0.${i + 1}`),
      ),
    );
    const statuses = replies.map((reply) => reply.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    for (const reply of replies.filter((r) => r.statusCode === 409))
      expect(reply.json().message).toBe(REFUND_MESSAGES.tooMuch);
    const refunds = await refundsOf(row.id);
    expect(refunds.filter((r) => r.status === 'done')).toHaveLength(1);
    expect(refunds.reduce((sum, r) => sum + (r.status === 'done' ? r.amount_e4 : 0), 0)).toBe(row.amount_e4);
    expect((await orderRow(row.id)).refunded_e4).toBe(row.amount_e4);
  });

  it('never lets the automatic refund of remains and the owner refund more than was paid, either way round', async () => {
    // The owner first, then the supplier cancels with nothing delivered: the automatic refund is the rest.
    const a = await paidOrder();
    const aCents = a.row.amount_e4 / 100;
    const ownerPart = Math.floor(aCents / 4);
    expect(
      (await refund(a.orderId, { amountCents: ownerPart, reason: 'Goodwill', idempotencyKey: uuid() })).statusCode,
    ).toBe(200);
    // What the supplier's cancel leaves on the row (core/orders/transitions write it in production).
    await t.database.db
      .updateTable('orders')
      .set({ order_status: 'Canceled', remains: a.row.quantity })
      .where('id', '=', a.row.id)
      .execute();
    expect(await t.store.fulfilment.refund(a.row.id)).toBe('refunded');
    expect((await orderRow(a.row.id)).refunded_e4).toBe(a.row.amount_e4);
    const aRefunds = await refundsOf(a.row.id);
    expect(aRefunds.map((r) => [r.origin, r.amount_e4])).toEqual([
      ['owner', ownerPart * 100],
      ['remains', a.row.amount_e4 - ownerPart * 100],
    ]);
    const late = await refund(a.orderId, { amountCents: 1, reason: 'One more', idempotencyKey: uuid() });
    expect(late.statusCode).toBe(409);

    // The automatic refund first (half undelivered), then the owner asks for everything: refused, the rest goes.
    const b = await paidOrder();
    await t.database.db
      .updateTable('orders')
      .set({ order_status: 'Partial', remains: Math.floor(b.row.quantity / 2) })
      .where('id', '=', b.row.id)
      .execute();
    expect(await t.store.fulfilment.refund(b.row.id)).toBe('refunded');
    const afterRemains = await orderRow(b.row.id);
    const left = b.row.amount_e4 - afterRemains.refunded_e4;
    expect(left).toBeGreaterThan(0);
    const all = await refund(b.orderId, {
      amountCents: b.row.amount_e4 / 100,
      reason: 'Everything',
      idempotencyKey: uuid(),
    });
    expect(all.statusCode).toBe(409);
    expect((await detail(b.orderId)).money.payments[0].left).toBe(left / 10_000);
    const rest = await refund(b.orderId, { amountCents: left / 100, reason: 'The rest', idempotencyKey: uuid() });
    expect(rest.statusCode, rest.body).toBe(200);
    expect((await orderRow(b.row.id)).refunded_e4).toBe(b.row.amount_e4);
    expect((await detail(b.orderId)).money.refunds.map((r) => r.by)).toEqual([ownerEmail, 'Automatic']);
  });

  it('refunds a second payment by itself, without touching the order refunded total', async () => {
    const { orderId, row } = await paidOrder({ twice: true });
    expect(row.needs_review).toBe(1);
    const { money } = await detail(orderId);
    expect(money.payments.map((p) => p.roleText)).toEqual([PAYMENT_ROLE_TEXT.applied, PAYMENT_ROLE_TEXT.second]);
    const second = money.payments[1];
    expect(second.left).toBe(row.amount_e4 / 10_000);

    const response = await refund(orderId, {
      amountCents: Math.round(second.left * 100),
      reason: 'Paid twice',
      idempotencyKey: uuid(),
      orderPaymentId: second.id,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect((await orderRow(row.id)).refunded_e4).toBe(0);
    const after = (await detail(orderId)).money;
    expect(after.payments.map((p) => p.left)).toEqual([row.amount_e4 / 10_000, 0]);
    expect(after.refunds).toEqual([
      expect.objectContaining({ paymentId: second.id, stateText: REFUND_STATE_TEXT.done }),
    ]);
    // The order's own payment is still whole to refund.
    const again = await refund(orderId, {
      amountCents: 1,
      reason: 'Paid twice',
      idempotencyKey: uuid(),
      orderPaymentId: second.id,
    });
    expect(again.statusCode).toBe(409);
  });

  it('finishes an owner refund left unconfirmed (a crash after asking the provider) with its own key, once', async () => {
    const { orderId, row } = await paidOrder();
    const key = uuid();
    // What a crash between reserving the refund and recording the provider's answer leaves.
    const reserved = await reserveRefund(
      t.database.db,
      {
        orderId: row.id,
        amountE4: 10_000,
        reason: 'Interrupted',
        origin: 'owner',
        idempotencyKey: `owner:${row.id}:${key}`,
        requestedBy: ownerEmail,
        wholeOnly: false,
      },
      new Date().toISOString(),
    );
    expect(reserved.outcome).toBe('reserved');
    const pending = (await detail(orderId)).money;
    expect(pending.refunds).toEqual([expect.objectContaining({ stateText: REFUND_STATE_TEXT.pending, retryKey: key })]);
    expect(pending.payments[0].left).toBe((row.amount_e4 - 10_000) / 10_000);

    const retried = await refund(orderId, { amountCents: 100, reason: 'Interrupted', idempotencyKey: key });
    expect(retried.statusCode, retried.body).toBe(200);
    const after = (await detail(orderId)).money;
    expect(after.refunds).toEqual([expect.objectContaining({ stateText: REFUND_STATE_TEXT.done, retryKey: null })]);
    expect((await orderRow(row.id)).refunded_e4).toBe(10_000);
    expect(await refundsOf(row.id)).toHaveLength(1);
  });

  it('tells the dialog when the order still runs at the supplier, and a support admin that only the owner refunds', async () => {
    const { orderId, row } = await paidOrder();
    expect((await detail(orderId)).money.runningAtSupplier).toBe(false);
    // What submitting to the supplier leaves behind (core/fulfilment writes it in production).
    await t.database.db
      .insertInto('supplier_orders')
      .values({
        order_id: row.id,
        supplier_order_id: `sup-${row.id}`,
        quantity: row.quantity,
        status: 'In Progress',
        remains: row.quantity,
        start_count: 10,
        charge_e4: null,
        cancel_requested_at: null,
        error_message: null,
        created_at: new Date().toISOString(),
        synced_at: null,
      })
      .execute();
    await t.database.db.updateTable('orders').set({ order_status: 'In Progress' }).where('id', '=', row.id).execute();
    expect((await detail(orderId)).money.runningAtSupplier).toBe(true);

    const supportEmail = `support-${dialect}@refunds.example`;
    const support = await seedAdmin(t.database.db, supportEmail, PASSWORD, { verified: true });
    await t.database.db.updateTable('admins').set({ role: 'support' }).where('id', '=', support.id).execute();
    const supportToken = await adminToken(t, { email: supportEmail, password: PASSWORD }, '10.91.0.2');
    const seen = await t.app.inject({
      method: 'GET',
      url: `/api/order/detail/${orderId}`,
      headers: { authorization: `Bearer ${supportToken}` },
    });
    expect(OrderDetailSchema.parse(seen.json<{ data: unknown }>().data).money).toMatchObject({
      canRefund: false,
      payments: [expect.objectContaining({ roleText: PAYMENT_ROLE_TEXT.applied })],
    });
    const refused = await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${orderId}/refunds`,
      headers: { authorization: `Bearer ${supportToken}` },
      payload: { amountCents: 100, reason: 'Trying', idempotencyKey: uuid() },
    });
    expect(refused.statusCode).toBe(403);
    expect(await refundsOf(row.id)).toEqual([]);
  });

  it('refuses a spent or unknown refund link, in the customer words, from the API and the page data', async () => {
    const unknown = await post('/api/refunds/address', {
      token: 'x'.repeat(32),
      address: 'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(REFUND_MESSAGES.linkInvalid);
    expect(await t.store.services.refundLinks.view('x'.repeat(32))).toEqual({ state: 'invalid' });

    const badAddress = await post('/api/refunds/address', {
      token: 'x'.repeat(32),
      address: 'not an address, really!!',
    });
    expect(badAddress.statusCode).toBe(400);
    expect(badAddress.json().errors[0]).toEqual({ field: 'address', message: REFUND_FORM_MESSAGES.addressCharacters });
    const short = await post('/api/refunds/address', { token: 'x'.repeat(32), address: 'abc' });
    expect(short.json().errors[0]).toEqual({ field: 'address', message: REFUND_FORM_MESSAGES.addressTooShort });
  });
});
