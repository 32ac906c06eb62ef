/**
 * The Solidgate adapter against the fake over HTTP: the hosted page it opens, the webhooks the
 * fake delivers (read as our outcomes, and refused when tampered with), the status lookups of the
 * reconciler, refunds, and the failures a store must survive.
 */
import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentProviderError, type PaymentProvider, type StartPaymentInput } from '../../core/payments/provider.ts';
import { createSolidgateProvider } from '../../core/payments/solidgate.ts';
import { solidgateSignature } from '../../core/payments/solidgate-signature.ts';
import { type FakeSolidgate, startFakeSolidgate } from '../fakes/solidgate.ts';

const keys = {
  publicKey: 'api_pk_boostly_test',
  secretKey: 'api_sk_boostly_secret',
  webhookPublicKey: 'wh_pk_boostly_test',
  webhookSecretKey: 'wh_sk_boostly_secret',
};

interface Received {
  body: Buffer;
  headers: IncomingHttpHeaders;
}

let fake: FakeSolidgate;
let provider: PaymentProvider;
const received: Received[] = [];
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    received.push({ body: Buffer.concat(chunks), headers: req.headers });
    res.writeHead(200).end('ok');
  });
});

let counter = 0;
function input(overrides: Partial<StartPaymentInput> = {}): StartPaymentInput {
  counter += 1;
  return {
    attemptRef: `BST-${Date.now()}-${counter}`,
    method: 'card-3ds',
    amountCents: 1234,
    currency: 'USD',
    email: 'buyer@example.com',
    description: '1,000 Instagram followers <fast>',
    returnUrl: `https://store.example/order/BST-${counter}`,
    expiresAt: new Date(Date.now() + 24 * 3_600_000),
    webhookUrl: 'https://store.example/api/payments/solidgate/webhook',
    ...overrides,
  };
}

/** The last webhook the fake delivered, read by the adapter exactly as it arrived. */
function readLast() {
  const last = received.at(-1);
  if (!last) throw new Error('no webhook received');
  return provider.readWebhook(last.body, last.headers);
}

function signedWebhook(body: string, publicKey = keys.webhookPublicKey, secretKey = keys.webhookSecretKey) {
  return { merchant: publicKey, signature: solidgateSignature(publicKey, secretKey, body) };
}

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  fake = await startFakeSolidgate({ ...keys, webhookUrl: `http://127.0.0.1:${port}/webhook` });
  provider = createSolidgateProvider({ ...keys, apiUrl: fake.url, paymentPageUrl: fake.url });
});

afterAll(async () => {
  await fake.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('Solidgate adapter', () => {
  it('describes itself', () => {
    expect(provider).toMatchObject({
      id: 'solidgate',
      label: 'Solidgate',
      methods: ['card-3ds'],
      refunds: 'distinct-amounts',
    });
    expect(provider.acceptsWebhooks).toBe(true);
    expect(provider.isValidWindowResult('BST-1', 'pay_1', 'anything')).toBe(false);
    const withoutWebhooks = createSolidgateProvider({ ...keys, webhookSecretKey: '', apiUrl: '', paymentPageUrl: '' });
    expect(withoutWebhooks.acceptsWebhooks).toBe(false);
    const body = '{"order":{"order_id":"BST-1","status":"approved","amount":1,"currency":"USD"}}';
    expect(withoutWebhooks.readWebhook(Buffer.from(body), signedWebhook(body))).toMatchObject({ ok: false });
  });

  it('opens the hosted payment page for an attempt, the same one again while it is unpaid', async () => {
    const attempt = input();
    const started = await provider.start(attempt);
    expect(started.reference).toBe(attempt.attemptRef);
    expect(started.checkout.provider).toBe('solidgate');
    const redirectUrl = started.checkout.provider === 'solidgate' ? started.checkout.redirectUrl : '';
    expect(redirectUrl).toMatch(new RegExp(`^${fake.url}/payment-page/[0-9a-f-]{36}$`));

    const order = fake.orders.get(attempt.attemptRef);
    expect(order).toMatchObject({
      amount: 1234,
      currency: 'USD',
      order_description: attempt.description,
      customer_email: attempt.email,
      success_url: attempt.returnUrl,
      fail_url: attempt.returnUrl,
    });
    expect(fake.requests.at(-1)).toEqual({ method: 'POST', path: '/api/v1/init', authorized: true });

    const page = await fetch(redirectUrl);
    const html = await page.text();
    expect(html).toContain('12.34 USD');
    expect(html).toContain('&#60;fast&#62;');
    expect(html).toMatch(/<button[^>]*>Pay<\/button>/);
    expect(html).toMatch(/<button[^>]*>Decline<\/button>/);

    const again = await provider.start(attempt);
    expect(again.checkout).toEqual(started.checkout);
    expect(fake.orders.size).toBeGreaterThanOrEqual(1);
  });

  it('reads the webhook of a payment made on the hosted page as captured, and lookUp agrees', async () => {
    const attempt = input({ amountCents: 2599, currency: 'eur' });
    const { checkout } = await provider.start(attempt);
    const redirectUrl = checkout.provider === 'solidgate' ? checkout.redirectUrl : '';
    const before = received.length;

    const pressed = await fetch(`${redirectUrl}/pay`, { method: 'POST', redirect: 'manual' });
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toBe(attempt.returnUrl);
    expect(received.length).toBe(before + 1);

    const reading = readLast();
    const paymentId = fake.orders.get(attempt.attemptRef)?.transactions[0]?.id;
    expect(paymentId).toMatch(/^pay_/);
    expect(reading).toEqual({
      ok: true,
      eventId: received.at(-1)?.headers['solidgate-event-id'],
      outcome: { kind: 'captured', reference: attempt.attemptRef, paymentId, amountCents: 2599, currency: 'EUR' },
    });
    expect(await provider.lookUp(attempt.attemptRef)).toEqual([
      { kind: 'captured', reference: attempt.attemptRef, paymentId, amountCents: 2599, currency: 'EUR' },
    ]);
  });

  it('reads a declined payment as failed with the decline message, and lookUp agrees', async () => {
    const attempt = input();
    const { checkout } = await provider.start(attempt);
    const redirectUrl = checkout.provider === 'solidgate' ? checkout.redirectUrl : '';
    const pressed = await fetch(`${redirectUrl}/decline`, { method: 'POST', redirect: 'manual' });
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toBe(attempt.returnUrl);

    const failed = { kind: 'failed', reference: attempt.attemptRef, reason: 'Insufficient funds' };
    expect(readLast()).toMatchObject({ ok: true, outcome: failed });
    expect(await provider.lookUp(attempt.attemptRef)).toMatchObject([failed]);
  });

  it('reads settle_ok as captured, naming the payment by its transaction or else by the order', () => {
    const settled = JSON.stringify({
      order: { order_id: 'BST-S', status: 'settle_ok', amount: 500, currency: 'gbp' },
      transactions: { auth_1: { id: 'auth_1', operation: 'auth', status: 'success', amount: 500 } },
    });
    expect(provider.readWebhook(Buffer.from(settled), signedWebhook(settled))).toMatchObject({
      ok: true,
      outcome: { kind: 'captured', reference: 'BST-S', paymentId: 'auth_1', amountCents: 500, currency: 'GBP' },
    });
    const bare = JSON.stringify({ order: { order_id: 'BST-B', status: 'approved', amount: 500, currency: 'USD' } });
    expect(provider.readWebhook(Buffer.from(bare), signedWebhook(bare))).toMatchObject({
      ok: true,
      outcome: { kind: 'captured', reference: 'BST-B', paymentId: 'BST-B' },
    });
  });

  it('falls back to a plain decline reason when Solidgate gives none', () => {
    const body = JSON.stringify({
      order: { order_id: 'BST-9', status: 'auth_failed', amount: 100, currency: 'USD' },
      error: { code: '3.01', messages: ['   '] },
    });
    expect(provider.readWebhook(Buffer.from(body), signedWebhook(body))).toMatchObject({
      ok: true,
      outcome: { kind: 'failed', reference: 'BST-9', reason: 'The card payment was declined.' },
    });
  });

  it('reads pending states, and lookUp of an order never paid is pending, of an unknown one empty', async () => {
    for (const status of ['processing', 'auth_ok', 'created']) {
      const body = JSON.stringify({ order: { order_id: 'BST-P', status, amount: 100, currency: 'USD' } });
      expect(provider.readWebhook(Buffer.from(body), signedWebhook(body))).toMatchObject({
        ok: true,
        outcome: { kind: 'pending', reference: 'BST-P' },
      });
    }
    const attempt = input();
    await provider.start(attempt);
    expect(await provider.lookUp(attempt.attemptRef)).toEqual([{ kind: 'pending', reference: attempt.attemptRef }]);
    expect(await provider.lookUp('BST-never-started')).toEqual([]);
  });

  it('reads the refund webhook as refunded with the total refunded so far', async () => {
    const attempt = input({ amountCents: 1000 });
    await provider.start(attempt);
    await fake.pay(attempt.attemptRef);
    const before = received.length;
    await provider.refund({ reference: attempt.attemptRef, paymentId: 'x', amountCents: 300, idempotencyKey: 'r1' });
    await expect.poll(() => received.length).toBe(before + 1);
    expect(readLast()).toMatchObject({
      ok: true,
      outcome: { kind: 'refunded', reference: attempt.attemptRef, amountCents: 300 },
    });
    expect(await provider.lookUp(attempt.attemptRef)).toMatchObject([{ kind: 'refunded', amountCents: 300 }]);
  });

  it('reads a chargeback notification as disputed', async () => {
    const attempt = input({ amountCents: 1500 });
    await provider.start(attempt);
    await fake.pay(attempt.attemptRef);
    const sent = await fake.chargeback(attempt.attemptRef, { amountCents: 700 });
    expect(sent.status).toBe(200);
    const reading = readLast();
    expect(reading).toEqual({
      ok: true,
      eventId: sent.headers['solidgate-event-id'],
      outcome: {
        kind: 'disputed',
        reference: attempt.attemptRef,
        disputeId: expect.stringMatching(/^cb_/),
        amountCents: 700,
        currency: 'USD',
        reason: '10.4: Other Fraud - Card Absent Environment',
      },
    });
  });

  it('keys a delivery by its event id, or by a digest of the body when it has none', async () => {
    const attempt = input();
    await provider.start(attempt);
    await fake.pay(attempt.attemptRef, { sendWebhook: false });
    const { body, headers } = fake.orderWebhookBody(attempt.attemptRef);
    const first = provider.readWebhook(Buffer.from(body), headers);
    expect(first).toMatchObject({ ok: true, eventId: headers['solidgate-event-id'] });
    expect(provider.readWebhook(Buffer.from(body), headers)).toEqual(first);

    const { 'solidgate-event-id': _eventId, ...withoutId } = headers;
    const digest = provider.readWebhook(Buffer.from(body), withoutId);
    expect(digest).toMatchObject({ ok: true, eventId: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    expect(provider.readWebhook(Buffer.from(body), withoutId)).toEqual(digest);
  });

  it('refuses tampered bodies, the wrong key pair, missing headers and bad JSON', async () => {
    const attempt = input();
    await provider.start(attempt);
    await fake.pay(attempt.attemptRef, { sendWebhook: false });
    const { body, headers } = fake.orderWebhookBody(attempt.attemptRef);
    expect(provider.readWebhook(Buffer.from(body), headers)).toMatchObject({ ok: true });

    const tampered = body.replace('"amount":1234', '"amount":1');
    expect(tampered).not.toBe(body);
    expect(provider.readWebhook(Buffer.from(tampered), headers)).toMatchObject({ ok: false });
    const apiKeys = signedWebhook(body, keys.publicKey, keys.secretKey);
    expect(provider.readWebhook(Buffer.from(body), apiKeys)).toMatchObject({ ok: false });
    const wrongSecret = { ...headers, signature: solidgateSignature(keys.webhookPublicKey, 'wh_sk_other', body) };
    expect(provider.readWebhook(Buffer.from(body), wrongSecret)).toMatchObject({ ok: false });
    const { merchant: _merchant, ...noMerchant } = headers;
    expect(provider.readWebhook(Buffer.from(body), noMerchant)).toMatchObject({ ok: false });
    const { signature: _signature, ...noSignature } = headers;
    expect(provider.readWebhook(Buffer.from(body), noSignature)).toMatchObject({ ok: false });
    expect(provider.readWebhook(Buffer.from(body), {})).toMatchObject({ ok: false });

    const notJson = '{"order":';
    expect(provider.readWebhook(Buffer.from(notJson), signedWebhook(notJson))).toMatchObject({ ok: false });
    for (const odd of ['{"order":{"order_id":1}}', '{"chargeback":{"id":"cb_1"},"order":{"order_id":"BST-1"}}']) {
      expect(provider.readWebhook(Buffer.from(odd), signedWebhook(odd))).toMatchObject({ ok: false });
    }
  });

  it('reads signed notifications about nothing of ours as not_ours', () => {
    const bodies = [
      '{"subscription":{"id":"sub_1","status":"active"}}',
      '[]',
      JSON.stringify({ order: { order_id: 'BST-V', status: 'void_ok', amount: 100, currency: 'USD' } }),
    ];
    for (const body of bodies) {
      expect(provider.readWebhook(Buffer.from(body), signedWebhook(body))).toMatchObject({
        ok: true,
        outcome: { kind: 'not_ours' },
      });
    }
  });

  it('refunds part, then the rest; a retry with the same key refunds once; more than paid is refused', async () => {
    const attempt = input({ amountCents: 1000 });
    await provider.start(attempt);
    await fake.pay(attempt.attemptRef);
    const reference = attempt.attemptRef;
    const refundsOf = () => fake.refunds.filter((r) => r.order_id === reference).map((r) => r.amount);

    const first = await provider.refund({ reference, paymentId: 'p', amountCents: 300, idempotencyKey: 'refund-a' });
    const retried = await provider.refund({ reference, paymentId: 'p', amountCents: 300, idempotencyKey: 'refund-a' });
    expect(retried).toEqual(first);
    expect(refundsOf()).toEqual([300]);

    const rest = await provider.refund({ reference, paymentId: 'p', amountCents: 700, idempotencyKey: 'refund-b' });
    expect(rest.refundId).not.toBe(first.refundId);
    expect(refundsOf()).toEqual([300, 700]);

    const more = provider.refund({ reference, paymentId: 'p', amountCents: 1, idempotencyKey: 'refund-c' });
    await expect(more).rejects.toThrow(PaymentProviderError);
    await expect(more).rejects.toThrow(/Solidgate refused the refund: Refund amount exceeds/);
    expect(refundsOf()).toEqual([300, 700]);

    const unpaid = input();
    await provider.start(unpaid);
    await expect(
      provider.refund({ reference: unpaid.attemptRef, paymentId: 'p', amountCents: 1, idempotencyKey: 'k' }),
    ).rejects.toThrow(PaymentProviderError);
  });

  it('turns an outage, an unreachable host and a wrong secret key into PaymentProviderError', async () => {
    fake.setMode('down');
    try {
      await expect(provider.start(input())).rejects.toMatchObject({ status: 503 });
      await expect(provider.lookUp('BST-any')).rejects.toThrow(PaymentProviderError);
      await expect(
        provider.refund({ reference: 'BST-any', paymentId: 'p', amountCents: 1, idempotencyKey: 'k' }),
      ).rejects.toThrow(PaymentProviderError);
    } finally {
      fake.setMode('normal');
    }

    const unreachable = createSolidgateProvider({
      ...keys,
      apiUrl: fake.url,
      paymentPageUrl: fake.url,
      fetch: () => Promise.reject(new TypeError('fetch failed')),
    });
    await expect(unreachable.lookUp('BST-any')).rejects.toThrow(/Solidgate is unreachable/);

    const wrongSecret = createSolidgateProvider({
      ...keys,
      secretKey: 'api_sk_not_the_right_one',
      apiUrl: fake.url,
      paymentPageUrl: fake.url,
    });
    const refused = wrongSecret.start(input());
    await expect(refused).rejects.toThrow(PaymentProviderError);
    await expect(refused).rejects.toMatchObject({
      status: 401,
      message: expect.stringMatching(/Authentication failed/),
    });
    await expect(refused).rejects.not.toThrow(/api_sk_/);
    expect(fake.requests.at(-1)).toMatchObject({ path: '/api/v1/init', authorized: false });
  });
});
