/**
 * A crypto refund end to end, on each dialect, against the Cryptomus fake over HTTP: the owner's
 * refund of a Cryptomus payment waits for the customer's wallet address (only the whole payment,
 * never a part), the customer is e-mailed a single-use link, the link's page shows what is
 * refunded, the address sent through `POST /refunds/address` reaches Cryptomus's refund call, the
 * order counts the refund once, and the spent link is refused in the customer's words.
 *
 * The app under test is the keyless one; the refund side is the same code with the Cryptomus
 * adapter as the provider, its API plugin registered beside the app's own, since which providers
 * an installation runs is read from its settings elsewhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refundOrderByOwner } from '../../core/admin/order-refunds.ts';
import { MAIL_JOB } from '../../core/mail/send-mail-job.ts';
import { orderMailsSubscriber, refundAddressMailKey } from '../../core/notifications/order-mails.ts';
import { ORDER_EVENT_JOB, handleOrderEvents } from '../../core/orders/events.ts';
import { REFUND_ADDRESS_MESSAGES } from '../../core/orders/refund-contracts.ts';
import { type RefundLinks, createRefundLinks } from '../../core/orders/refund-links.ts';
import { REFUND_MESSAGES, RefundRefused } from '../../core/orders/refunds.ts';
import { markPaid } from '../../core/orders/transitions/index.ts';
import { createCryptomusProvider } from '../../core/payments/cryptomus.ts';
import { createPaymentGateways } from '../../core/payments/methods.ts';
import { refundsApi } from '../../server/api/refunds.ts';
import { type FakeCryptomus, startFakeCryptomus } from '../fakes/cryptomus.ts';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const merchant = { merchantId: '8b03432e-385b-4670-8d06-064591096795', paymentKey: 'cryptomus-payment-key-for-tests' };
const followers = catalogueSeed.groups[0].services[0];
const tier = followers.plans[0].tiers[0];
const WALLET = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';

let sequence = 700_000;

describe.each(dialects)('crypto refunds to an address on %s', (dialect) => {
  let t: TestApp;
  let cryptomus: FakeCryptomus;
  let links: RefundLinks | undefined;

  beforeAll(async () => {
    cryptomus = await startFakeCryptomus(merchant);
    t = await startTestApp(dialect, {
      env: { PUBLIC_URL: 'https://shop.example' },
      // The refund API over the Cryptomus deps, bound once the store's database exists.
      routes: async (app) => {
        await app.register(refundsApi, {
          prefix: '/crypto',
          links: {
            view: (token) => links!.view(token),
            giveAddress: (token, address) => links!.giveAddress(token, address),
          },
        });
      },
    });
    links = createRefundLinks(deps());
  });
  afterAll(async () => {
    await t?.close();
    await cryptomus?.close();
  });

  function deps() {
    const provider = createCryptomusProvider({ ...merchant, apiUrl: cryptomus.url });
    return { db: t.database.db, gateways: createPaymentGateways([provider]), now: () => new Date() };
  }

  /**
   * An order paid through a Cryptomus invoice: the buyer first opened a card attempt, then paid a
   * Cryptomus attempt (its invoice paid at the fake), and the paid transition recorded it.
   */
  async function cryptoPaidOrder() {
    const n = (sequence += 1);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/order',
      remoteAddress: `10.97.${Math.floor(n / 250) % 250}.${n % 250}`,
      payload: {
        type: 'Standard',
        slug: followers.slug,
        qty: tier.qty,
        name: `crypto.buyer${n}`,
        email: `crypto${n}@example.com`,
        order_id: String(n),
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const reference = created.json<{ data: { razorpay_order_id: string } }>().data.razorpay_order_id;
    const order = await t.database.db
      .selectFrom('orders')
      .selectAll()
      .where('provider_order_id', '=', reference)
      .executeTakeFirstOrThrow();
    const attemptRef = `${reference}-c1`;
    const provider = createCryptomusProvider({ ...merchant, apiUrl: cryptomus.url });
    await provider.start({
      attemptRef,
      method: 'crypto',
      amountCents: order.amount_e4 / 100,
      currency: 'USD',
      email: order.email,
      description: order.service_name,
      returnUrl: 'https://shop.example/order-confirm/x',
      expiresAt: new Date(Date.now() + 24 * 3_600_000),
      webhookUrl: 'https://shop.example/api/payments/cryptomus/webhook',
    });
    await t.database.db
      .insertInto('payment_attempts')
      .values({
        order_id: order.id,
        provider: 'cryptomus',
        method: 'crypto',
        reference: attemptRef,
        amount_e4: order.amount_e4,
        adjustment_e4: 0,
        checkout_json: '{}',
        created_at: new Date().toISOString(),
      })
      .execute();
    const { invoice } = await cryptomus.pay(attemptRef, { status: 'paid', sendWebhook: false });
    const paid = await t.database.db.transaction().execute((trx) =>
      markPaid(
        trx,
        {
          provider: 'cryptomus',
          reference: attemptRef,
          paymentId: invoice.uuid,
          amountCents: order.amount_e4 / 100,
          currency: 'USD',
          source: 'webhook',
        },
        {},
      ),
    );
    expect(paid.outcome).toBe('paid');
    return { publicId: reference.replace(/^order_/, ''), order, attemptRef };
  }

  it('waits for the wallet address, e-mails a single-use link, and refunds the whole payment to it once', async () => {
    const { publicId, order, attemptRef } = await cryptoPaidOrder();
    const cents = order.amount_e4 / 100;

    // Crypto is refunded whole: a part is refused with the owner's message.
    await expect(
      refundOrderByOwner(
        deps(),
        publicId,
        { amountCents: cents - 1, reason: 'Part', idempotencyKey: 'a'.repeat(32) },
        'o@x.example',
      ),
    ).rejects.toMatchObject({ statusCode: 409, message: REFUND_MESSAGES.wholeOnly });

    const asked = await refundOrderByOwner(
      deps(),
      publicId,
      { amountCents: cents, reason: 'Not what I wanted', idempotencyKey: 'b'.repeat(32) },
      'owner@shop.example',
    );
    expect(asked.result.state).toBe('awaiting_address');
    expect(asked.message).toMatch(/e-mailed a link to give a wallet address.*through Cryptomus/);
    expect(cryptomus.refunds).toHaveLength(0);

    // The event carries the link's token; the subscriber e-mails it, once.
    const event = await t.database.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', ORDER_EVENT_JOB.kind)
      .where('dedupe_key', '=', `event:order.refund_address_needed:${asked.result.refundId}`)
      .executeTakeFirstOrThrow();
    const { token } = JSON.parse(event.payload_json) as { token: string };
    const handler = handleOrderEvents(t.database.db, [orderMailsSubscriber({ publicUrl: 'https://shop.example' })]);
    await handler.run(JSON.parse(event.payload_json), event);
    await handler.run(JSON.parse(event.payload_json), event);
    const mails = await t.database.db
      .selectFrom('jobs')
      .select('payload_json')
      .where('kind', '=', MAIL_JOB)
      .where('dedupe_key', '=', refundAddressMailKey(asked.result.refundId))
      .execute();
    expect(mails).toHaveLength(1);
    const mail = JSON.parse(mails[0].payload_json) as { to: string; subject: string; html: string };
    expect(mail.to).toBe(order.email);
    expect(mail.subject).toContain('tell us where to send your refund');
    expect(mail.html).toContain(`href="https://shop.example/refund/${token}"`);
    // The database keeps only the token's hash.
    expect(JSON.stringify(await t.database.db.selectFrom('refunds').selectAll().execute())).not.toContain(token);

    expect(await links!.view(token)).toEqual({
      state: 'open',
      orderNumber: publicId,
      serviceName: order.service_name,
      amountText: `$${(cents / 100).toFixed(2)}`,
    });

    const bad = await t.app.inject({
      method: 'POST',
      url: '/crypto/refunds/address',
      payload: { token, address: 'x y' },
    });
    expect(bad.statusCode).toBe(400);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/crypto/refunds/address',
      payload: { token, address: `  ${WALLET} ` },
      remoteAddress: '10.98.0.1',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ message: REFUND_ADDRESS_MESSAGES.sent, data: { sent: true } });
    expect(cryptomus.refunds).toEqual([expect.objectContaining({ order_id: attemptRef, address: WALLET })]);
    const refunded = await t.database.db
      .selectFrom('orders')
      .select('refunded_e4')
      .where('id', '=', order.id)
      .executeTakeFirstOrThrow();
    expect(refunded.refunded_e4).toBe(order.amount_e4);

    // The link is spent: the page and the API say so, and nothing more is refunded.
    expect(await links!.view(token)).toEqual({ state: 'invalid' });
    const again = await t.app.inject({
      method: 'POST',
      url: '/crypto/refunds/address',
      payload: { token, address: WALLET },
      remoteAddress: '10.98.0.2',
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(REFUND_MESSAGES.linkInvalid);
    expect(cryptomus.refunds).toHaveLength(1);
    await expect(links!.giveAddress(token, WALLET)).rejects.toBeInstanceOf(RefundRefused);
  });
});
