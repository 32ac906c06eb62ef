/**
 * The contact form's API through the real app, on each dialect, with a real SMTP sink: the
 * spec's validation messages, the same reply whether the order id is the sender's, someone
 * else's or unknown (only the sender's own order is linked), both e-mails delivered (support
 * gets the text, escaped; the sender a fixed acknowledgement without it), the honeypot, the
 * length limit and the per-client rate limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONTACT_MESSAGE_LENGTH } from '../../core/contact/contracts.ts';
import { purgeExpiredData } from '../../core/retention/purge.ts';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { type SmtpSink, startSmtpSink } from '../fakes/smtp.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const followers = catalogueSeed.groups[0].services[0];
const standard = followers.plans[0];
const tier = standard.tiers[0];

const SENT = { isSuccessful: true, message: 'Thank you! Your message has been sent. We will reply to you by e-mail.' };
const SUPPORT = 'help.desk@shop.example';

let sequence = 500_000;
const nextClientId = () => String((sequence += 1));
let mailboxes = 0;
const freshEmail = (label: string) => `${label}.${Date.now().toString(36)}.${(mailboxes += 1)}@example.com`;

describe.each(dialects)('contact API on %s', (dialect) => {
  let t: TestApp;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp(dialect, {
      env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://shop.example', SUPPORT_EMAIL: SUPPORT },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  let clients = 0;
  const nextAddress = () => `10.7.${Math.floor(++clients / 250)}.${clients % 250}`;
  const send = (payload: unknown, remoteAddress = nextAddress()) =>
    t.app.inject({ method: 'POST', url: '/api/contact', payload: payload as object, remoteAddress });

  const messagesFrom = (email: string) =>
    t.database.db.selectFrom('contact_messages').selectAll().where('email', '=', email).orderBy('id').execute();

  async function placeOrder(email: string): Promise<string> {
    const call = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, payload, remoteAddress: nextAddress() });
    const created = await call('/api/order', {
      type: standard.type,
      slug: followers.slug,
      qty: tier.qty,
      name: 'contact.buyer',
      email,
      order_id: nextClientId(),
    });
    expect(created.statusCode, created.body).toBe(200);
    return created.json().data.razorpay_order_id as string;
  }

  describe('validation', () => {
    it.each([
      ['no e-mail', { message: 'Hello' }, 'email', 'Email is required'],
      ['a blank e-mail', { email: '   ', message: 'Hello' }, 'email', 'Email is required'],
      ['no at sign', { email: 'someone.example.com', message: 'Hello' }, 'email', 'Invalid Email '],
      ['no dotted domain', { email: 'someone@example', message: 'Hello' }, 'email', 'Invalid Email '],
      ['no message', { email: 'a@example.com' }, 'message', 'Message is required'],
      ['a whitespace-only message', { email: 'a@example.com', message: ' \n\t ' }, 'message', 'Message is required'],
      [
        'a message over the limit',
        { email: 'a@example.com', message: 'x'.repeat(MAX_CONTACT_MESSAGE_LENGTH + 1) },
        'message',
        'Message is too long (at most 5000 characters)',
      ],
    ])('refuses %s with the spec message at its field, storing nothing', async (_label, payload, field, message) => {
      const before = await t.database.db
        .selectFrom('contact_messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const response = await send(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ isSuccessful: false, message, errors: [{ field, message }] });
      const after = await t.database.db
        .selectFrom('contact_messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it("keeps 'Invalid Email ' with its trailing space, and takes a message of exactly the limit", async () => {
      const invalid = await send({ email: 'nobody', message: 'Hi' });
      expect(invalid.json().message).toBe('Invalid Email ');
      const email = freshEmail('limit');
      const full = await send({ email, message: 'y'.repeat(MAX_CONTACT_MESSAGE_LENGTH) });
      expect(full.statusCode, full.body).toBe(200);
      expect((await messagesFrom(email))[0]?.message).toHaveLength(MAX_CONTACT_MESSAGE_LENGTH);
    });

    it('refuses control and text-direction characters (the text guard), naming the field', async () => {
      const response = await send({ email: 'a@example.com', message: 'evil \u202e txt' });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        { field: 'message', message: 'Contains control or text-direction characters' },
      ]);
    });
  });

  describe('storing and mailing', () => {
    it('stores the message (e-mail normalised, text trimmed) and mails support and the sender', async () => {
      const local = `Mixed.Case.${(mailboxes += 1)}`;
      const since = smtp.messages.length;
      const response = await send({ email: ` ${local}@Example.COM `, message: '  Where is my order?\nThanks  ' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual(SENT);
      expect(response.headers['cache-control']).toBe('private, no-store');

      const email = `${local}@example.com`;
      const [row] = await messagesFrom(email);
      expect(row).toMatchObject({
        email,
        order_id: null,
        message: 'Where is my order?\nThanks',
        status: 'new',
        handled_at: null,
      });

      await t.store.worker.runOnce();
      const toSupport = await smtp.waitForMessage(
        (m) => smtp.messages.indexOf(m) >= since && m.to === SUPPORT && m.subject === `Contact message from ${email}`,
        5_000,
      );
      expect(toSupport.subject).toBe(`Contact message from ${email}`);
      expect(toSupport.text).toContain('Where is my order?');
      expect(toSupport.text).toContain('Thanks');
      expect(toSupport.parsed.replyTo?.[0]?.address).toBe(email);

      const ack = await smtp.waitForMessage((m) => smtp.messages.indexOf(m) >= since && m.to === email, 5_000);
      expect(ack.subject).toBe('We have received your message');
      // Never the free text: the form takes anyone's address (decision 024).
      expect(ack.text).not.toContain('Where is my order');
      expect(ack.html).not.toContain('Where is my order');
      expect(ack.parsed.headers.find((h) => h.key === 'auto-submitted')?.value).toBe('auto-replied');
    });

    it("links only the sender's own order, with one reply for own, foreign and unknown orders", async () => {
      const owner = freshEmail('owner');
      const other = freshEmail('other');
      const providerId = await placeOrder(owner);
      const publicId = providerId.replace(/^order_/, '');

      const own = await send({
        email: owner.toUpperCase().replace('@EXAMPLE.COM', '@example.com'),
        orderId: publicId,
        message: 'About my order',
      });
      const ownPrefixed = await send({ email: owner, orderId: ` ${providerId} `, message: 'Again' });
      const foreign = await send({ email: other, orderId: publicId, message: 'Not mine' });
      const unknown = await send({ email: other, orderId: 'NoSuchOrder123', message: 'Unknown' });
      const none = await send({ email: other, orderId: '', message: 'None' });
      const bodies = [own, ownPrefixed, foreign, unknown, none].map((r) => {
        expect(r.statusCode, r.body).toBe(200);
        return r.body;
      });
      expect(new Set(bodies).size).toBe(1);
      expect(JSON.parse(bodies[0] ?? '')).toEqual(SENT);

      const order = await t.database.db
        .selectFrom('orders')
        .select('id')
        .where('provider_order_id', '=', providerId)
        .executeTakeFirstOrThrow();
      const ownRows = await t.database.db
        .selectFrom('contact_messages')
        .select(['order_id', 'message'])
        .where((eb) => eb(eb.fn('lower', ['email']), '=', owner.toLowerCase()))
        .orderBy('id')
        .execute();
      expect(ownRows).toEqual([
        { order_id: order.id, message: 'About my order' },
        { order_id: order.id, message: 'Again' },
      ]);
      const otherRows = await messagesFrom(other);
      expect(otherRows.map((r) => r.order_id)).toEqual([null, null, null]);

      // Support sees what was linked and what was only typed; the sender's mails are the same either way.
      const since = smtp.messages.length;
      await t.store.worker.runOnce();
      await smtp.waitForMessage(() => smtp.messages.slice(since).filter((m) => m.to === SUPPORT).length >= 5, 5_000);
      const supportMails = smtp.messages.slice(since).filter((m) => m.to === SUPPORT);
      const linked = supportMails.find((m) => m.text.includes('About my order'));
      expect(linked?.subject).toContain(`about order ${publicId}`);
      expect(linked?.text).toContain(`/admin/orders/${publicId}`);
      const notLinked = supportMails.find((m) => m.text.includes('Not mine'));
      expect(notLinked?.subject).not.toContain('about order');
      expect(notLinked?.text).toContain('Not linked: no order with this id belongs to this address');
    });

    it('never interprets the stored text as HTML: kept as typed, escaped in the support mail', async () => {
      const email = freshEmail('markup');
      const text = '<script>alert(1)</script> & <img src=x onerror=alert(2)> "quoted"';
      const since = smtp.messages.length;
      expect((await send({ email, message: text })).statusCode).toBe(200);
      expect((await messagesFrom(email))[0]?.message).toBe(text);

      await t.store.worker.runOnce();
      const mail = await smtp.waitForMessage(
        (m) => smtp.messages.indexOf(m) >= since && m.to === SUPPORT && m.text.includes('alert(1)'),
        5_000,
      );
      expect(mail.html).not.toContain('<script>');
      expect(mail.html).not.toContain('<img');
      expect(mail.html).toContain(
        '&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;img src=x onerror=alert(2)&gt; &quot;quoted&quot;',
      );
      expect(mail.text).toContain(text);
    });

    it('acknowledges an address at most once an hour, while every message still reaches support', async () => {
      const email = freshEmail('repeat');
      const since = smtp.messages.length;
      for (const message of ['first', 'second', 'third']) expect((await send({ email, message })).statusCode).toBe(200);
      await t.store.worker.runOnce();
      await smtp.waitForMessage(() => smtp.messages.slice(since).filter((m) => m.to === SUPPORT).length >= 3, 5_000);
      await t.store.worker.runOnce();
      expect(smtp.messages.slice(since).filter((m) => m.to === email)).toHaveLength(1);
      expect(await messagesFrom(email)).toHaveLength(3);
    });
  });

  it('answers a filled honeypot like a success, storing and sending nothing', async () => {
    const email = freshEmail('bot');
    const jobsBefore = await t.database.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('kind', '=', 'mail.send')
      .executeTakeFirstOrThrow();
    const response = await send({ email, message: 'Buy cheap followers', website: 'https://spam.example' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(SENT);
    expect(await messagesFrom(email)).toEqual([]);
    const jobsAfter = await t.database.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('kind', '=', 'mail.send')
      .executeTakeFirstOrThrow();
    expect(Number(jobsAfter.n)).toBe(Number(jobsBefore.n));
  });

  it('limits each client to 5 messages per 10 minutes (429 in the envelope), others unaffected', async () => {
    const from = '10.99.0.1';
    const email = freshEmail('flood');
    for (let i = 0; i < 5; i += 1) expect((await send({ email, message: `m${i}` }, from)).statusCode).toBe(200);
    const limited = await send({ email, message: 'one too many' }, from);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().isSuccessful).toBe(false);
    expect(await messagesFrom(email)).toHaveLength(5);
    expect((await send({ email, message: 'from elsewhere' }, '10.99.0.2')).statusCode).toBe(200);
  });

  it('keeps messages at most 2 years (the retention purge), and a purged order only unlinks its messages', async () => {
    const email = freshEmail('retention');
    const providerId = await placeOrder(email);
    expect((await send({ email, orderId: providerId, message: 'recent, linked' })).statusCode).toBe(200);
    const order = await t.database.db
      .selectFrom('orders')
      .select('id')
      .where('provider_order_id', '=', providerId)
      .executeTakeFirstOrThrow();
    const old = new Date(Date.now() - 731 * 86_400_000).toISOString();
    await t.database.db
      .insertInto('contact_messages')
      .values({ email, order_id: null, message: 'old', status: 'handled', created_at: old, handled_at: old })
      .execute();
    // The order itself falls out of the window first.
    await t.database.db.updateTable('orders').set({ created_at: old }).where('id', '=', order.id).execute();

    const counts = await purgeExpiredData(t.database.db);
    expect(counts.contactMessages).toBe(1);
    expect((await messagesFrom(email)).map((row) => [row.message, row.order_id])).toEqual([['recent, linked', null]]);
  });

  it('is in the OpenAPI document with its payload and replies', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const operation = document.paths['/api/contact'].post;
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '429']);
    const schema = operation.requestBody.content['application/json'].schema;
    expect(Object.keys(schema.properties).sort()).toEqual(['email', 'message', 'orderId', 'website']);
  });
});

describe.each(dialects)('contact page on %s', (dialect) => {
  let configured: TestApp;
  let defaults: TestApp;

  beforeAll(async () => {
    configured = await startTestApp(dialect, {
      withPages: true,
      env: {
        PUBLIC_URL: 'https://shop.example',
        SUPPORT_EMAIL: SUPPORT,
        OFFICE_ADDRESS: '12 Market Street <Suite 5>, Springfield',
      },
    });
    defaults = await startTestApp(dialect, { withPages: true, env: { PUBLIC_URL: 'https://store.example.org:8443' } });
  });
  afterAll(async () => {
    await configured?.close();
    await defaults?.close();
  });

  const page = async (t: TestApp, url: string) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode, url).toBe(200);
    return response.body;
  };

  it("renders the heading, the settings' support and office addresses (escaped), title and canonical", async () => {
    const html = await page(configured, '/contact');
    expect(html).toContain('<title>Contact Us | Boostly</title>');
    expect(html).toContain('<link rel="canonical" href="https://shop.example/contact"/>');
    expect(html).toMatch(/<h1[^>]*>Contact Us<\/h1>/);
    expect(html).toContain(`href="mailto:${SUPPORT}"`);
    expect(html).toContain('12 Market Street &lt;Suite 5&gt;, Springfield');
    expect(html).toContain('We do not have a live chat');
    expect(html).toContain('Quick Answers');
    expect(html).not.toContain('/admin/messages');
  });

  it('defaults the support address to support@ the PUBLIC_URL host and leaves an unset office out', async () => {
    const html = await page(defaults, '/contact');
    expect(html).toContain('href="mailto:support@store.example.org"');
    expect(html).not.toContain('data-testid="office-address"');
  });

  it('prefills a plausible ?order= only, and the confirmation error links to it', async () => {
    expect(await page(configured, '/contact?order=Abc123XYZ')).toContain('value="Abc123XYZ"');
    const hostile = await page(configured, '/contact?order=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expect(hostile).not.toContain('alert(1)');
    const confirm = await configured.app.inject({ method: 'GET', url: '/order-confirm/NoSuchOrder42' });
    expect(confirm.body).toContain('href="/contact?order=NoSuchOrder42"');
  });
});
