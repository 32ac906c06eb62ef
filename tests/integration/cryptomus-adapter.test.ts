import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cryptomusSign, phpJsonEncode } from '../../core/payments/cryptomus-signature.ts';
import { createCryptomusProvider } from '../../core/payments/cryptomus.ts';
import {
  type PaymentProvider,
  PaymentProviderError,
  type StartPaymentInput,
  type WebhookReading,
} from '../../core/payments/provider.ts';
import { type FakeCryptomus, type FakeCryptomusStatus, startFakeCryptomus } from '../fakes/cryptomus.ts';
import { waitFor } from '../support/wait-for.ts';

const MERCHANT = '8b03432e-385b-4670-8d06-064591096795';
const KEY = 'test-cryptomus-payment-key';
const ADDRESS = 'TDD97yguPESTpcrJMqU6h2ozZbibv4Vaqm';

/** The store's webhook route, reduced to what it receives. */
async function startWebhookReceiver() {
  const bodies: Buffer[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/payments/cryptomus/webhook`,
    bodies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function failure(promise: Promise<unknown>): Promise<PaymentProviderError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaymentProviderError);
  return error as PaymentProviderError;
}

function outcomeOf(reading: WebhookReading) {
  if (!reading.ok) throw new Error(`webhook refused: ${reading.reason}`);
  return reading.outcome;
}

describe('Cryptomus adapter against the fake', () => {
  let fake: FakeCryptomus;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let provider: PaymentProvider;

  const input = (attemptRef = 'BST-1001', amountCents = 1600): StartPaymentInput => ({
    attemptRef,
    method: 'crypto',
    amountCents,
    currency: 'USD',
    email: 'buyer@example.com',
    description: '1000 Instagram followers',
    returnUrl: `http://127.0.0.1:3000/order/${attemptRef}`,
    expiresAt: new Date(Date.now() + 24 * 3_600_000),
    webhookUrl: receiver.url,
  });
  const uuidOf = (orderId: string) => fake.invoices.get(orderId)?.uuid ?? '';
  const read = (body: string | Buffer) => provider.readWebhook(Buffer.from(body), {});

  beforeEach(async () => {
    fake = await startFakeCryptomus({ merchantId: MERCHANT, paymentKey: KEY });
    receiver = await startWebhookReceiver();
    provider = createCryptomusProvider({ merchantId: MERCHANT, paymentKey: KEY, apiUrl: fake.url, timeoutMs: 2000 });
  });
  afterEach(async () => {
    await fake.close();
    await receiver.close();
  });

  it('describes itself: crypto only, whole refunds to an address, signed webhooks, no window result', () => {
    expect(provider).toMatchObject({
      id: 'cryptomus',
      label: 'Cryptomus',
      methods: ['crypto'],
      refunds: 'whole-to-address',
      acceptsWebhooks: true,
    });
    expect(provider.isValidWindowResult('BST-1001', 'pay_1', 'a'.repeat(64))).toBe(false);
  });

  describe('start', () => {
    it('opens a signed invoice and sends the buyer to its hosted page', async () => {
      const started = await provider.start(input());
      expect(started).toEqual({
        reference: 'BST-1001',
        checkout: { provider: 'cryptomus', redirectUrl: fake.pageUrl('BST-1001') },
      });
      expect(fake.requests).toEqual([
        {
          method: 'POST',
          path: '/v1/payment',
          signatureOk: true,
          body: {
            amount: '16.00',
            currency: 'USD',
            order_id: 'BST-1001',
            url_callback: receiver.url,
            url_return: 'http://127.0.0.1:3000/order/BST-1001',
            url_success: 'http://127.0.0.1:3000/order/BST-1001',
            lifetime: 43_200,
            is_payment_multiple: false,
          },
        },
      ]);
    });

    it('repeating the same attemptRef gives the same invoice, as Cryptomus does', async () => {
      const first = await provider.start(input());
      const second = await provider.start(input());
      expect(second).toEqual(first);
      expect(fake.invoices.size).toBe(1);
    });

    it('writes amounts as strings with two decimals from whole cents', async () => {
      await provider.start(input('BST-5', 5));
      await provider.start(input('BST-123456', 123_456));
      expect(fake.invoices.get('BST-5')?.amount).toBe('0.05');
      expect(fake.invoices.get('BST-123456')?.amount).toBe('1234.56');
    });

    it('refuses an amount that is not a positive number of cents without calling Cryptomus', async () => {
      for (const amountCents of [0, -100, 16.5]) await failure(provider.start(input('BST-1', amountCents)));
      expect(fake.requests).toEqual([]);
    });

    it("turns Cryptomus's refusal of a field into a PaymentProviderError", async () => {
      const error = await failure(provider.start(input('BST 1001 with spaces')));
      expect(error.status).toBe(422);
      expect(error.message).toContain('order_id');
    });
  });

  describe('the hosted page', () => {
    it('shows the amount, takes the payment, sends the signed webhook, then returns the buyer', async () => {
      const { checkout } = await provider.start(input());
      if (checkout.provider !== 'cryptomus') throw new Error('expected a hosted page');
      const page = await fetch(checkout.redirectUrl);
      const html = await page.text();
      expect(html).toContain('16.00 USD');
      expect(html).toContain('>Pay</button>');
      expect(html).toContain('>Pay too little</button>');

      const pressed = await fetch(`${checkout.redirectUrl}/pay`, { method: 'POST', redirect: 'manual' });
      expect(pressed.status).toBe(303);
      expect(pressed.headers.get('location')).toBe('http://127.0.0.1:3000/order/BST-1001');
      expect(receiver.bodies).toHaveLength(1);
      const uuid = uuidOf('BST-1001');
      expect(read(receiver.bodies[0])).toEqual({
        ok: true,
        eventId: `${uuid}:paid`,
        outcome: { kind: 'captured', reference: 'BST-1001', paymentId: uuid, amountCents: 1600, currency: 'USD' },
      });
      expect(await (await fetch(checkout.redirectUrl)).text()).not.toContain('<button');
    });

    it('"Pay too little" ends the invoice as underpaid, with what arrived', async () => {
      const { checkout } = await provider.start(input());
      if (checkout.provider !== 'cryptomus') throw new Error('expected a hosted page');
      await fetch(`${checkout.redirectUrl}/pay-too-little`, { method: 'POST', redirect: 'manual' });
      const uuid = uuidOf('BST-1001');
      expect(outcomeOf(read(receiver.bodies[0]))).toEqual({
        kind: 'underpaid',
        reference: 'BST-1001',
        paymentId: uuid,
        amountCents: 1440,
        currency: 'USD',
      });
    });
  });

  describe('webhooks', () => {
    beforeEach(async () => {
      await provider.start(input());
    });

    it.each<[FakeCryptomusStatus, string]>([
      ['paid', 'captured'],
      ['paid_over', 'captured'],
      ['wrong_amount', 'underpaid'],
      ['cancel', 'failed'],
      ['fail', 'failed'],
      ['system_fail', 'failed'],
      ['refund_paid', 'refunded'],
      ['check', 'pending'],
      ['confirm_check', 'pending'],
      ['refund_process', 'pending'],
      ['refund_fail', 'pending'],
    ])('%s reads as %s', (status, kind) => {
      const reading = read(fake.webhookBody('BST-1001', status));
      expect(reading).toMatchObject({ ok: true, outcome: { kind } });
    });

    it('carries the amounts and reasons the store acts on', () => {
      const uuid = uuidOf('BST-1001');
      const base = { reference: 'BST-1001', paymentId: uuid };
      // paid_over still captures the order's price: the extra is not what the order costs.
      expect(outcomeOf(read(fake.webhookBody('BST-1001', 'paid_over')))).toEqual({
        kind: 'captured',
        ...base,
        amountCents: 1600,
        currency: 'USD',
      });
      expect(outcomeOf(read(fake.webhookBody('BST-1001', 'wrong_amount')))).toEqual({
        kind: 'underpaid',
        ...base,
        amountCents: 1440,
        currency: 'USD',
      });
      expect(outcomeOf(read(fake.webhookBody('BST-1001', 'cancel')))).toEqual({
        kind: 'failed',
        ...base,
        reason: 'The crypto invoice expired unpaid.',
      });
      expect(outcomeOf(read(fake.webhookBody('BST-1001', 'refund_paid')))).toEqual({
        kind: 'refunded',
        reference: 'BST-1001',
        refundId: `cryptomus-refund-${uuid}`,
        amountCents: 1600,
      });
    });

    it('an underpayment is counted in USD when Cryptomus gives it, else in the invoice currency', () => {
      const inUsd = fake.webhookBody('BST-1001', 'wrong_amount', {
        fields: { payment_amount: '0.00021000', payment_amount_usd: '14.4' },
      });
      expect(outcomeOf(read(inUsd))).toMatchObject({ kind: 'underpaid', amountCents: 1440, currency: 'USD' });
      const withoutUsd = fake.webhookBody('BST-1001', 'wrong_amount', {
        fields: { payment_amount: '12.34', payment_amount_usd: null, currency: 'EUR' },
      });
      expect(outcomeOf(read(withoutUsd))).toMatchObject({ kind: 'underpaid', amountCents: 1234, currency: 'EUR' });
    });

    it('a paid invoice that is not final yet is pending, under another event id than the final one', () => {
      const uuid = uuidOf('BST-1001');
      const early = read(fake.webhookBody('BST-1001', 'paid', { fields: { is_final: false } }));
      const final = read(fake.webhookBody('BST-1001', 'paid'));
      expect(early).toEqual({
        ok: true,
        eventId: `${uuid}:paid:not-final`,
        outcome: { kind: 'pending', reference: 'BST-1001' },
      });
      expect(final).toMatchObject({ ok: true, eventId: `${uuid}:paid`, outcome: { kind: 'captured' } });
    });

    it('a repeated delivery has the same event id', () => {
      expect(read(fake.webhookBody('BST-1001', 'paid'))).toEqual(read(fake.webhookBody('BST-1001', 'paid')));
    });

    it('a notification that is not about a payment is not ours', () => {
      const reading = read(fake.webhookBody('BST-1001', 'paid', { fields: { type: 'wallet' } }));
      expect(reading).toMatchObject({ ok: true, outcome: { kind: 'not_ours' } });
    });

    it('verifies bodies with non-ASCII text signed either way', () => {
      for (const escapeUnicode of [false, true]) {
        const body = fake.webhookBody('BST-1001', 'paid', {
          fields: { additional_data: 'Café 🚀 https://x/y' },
          escapeUnicode,
        });
        expect(read(body)).toMatchObject({ ok: true, outcome: { kind: 'captured' } });
      }
    });

    it('refuses a tampered body, a wrong key, a missing sign and bad JSON', () => {
      const body = fake.webhookBody('BST-1001', 'wrong_amount');
      const tampered = body.replace('"status":"wrong_amount"', '"status":"paid"');
      expect(tampered).not.toBe(body);
      expect(read(tampered)).toMatchObject({ ok: false });

      const otherKey = createCryptomusProvider({ merchantId: MERCHANT, paymentKey: 'another-key', apiUrl: fake.url });
      expect(otherKey.readWebhook(Buffer.from(body), {})).toMatchObject({ ok: false });

      const { sign: _sign, ...unsigned } = JSON.parse(body) as Record<string, unknown>;
      expect(read(JSON.stringify(unsigned))).toMatchObject({ ok: false });

      for (const bad of ['{', '', 'null', '[]', '"paid"', '{"sign":']) expect(read(bad)).toMatchObject({ ok: false });
    });

    it('refuses a correctly signed body of an unexpected shape instead of throwing', () => {
      for (const fields of [
        { amount: 16 },
        { amount: 'sixteen' },
        { amount: '-16.00' },
        { status: 'teleported' },
        { is_final: 'yes' },
        { uuid: null },
        { order_id: '' },
      ]) {
        expect(read(fake.webhookBody('BST-1001', 'paid', { fields }))).toMatchObject({ ok: false });
      }
      const noUsdNoAmount = fake.webhookBody('BST-1001', 'wrong_amount', {
        fields: { payment_amount: null, payment_amount_usd: null },
      });
      expect(read(noUsdNoAmount)).toMatchObject({ ok: false });
    });

    it('a body signed like a request (over its raw bytes) is not a webhook signature', () => {
      const payload = {
        type: 'payment',
        uuid: uuidOf('BST-1001'),
        order_id: 'BST-1001',
        status: 'paid',
        url: 'https://x/y',
      };
      const raw = JSON.stringify(payload);
      const withRawSign = JSON.stringify({ ...payload, sign: cryptomusSign(raw, KEY) });
      expect(phpJsonEncode(payload)).not.toBe(raw);
      expect(read(withRawSign)).toMatchObject({ ok: false });
    });
  });

  describe('lookUp', () => {
    it('an invoice Cryptomus does not know was never attempted', async () => {
      expect(await provider.lookUp('BST-unknown')).toEqual([]);
      expect(fake.requests.at(-1)).toMatchObject({
        path: '/v1/payment/info',
        signatureOk: true,
        body: { order_id: 'BST-unknown' },
      });
    });

    it('maps the invoice status the way webhooks are mapped', async () => {
      await provider.start(input());
      expect(await provider.lookUp('BST-1001')).toEqual([{ kind: 'pending', reference: 'BST-1001' }]);
      await fake.pay('BST-1001', { sendWebhook: false });
      const uuid = uuidOf('BST-1001');
      expect(await provider.lookUp('BST-1001')).toEqual([
        { kind: 'captured', reference: 'BST-1001', paymentId: uuid, amountCents: 1600, currency: 'USD' },
      ]);
      await provider.start(input('BST-1002'));
      await fake.pay('BST-1002', { status: 'wrong_amount', paidCents: 1000, sendWebhook: false });
      expect(await provider.lookUp('BST-1002')).toMatchObject([{ kind: 'underpaid', amountCents: 1000 }]);
      await provider.start(input('BST-1003'));
      await fake.pay('BST-1003', { status: 'cancel', sendWebhook: false });
      expect(await provider.lookUp('BST-1003')).toMatchObject([{ kind: 'failed', reference: 'BST-1003' }]);
      expect(receiver.bodies).toHaveLength(0);
    });
  });

  describe('refund', () => {
    const refundInput = (paymentId: string, address?: string) => ({
      reference: 'BST-1001',
      paymentId,
      amountCents: 1600,
      idempotencyKey: 'refund-BST-1001',
      ...(address === undefined ? {} : { address }),
    });

    beforeEach(async () => {
      await provider.start(input());
      await fake.pay('BST-1001', { sendWebhook: false });
    });

    it('sends the whole payment to the address once; a retry answers the same refund', async () => {
      const uuid = uuidOf('BST-1001');
      const first = await provider.refund(refundInput(uuid, ADDRESS));
      expect(first).toEqual({ refundId: `cryptomus-refund-${uuid}` });
      expect(fake.requests.at(-1)).toMatchObject({
        path: '/v1/payment/refund',
        signatureOk: true,
        body: { order_id: 'BST-1001', address: ADDRESS, is_subtract: true },
      });
      const retry = await provider.refund(refundInput(uuid, ADDRESS));
      expect(retry).toEqual(first);
      expect(fake.refunds).toHaveLength(1);
      expect(fake.refunds[0]).toMatchObject({ order_id: 'BST-1001', address: ADDRESS });
    });

    it("Cryptomus's refund_paid webhook names the same refund", async () => {
      const { refundId } = await provider.refund(refundInput(uuidOf('BST-1001'), ADDRESS));
      await waitFor(() => receiver.bodies.length === 1, { message: 'the refund webhook' });
      expect(outcomeOf(read(receiver.bodies[0]))).toEqual({
        kind: 'refunded',
        reference: 'BST-1001',
        refundId,
        amountCents: 1600,
      });
    });

    it('needs the customer’s wallet address', async () => {
      for (const address of [undefined, '']) {
        const error = await failure(provider.refund(refundInput(uuidOf('BST-1001'), address)));
        expect(error.message).toBe("A crypto refund needs the customer's wallet address");
      }
      expect(fake.refunds).toHaveLength(0);
    });

    it('an invoice that was never paid cannot be refunded', async () => {
      await provider.start(input('BST-1002'));
      const error = await failure(
        provider.refund({ ...refundInput(uuidOf('BST-1002'), ADDRESS), reference: 'BST-1002' }),
      );
      expect(error.status).toBe(422);
      expect(fake.refunds).toHaveLength(0);
    });
  });

  describe('failures', () => {
    it('Cryptomus down: every call is a PaymentProviderError', async () => {
      await provider.start(input());
      fake.setMode('down');
      expect((await failure(provider.start(input('BST-2')))).status).toBe(503);
      expect((await failure(provider.lookUp('BST-1001'))).status).toBe(503);
      expect(
        (
          await failure(
            provider.refund({
              reference: 'BST-1001',
              paymentId: 'x',
              amountCents: 1600,
              idempotencyKey: 'k',
              address: ADDRESS,
            }),
          )
        ).status,
      ).toBe(503);
    });

    it('only Cryptomus saying the invoice is unknown reads as never attempted, not any "not found"', async () => {
      for (const [status, message] of [
        [404, 'Not found'],
        [422, 'Merchant not found'],
      ] as const) {
        const answering = createCryptomusProvider({
          merchantId: MERCHANT,
          paymentKey: KEY,
          apiUrl: 'http://127.0.0.1:9',
          fetch: () => Promise.resolve(Response.json({ state: 1, message }, { status })),
        });
        expect((await failure(answering.lookUp('BST-1001'))).status).toBe(status);
      }
    });

    it('Cryptomus unreachable: a PaymentProviderError', async () => {
      await fake.close();
      const error = await failure(provider.lookUp('BST-1001'));
      expect(error.message).toMatch(/^Cryptomus is unreachable/);
      fake = await startFakeCryptomus({ merchantId: MERCHANT, paymentKey: KEY });
    });

    it('the fake checks request signatures: a wrong payment key or merchant is refused', async () => {
      const wrongKey = createCryptomusProvider({ merchantId: MERCHANT, paymentKey: 'wrong-key', apiUrl: fake.url });
      const error = await failure(wrongKey.start(input()));
      expect(error.status).toBe(401);
      expect(error.message).not.toContain('wrong-key');
      expect(fake.requests.at(-1)).toMatchObject({ path: '/v1/payment', signatureOk: false });
      const wrongMerchant = createCryptomusProvider({ merchantId: 'someone-else', paymentKey: KEY, apiUrl: fake.url });
      expect((await failure(wrongMerchant.lookUp('BST-1001'))).status).toBe(401);
      expect(fake.invoices.size).toBe(0);
    });
  });
});
