/**
 * What an order charged and gave back, as the customer reads it (decision 033), through
 * the real app and its server-rendered pages on each dialect: the spec's +1 on small prices is a
 * named "Processing fee" line taken from the order's stored amounts (order page, payment reply,
 * confirmation page, receipt e-mail, order history), and a refund shows its amount, date and
 * state (confirmation page, order history API, the status e-mail's wording).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderMailsSubscriber } from '../../core/notifications/order-mails.ts';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { type SmtpSink, startSmtpSink } from '../fakes/smtp.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { decodeEntities } from '../support/html.ts';

/** A tier priced at 1 or less (it carries the fee) and one above 1 (it does not). */
const tiers = catalogueSeed.groups.flatMap((g) =>
  g.services.flatMap((s) => s.plans.flatMap((p) => p.tiers.map((t) => ({ service: s, plan: p, tier: t })))),
);
/** Instagram targets are checked by their shape only (no upstream call in tests). */
const usable = (entry: (typeof tiers)[number]) =>
  !entry.service.commentRequired && entry.service.targetKind.startsWith('instagram');
const cheap = tiers.find((entry) => usable(entry) && Number(entry.tier.price) <= 1)!;
const dear = tiers.find((entry) => usable(entry) && Number(entry.tier.price) > 1)!;
const targetFor = (entry: typeof cheap) =>
  entry.service.targetKind === 'instagram_post_url' ? 'https://www.instagram.com/p/Cabc123/' : 'charges.buyer';

let sequence = 700_000;
const nextClientId = () => String((sequence += 1));
let mailboxes = 0;
const freshEmail = (label: string) => `${label}.${Date.now().toString(36)}.${(mailboxes += 1)}@example.com`;

describe.each(dialects)('checkout charges and refunds on %s', (dialect) => {
  let t: TestApp;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp(dialect, {
      withPages: true,
      env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://shop.example' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  let clients = 0;
  const nextAddress = () => `10.7.${Math.floor(++clients / 250)}.${clients % 250}`;
  const call = (method: 'POST' | 'PATCH', url: string, payload: unknown) =>
    t.app.inject({ method, url, payload: payload as object, remoteAddress: nextAddress() });
  const page = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url, remoteAddress: nextAddress() });
    expect(response.statusCode, url).toBe(200);
    return decodeEntities(response.body);
  };
  const orderRow = (providerOrderId: string) =>
    t.database.db
      .selectFrom('orders')
      .selectAll()
      .where('provider_order_id', '=', providerOrderId)
      .executeTakeFirstOrThrow();
  /** The rendered e-mail a job queued (the mail job's payload is the message as sent). */
  const mailJob = async (where: (payload: { to: string; subject: string; text: string; html: string }) => boolean) => {
    const jobs = await t.database.db
      .selectFrom('jobs')
      .select(['payload_json'])
      .where('kind', '=', 'mail.send')
      .orderBy('id', 'desc')
      .execute();
    const found = jobs
      .map((job) => JSON.parse(job.payload_json) as { to: string; subject: string; text: string; html: string })
      .find(where);
    expect(found, 'the e-mail was queued').toBeDefined();
    return found!;
  };
  const drainJobs = async () => {
    while ((await t.store.worker.runOnce()) > 0) {
      // until nothing is due
    }
  };

  /** Creates and pays an order through the sandbox window's API, as the browser does. */
  async function paidOrder(entry: typeof cheap, email: string) {
    const created = await call('POST', '/api/order', {
      type: entry.plan.type,
      slug: entry.service.slug,
      qty: entry.tier.qty,
      name: targetFor(entry),
      email,
      order_id: nextClientId(),
    });
    expect(created.statusCode, created.body).toBe(200);
    const data = created.json().data;
    const paid = (await call('POST', '/api/sandbox/pay', { razorpay_order_id: data.razorpay_order_id })).json().data;
    expect((await call('POST', '/api/order/verify-payment', paid)).statusCode).toBe(200);
    await drainJobs();
    return { created: data, publicId: String(data.razorpay_order_id).replace(/^order_/, '') };
  }

  /** The order history rows, behind the e-mailed code (read from the queued mail). */
  async function history(email: string) {
    expect((await call('POST', '/api/order/order-history/code', { email })).statusCode).toBe(200);
    const mail = await mailJob((payload) => payload.to === email && payload.subject.includes('code'));
    const code = /^\s*(\d{6})\s*$/m.exec(mail.text)?.[1];
    const response = await call('PATCH', '/api/order/order-history', { email, code });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as Record<string, unknown>[];
  }

  it('names the processing fee on the order page, in the payment reply, on the confirmation page, in the receipt and the history', async () => {
    const price = Number(cheap.tier.price);
    const priceText = `$${price.toFixed(2)}`;
    const totalText = `$${(price + 1).toFixed(2)}`;

    const orderPage = await page(`/order/${cheap.service.slug}GOI${cheap.tier.qty}?type=${cheap.plan.type}`);
    expect(orderPage).toMatch(/data-testid="order-package-price"[^>]*>\$\d+\.\d{2}</);
    expect(orderPage).toMatch(/Processing fee<\/dt><dd data-testid="order-fee"[^>]*>\$1\.00</);
    expect(orderPage).toMatch(new RegExp(`data-testid="order-total"[^>]*>\\${totalText}<`));
    // One package chooser: the quantity dropdown, no second grid of the same packages.
    expect(orderPage).not.toContain('data-testid="package-option"');
    expect(orderPage).toContain('data-testid="quantity-dropdown"');
    expect(orderPage).toContain('data-testid="secure-checkout"');

    const email = freshEmail('fee');
    const { created, publicId } = await paidOrder(cheap, email);
    // The payment window's reply carries the package price beside the total, in cents.
    expect(created.amountCents).toBe(Math.round((price + 1) * 100));
    expect(created.packagePriceCents).toBe(Math.round(price * 100));

    const stored = await orderRow(created.razorpay_order_id);
    expect(stored.amount_e4 - stored.price_e4).toBe(10_000);

    const status = (await t.app.inject({ method: 'GET', url: `/api/order/order-status?orderId=${publicId}` })).json()
      .data;
    expect(status).toMatchObject({ price, amount: price + 1, refunded: 0, refundedAt: null });

    const confirmation = await page(`/order-confirm/${publicId}`);
    expect(confirmation).toMatch(new RegExp(`data-testid="order-package-price"[^>]*>\\${priceText}<`));
    expect(confirmation).toMatch(/data-testid="order-fee"[^>]*>\$1\.00</);
    expect(confirmation).toMatch(new RegExp(`data-testid="order-amount"[^>]*>\\${totalText}<`));
    expect(confirmation).toMatch(/data-testid="order-payment"[^>]*>Paid</);

    const receipt = await mailJob((payload) => payload.to === email && payload.subject.includes('confirmed'));
    expect(receipt.text).toMatch(new RegExp(`Package price:?\\s+\\${priceText}`));
    expect(receipt.text).toMatch(/Processing fee:?\s+\$1\.00/);
    expect(receipt.text).toMatch(new RegExp(`Amount paid:?\\s+\\${totalText}`));
    expect(receipt.html).toContain('Processing fee');

    const [row] = await history(email);
    expect(row).toMatchObject({ price: price + 1, packagePrice: price, refunded: 0, refundedAt: null });
  });

  it('shows no fee line where the price is above 1', async () => {
    const orderPage = await page(`/order/${dear.service.slug}GOI${dear.tier.qty}?type=${dear.plan.type}`);
    expect(orderPage).not.toContain('data-testid="order-fee"');
    const email = freshEmail('nofee');
    const { publicId } = await paidOrder(dear, email);
    const confirmation = await page(`/order-confirm/${publicId}`);
    expect(confirmation).not.toContain('Processing fee');
    const receipt = await mailJob((payload) => payload.to === email && payload.subject.includes('confirmed'));
    expect(receipt.text).not.toContain('Processing fee');
  });

  it('shows a refund with its amount, date and state on the confirmation page, in the history and the e-mails', async () => {
    const email = freshEmail('refund');
    const { created, publicId } = await paidOrder(dear, email);
    const order = await orderRow(created.razorpay_order_id);
    const total = order.amount_e4 / 10_000;
    const totalText = `$${total.toFixed(2)}`;

    // What the refund job leaves behind (core/fulfilment refund): the refunds row and refunded_e4.
    await t.database.db
      .updateTable('orders')
      .set({ order_status: 'Canceled', refunded_e4: order.amount_e4, updated_at: '2026-11-23T10:00:00.000Z' })
      .where('id', '=', order.id)
      .execute();
    await t.database.db
      .insertInto('refunds')
      .values({
        order_id: order.id,
        idempotency_key: `remains:${order.id}`,
        origin: 'remains',
        status: 'done',
        provider: order.provider,
        provider_refund_id: 'rfnd_test',
        amount_e4: order.amount_e4,
        reason: 'Canceled',
        created_at: '2026-11-23T10:00:00.000Z',
      })
      .execute();

    const status = (await t.app.inject({ method: 'GET', url: `/api/order/order-status?orderId=${publicId}` })).json()
      .data;
    expect(status).toMatchObject({ refunded: total, refundedAt: '2026-11-23T10:00:00.000Z', paymentStatus: 'paid' });
    const confirmation = await page(`/order-confirm/${publicId}`);
    expect(confirmation).toMatch(/data-testid="order-payment"[^>]*>Refunded</);
    expect(confirmation).toContain(`Refunded ${totalText} on 23 Nov 2026`);

    const [row] = await history(email);
    expect(row).toMatchObject({ refunded: total, refundedAt: '2026-11-23T10:00:00.000Z', orderStatus: 'Canceled' });

    // The status e-mails say what was delivered and what comes back, in matching words.
    const mails = orderMailsSubscriber({ publicUrl: 'https://shop.example' });
    const quantity = order.quantity;
    const delivered = Math.floor(quantity / 4);
    await t.database.db.transaction().execute(async (trx) => {
      await mails.onStatusChanged?.(trx, {
        type: 'order.status_changed',
        orderId: order.id,
        from: 'In Progress',
        to: 'Canceled',
        remains: quantity,
        timelineId: 1,
      });
      await mails.onStatusChanged?.(trx, {
        type: 'order.status_changed',
        orderId: order.id,
        from: 'In Progress',
        to: 'Partial',
        remains: quantity - delivered,
        timelineId: 2,
      });
    });
    const canceled = await mailJob((payload) => payload.to === email && payload.subject.includes('was canceled'));
    expect(canceled.text).toContain(`We are refunding your payment in full (${totalText})`);
    expect(canceled.text).toMatch(new RegExp(`Delivered:?\\s+0 of ${quantity.toLocaleString('en-US')}`));
    expect(canceled.text).not.toContain('Not delivered');

    const partial = await mailJob((payload) => payload.to === email && payload.subject.includes('partly delivered'));
    expect(partial.text).toContain(
      `We could deliver ${delivered.toLocaleString('en-US')} of ${quantity.toLocaleString('en-US')}`,
    );
    expect(partial.text).toMatch(/We are refunding \$\d+\.\d{2} for the [\d,]+ we could not deliver/);
    expect(partial.text).not.toContain('in full');
  });
});
