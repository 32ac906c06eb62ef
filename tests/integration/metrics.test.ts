import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const TOKEN = 'metrics-token-for-tests-only';

describe.each(dialects)('GET /metrics (%s)', (dialect) => {
  let open: TestApp;
  let secured: TestApp;

  beforeAll(async () => {
    open = await startTestApp(dialect);
    secured = await startTestApp(dialect, { sameDatabaseAs: open, env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await secured?.close();
    await open?.close();
  });

  it('answers loopback callers in the text exposition format, uncached', async () => {
    await open.app.inject({ method: 'GET', url: '/healthz' });
    const reply = await open.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toContain('text/plain; version=0.0.4');
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.body).toMatch(
      /^boostly_http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} 1$/m,
    );
    expect(reply.body).toMatch(/^boostly_db_pool_connections\{state="total"\} \d+$/m);
    expect(reply.body).toContain('boostly_process_cpu_user_seconds_total');
  });

  it('refuses a caller from another address when no token is set, even behind a forwarded header', async () => {
    const reply = await open.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.7',
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(reply.statusCode).toBe(403);
  });

  it('with METRICS_TOKEN, wants the bearer token from any address', async () => {
    const none = await secured.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    const wrong = await secured.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer not-the-token' },
    });
    expect(wrong.statusCode).toBe(401);
    const right = await secured.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.7',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(right.statusCode).toBe(200);
  });

  it('keeps each app its own counts, and reads the shared queue from the database', async () => {
    await open.store.database.db
      .insertInto('jobs')
      .values({
        kind: 'test.metrics',
        payload_json: '{}',
        status: 'pending',
        max_attempts: 1,
        run_at: new Date(Date.now() - 60_000).toISOString(),
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    for (let i = 0; i < 3; i++) await open.app.inject({ method: 'GET', url: '/healthz' });
    const mine = await secured.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(mine.body).not.toContain('route="/healthz"');
    expect(mine.body).toMatch(/^boostly_jobs_queued\{kind="test\.metrics",status="pending"\} 1$/m);
    const age = /^boostly_jobs_oldest_age_seconds\{kind="test\.metrics",status="pending"\} ([\d.]+)$/m.exec(mine.body);
    expect(Number(age?.[1])).toBeGreaterThanOrEqual(59);
  });

  it('counts mail sent and job attempts that failed, by kind', async () => {
    await open.store.mailer.send({ to: 'buyer@example.com', subject: 'Hello', html: '<p>Hi</p>', text: 'Hi' });
    await open.store.database.db
      .insertInto('jobs')
      .values({
        kind: 'test.no-handler',
        payload_json: '{}',
        status: 'pending',
        max_attempts: 1,
        run_at: new Date(Date.now() - 1000).toISOString(),
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    await open.store.worker.runOnce();
    const reply = await open.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' });
    expect(reply.body).toMatch(/^boostly_mail_total\{outcome="sent"\} 1$/m);
    expect(reply.body).toMatch(/^boostly_jobs_failed_total\{kind="test\.no-handler",retried="false"\} 1$/m);
  });

  it('counts calls to the supplier panel by panel id, and the ones that failed', async () => {
    const panel = await open.store.panels.get(1);
    await panel.services();
    const unreachable = open.store.panels.probe('https://panel.invalid/api/v2', 'key');
    await expect(unreachable.services()).rejects.toThrow();
    const reply = await open.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(reply.body).toMatch(/^boostly_supplier_calls_total\{panel="1"\} [1-9]\d*$/m);
    // A probe (checking a panel before it is saved) belongs to no panel: not counted.
    expect(reply.body).not.toMatch(/^boostly_supplier_errors_total\{panel="1"\}/m);
  });

  it('counts payments by provider and outcome once they are committed, and no repeat', async () => {
    const followers = catalogueSeed.groups[0].services[0];
    const tier = followers.plans.find((plan) => plan.type === 'Standard')!.tiers[0];
    const post = (url: string, payload: object) =>
      open.app.inject({ method: 'POST', url, payload, remoteAddress: '10.77.0.1' });
    const order = async (clientId: string) =>
      (
        await post('/api/order', {
          type: 'Standard',
          slug: followers.slug,
          qty: tier.qty,
          name: 'metrics.buyer',
          email: 'metrics@example.com',
          order_id: clientId,
        })
      ).json<{ data: { razorpay_order_id: string } }>().data;

    const paid = await order('910001');
    const signed = (await post('/api/sandbox/pay', { razorpay_order_id: paid.razorpay_order_id })).json<{
      data: object;
    }>().data;
    expect((await post('/api/order/verify-payment', signed)).statusCode).toBe(200);
    // The same window result again changes nothing and is not counted again.
    expect((await post('/api/order/verify-payment', signed)).statusCode).toBe(200);

    const declined = await order('910002');
    const failed = (await post('/api/sandbox/fail', { razorpay_order_id: declined.razorpay_order_id })).json<{
      data: { paymentId: string };
    }>().data;
    const reported = await post('/api/order/payment-failed', {
      razorpay_order_id: declined.razorpay_order_id,
      razorpay_payment_id: failed.paymentId,
      reason: 'card_declined',
    });
    expect(reported.statusCode).toBe(200);

    const reply = await open.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(reply.body).toMatch(/^boostly_payments_total\{provider="sandbox",outcome="paid"\} 1$/m);
    expect(reply.body).toMatch(/^boostly_payments_total\{provider="sandbox",outcome="failed"\} 1$/m);
  });
});
