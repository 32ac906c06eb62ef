/**
 * No secret in a log (docs/decisions/015-mail-delivery-and-log-secrets.md): the
 * real app and store log through one pino logger with the server's options into a captured
 * stream, at the most verbose level, while an admin logs in (the e-mailed code included), a
 * customer opens their order history with an e-mailed code, and a buyer pays through Razorpay
 * (handler signature and a signed webhook). The captured log must contain none of the secrets the
 * flows used: the codes, the password, the bearer token, the payment signatures, the keys.
 */
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCodePepper } from '../../core/auth/one-time-codes.ts';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { REDACTED, loggerOptions } from '../../server/logging.ts';
import { type Store, openStore } from '../../server/store.ts';
import { type FakeRazorpay, startFakeRazorpay } from '../fakes/razorpay.ts';
import { type SmtpSink, startSmtpSink } from '../fakes/smtp.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';
import { root } from '../support/app.ts';

const keys = {
  keyId: 'rzp_test_logcheck',
  keySecret: 'key-secret-LOGCHECK-9f3a',
  webhookSecret: 'whsec-LOGCHECK-77c1',
};
const PASSWORD = 'Secret-Password-LOGCHECK-4411';
const followers = catalogueSeed.groups[0].services[0];
const standard = followers.plans[0];
const tier = standard.tiers[0];

function captureStream() {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return { stream, text: () => chunks.join('') };
}

/** The 6-digit code on a line of its own in a code e-mail's text part. */
function codeIn(text: string): string {
  const match = /^\s*(\d{6})\s*$/m.exec(text);
  if (!match?.[1]) throw new Error(`no code in:\n${text}`);
  return match[1];
}

describe('the server logger options', () => {
  it('redact secrets wherever a log call puts them, and secret query parameters in the URL', () => {
    const captured = captureStream();
    const log = pino(loggerOptions('info'), captured.stream);
    log.info(
      {
        url: '/api/thing?token=TOKEN-IN-URL&page=2&otp=123987',
        req: { headers: { authorization: 'Bearer HEADER-TOKEN', cookie: 'sid=COOKIE-VALUE' } },
        headers: { 'x-razorpay-signature': 'HEADER-SIGNATURE' },
        password: 'TOP-PASSWORD',
        body: { otp: '654321', razorpay_signature: 'BODY-SIGNATURE', access_token: 'BODY-TOKEN' },
        mail: { html: '<p>HTML-BODY</p>', text: 'TEXT-BODY' },
        err: { code: 'ECONNREFUSED' },
      },
      'everything at once',
    );
    const line = captured.text();
    for (const secret of [
      'TOKEN-IN-URL',
      '123987',
      'HEADER-TOKEN',
      'COOKIE-VALUE',
      'HEADER-SIGNATURE',
      'TOP-PASSWORD',
      '654321',
      'BODY-SIGNATURE',
      'BODY-TOKEN',
      'HTML-BODY',
      'TEXT-BODY',
    ])
      expect(line).not.toContain(secret);
    expect(line).toContain(REDACTED);
    expect(line).toContain('page=2');
    // An error code is not a one-time code: it stays readable.
    expect(line).toContain('ECONNREFUSED');
    // The object the caller logged is left as it was (the log gets a redacted copy).
    const logged = { body: { otp: '111222' }, status: 200 };
    log.info(logged, 'after');
    expect(logged.body.otp).toBe('111222');
    expect(captured.text()).not.toContain('111222');
  });
});

describe.each(dialects)('logs during login, order history and checkout on %s', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  let app: FastifyInstance;
  let smtp: SmtpSink;
  let razorpay: FakeRazorpay;
  const log = captureStream();
  /** Every secret the flows handle; none may reach the log. */
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    smtp = await startSmtpSink();
    razorpay = await startFakeRazorpay(keys);
    database = await openTestDatabase(dialect);
    const config = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: path.join(root, '.tmp/unused'),
      LOG_LEVEL: 'trace',
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'https://shop.example',
      RAZORPAY_KEY_ID: keys.keyId,
      RAZORPAY_KEY_SECRET: keys.keySecret,
      RAZORPAY_WEBHOOK_SECRET: keys.webhookSecret,
      RAZORPAY_API_URL: razorpay.url,
    });
    const logger = pino(loggerOptions(config.LOG_LEVEL), log.stream);
    store = await openStore(config, database, { logger });
    app = await buildApp({ config, store, logger });
    await app.ready();
    secrets.set('razorpay key secret', keys.keySecret);
    secrets.set('razorpay webhook secret', keys.webhookSecret);
    secrets.set('code pepper', await loadCodePepper(database.db));
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await database?.dispose();
    await Promise.all([smtp?.close(), razorpay?.close()]);
  });

  let clients = 0;
  const from = () => `10.61.${Math.floor(++clients / 250)}.${clients % 250}`;
  const send = (method: 'POST' | 'PATCH' | 'GET', url: string, payload?: object, token?: string, address = from()) =>
    app.inject({
      method,
      url,
      remoteAddress: address,
      ...(payload ? { payload } : {}),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  const newestMailTo = async (to: string, since: number) => {
    await store.worker.runOnce();
    return smtp.waitForMessage((m) => smtp.messages.indexOf(m) >= since && m.to === to, 5_000);
  };

  it('an admin logs in with the e-mailed code and uses the bearer token', async () => {
    const email = `admin.${dialect}@example.com`;
    secrets.set('password', PASSWORD);
    await store.adminAuth.createAdmin(email, PASSWORD);
    let since = smtp.messages.length;
    // One browser: the second factor belongs to the login from the same address.
    const browser = from();
    let login = await send('POST', '/api/auth/login', { email, password: PASSWORD }, undefined, browser);
    // The first login (and, with a second factor on every login, each one) asks for the e-mailed code.
    for (let step = 0; step < 3 && login.statusCode !== 200; step += 1) {
      expect(login.statusCode, login.body).toBe(409);
      const mail = await newestMailTo(email, since);
      const code = codeIn(mail.text);
      secrets.set(`admin code ${step}`, code);
      expect(mail.subject).not.toContain(code);
      since = smtp.messages.length;
      const verified = await send('POST', '/api/auth/verify-otp', { email, otp: code }, undefined, browser);
      expect(verified.statusCode, verified.body).toBeLessThan(300);
      const direct = verified.json<{ access_token?: string }>().access_token;
      login = direct
        ? verified
        : await send('POST', '/api/auth/login', { email, password: PASSWORD }, undefined, browser);
    }
    expect(login.statusCode, login.body).toBe(200);
    const token = login.json<{ access_token: string }>().access_token;
    secrets.set('bearer token', token);
    expect((await send('GET', '/api/auth/me', undefined, token)).statusCode).toBe(200);
    expect((await send('GET', '/api/admin/mail/failed', undefined, token)).statusCode).toBe(200);
    expect((await send('GET', `/api/order/all-orders?token=${token}`, undefined, token)).statusCode).toBeLessThan(500);
    expect((await send('POST', '/api/auth/login', { email, password: `${PASSWORD}-wrong` })).statusCode).toBe(401);
  });

  it('a customer opens their order history with the e-mailed code', async () => {
    const email = `history.${dialect}@example.com`;
    const since = smtp.messages.length;
    expect((await send('POST', '/api/order/order-history/code', { email })).statusCode).toBe(200);
    const mail = await newestMailTo(email, since);
    const code = codeIn(mail.text);
    secrets.set('history code', code);
    expect(mail.subject).not.toContain(code);
    const lookup = await send('PATCH', '/api/order/order-history', { email, code });
    expect(lookup.statusCode, lookup.body).toBe(200);
  });

  it('a buyer pays: handler signature, signed webhook, receipt', async () => {
    const email = `buyer.${dialect}@example.com`;
    const created = await send('POST', '/api/order', {
      type: standard.type,
      slug: followers.slug,
      qty: tier.qty,
      name: 'boostly.demo',
      email,
      order_id: '314159',
    });
    expect(created.statusCode, created.body).toBe(200);
    const { checkout } = created.json<{ data: { checkout: { order_id: string } } }>().data;
    const { payment, handlerResult } = razorpay.pay(checkout.order_id);
    secrets.set('payment signature', handlerResult.razorpay_signature);
    const verified = await send('POST', '/api/order/verify-payment', handlerResult);
    expect(verified.statusCode, verified.body).toBe(200);
    const webhook = razorpay.webhook('payment.captured', payment);
    secrets.set('webhook signature', webhook.headers['x-razorpay-signature']);
    const delivered = await app.inject({
      method: 'POST',
      url: '/api/payments/razorpay/webhook',
      remoteAddress: from(),
      headers: webhook.headers,
      payload: webhook.body,
    });
    expect(delivered.statusCode, delivered.body).toBeLessThan(300);
    const since = smtp.messages.length;
    for (let round = 0; round < 5; round += 1) await store.worker.runOnce();
    await smtp.waitForMessage((m) => smtp.messages.indexOf(m) >= since - 1 && m.to === email, 5_000);
  });

  it('the captured log holds none of the secrets the flows used', () => {
    const text = log.text();
    // Not an empty log: requests and mail deliveries were logged.
    expect(text).toContain('"msg":"request"');
    expect(text).toContain('mail sent');
    expect(secrets.size).toBeGreaterThanOrEqual(8);
    for (const [name, secret] of secrets) {
      expect(secret.length, name).toBeGreaterThanOrEqual(6);
      expect(text.includes(secret), `${name} is in the log`).toBe(false);
    }
  });
});
