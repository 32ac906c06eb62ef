/**
 * The catalogue editor's kinds (decision 057), per dialect, through the real app: a service's
 * kind and subscription terms saved and read back (editor and public API), the tiers' supplier
 * types (automatic likes need a Subscriptions service, nothing else may use one), the warnings
 * per post and per day against the panel's min/max and rate, and a kind that cannot change while
 * a paid order of the service runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceDocument } from '../../core/catalogue/service-document.ts';
import type { FakeRazorpay } from '../fakes/razorpay.ts';
import type { FakeSmmPanel } from '../fakes/smm-panel.ts';
import { adminToken } from '../support/admin-session.ts';
import type { TestApp } from '../support/app.ts';
import { draftServiceInput } from '../support/catalogue-input.ts';
import { dialects } from '../support/databases.ts';
import { closeSupplierApp, orderHelpers, startSupplierApp } from '../support/supplier-app.ts';

const keys = {
  panelKey: 'catalogue-kinds-panel-key',
  razorpay: { keyId: 'rzp_test_kinds', keySecret: 'kinds-secret', webhookSecret: 'kinds-webhook' },
};
const OWNER = { email: 'kinds.owner@example.com', password: 'a long enough kinds password' };
const OWNER_ADDRESS = '10.83.0.1';

interface Reply<T> {
  isSuccessful: boolean;
  message: string;
  data: T;
  errors?: { field: string; message: string }[];
  warnings?: { field: string; message: string }[];
}

/** Imported services of the environment panel (id 1), as an import would leave them. */
const IMPORTED = [
  // Panels spell the type in either case: the check must not care.
  { service: '9801', name: 'Instagram Auto Likes', type: 'subscriptions', rate_e4: 10_000, min: 50, max: 5_000 },
  { service: '9802', name: 'Instagram Followers HQ', type: 'Default', rate_e4: 20_000, min: 100, max: 20_000 },
];

/** A new service of `kind`: one tier of `qty` on supplier service `service`. */
function serviceOf(slug: string, kind: string, qty: number, service: string, terms?: object) {
  const input = draftServiceInput(slug, `Kinds ${slug}`);
  const plan = input.plans[0];
  const tier = plan?.tiers[0];
  if (!plan || !tier) throw new Error('the draft input has no tier');
  return {
    ...input,
    targetKind: 'instagram_username',
    kind,
    ...(terms ? { terms } : {}),
    plans: [{ ...plan, tiers: [{ ...tier, qty, text: `${qty}`, price: '9.99', supplierServiceId: service }] }],
  };
}

describe.each(dialects)('catalogue editor kinds on %s', (dialect) => {
  let app: { t: TestApp; panel: FakeSmmPanel; razorpay: FakeRazorpay };
  let owner = '';
  const helpers = orderHelpers(() => app, { namePrefix: 'kinds.buyer', subnet: 83, firstSequence: 830_100 });

  beforeAll(async () => {
    app = await startSupplierApp(dialect, keys);
    await app.t.store.adminAuth.createAdmin(OWNER.email, OWNER.password);
    owner = await adminToken(app.t, OWNER, OWNER_ADDRESS);
    const now = new Date().toISOString();
    await app.t.database.db
      .insertInto('supplier_services')
      .values(
        IMPORTED.map((row) => ({ ...row, panel_id: 1, category: 'Instagram', refill: 0, cancel: 0, imported_at: now })),
      )
      .execute();
    await app.t.database.db.updateTable('supplier_panels').set({ currency: 'USD' }).where('id', '=', 1).execute();
  });
  afterAll(() => closeSupplierApp(app));

  const call = async <T>(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
    const response = await app.t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: { authorization: `Bearer ${owner}` },
      remoteAddress: OWNER_ADDRESS,
    });
    return { status: response.statusCode, body: response.json<Reply<T>>() };
  };
  const create = (input: object) =>
    call<ServiceDocument>('POST', '/api/admin/catalogue/groups/instagram/services', input);
  const save = (document: ServiceDocument, changes: object = {}) => {
    const { groupSlug: _group, publishedAt: _published, ...fields } = { ...document, ...changes };
    return call<ServiceDocument>('PATCH', `/api/admin/catalogue/services/${document.slug}`, fields);
  };
  const open = async (slug: string) =>
    (await call<ServiceDocument>('GET', `/api/admin/catalogue/services/${slug}`)).body.data;

  it('saves automatic likes with their terms, reads them back, and serves them publicly once published', async () => {
    const created = await create({
      ...serviceOf('kinds-auto-likes', 'automatic_likes', 100, '9801', { periodDays: 30, posts: 20, delayMinutes: 90 }),
      status: 'published',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({
      kind: 'automatic_likes',
      terms: { periodDays: 30, posts: 20, delayMinutes: 90 },
    });
    const row = await app.t.database.db
      .selectFrom('services')
      .select(['kind', 'period_days', 'posts_per_period', 'post_delay_minutes'])
      .where('slug', '=', 'kinds-auto-likes')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ kind: 'automatic_likes', period_days: 30, posts_per_period: 20, post_delay_minutes: 90 });

    const reopened = await open('kinds-auto-likes');
    expect(reopened.kind).toBe('automatic_likes');
    expect(reopened.terms).toEqual({ periodDays: 30, posts: 20, delayMinutes: 90 });
    const saved = await save(reopened, { terms: { periodDays: 28, posts: 40, delayMinutes: 0 } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.terms).toEqual({ periodDays: 28, posts: 40, delayMinutes: 0 });

    const listed = await call<{ slug: string; services: { slug: string; kind: string }[] }[]>(
      'GET',
      '/api/admin/catalogue',
    );
    const services = listed.body.data.flatMap((group) => group.services);
    expect(services.find((service) => service.slug === 'kinds-auto-likes')?.kind).toBe('automatic_likes');
    expect(services.find((service) => service.slug === 'instagram-followers')?.kind).toBe('package');

    // The store's own catalogue (the order page reads it) sells it on these terms.
    expect(await app.t.store.catalogue.getService('kinds-auto-likes')).toMatchObject({
      kind: 'automatic_likes',
      terms: { periodDays: 28, posts: 40, delayMinutes: 0 },
    });
  });

  it('saves daily followers with a period only, and a package with no terms at all', async () => {
    const daily = await create(serviceOf('kinds-daily', 'daily_followers', 200, '9802', { periodDays: 30, posts: 7 }));
    expect(daily.status, JSON.stringify(daily.body)).toBe(201);
    expect(daily.body.data.terms).toEqual({ periodDays: 30 });
    const back = await save(daily.body.data, { kind: 'package', terms: { periodDays: 30 } });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.data.kind).toBe('package');
    expect(back.body.data.terms).toBeUndefined();
    const row = await app.t.database.db
      .selectFrom('services')
      .select(['kind', 'period_days', 'posts_per_period', 'post_delay_minutes'])
      .where('slug', '=', 'kinds-daily')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ kind: 'package', period_days: null, posts_per_period: null, post_delay_minutes: null });
  });

  it('refuses terms out of range, a subscription without terms, and one sold for a link', async () => {
    const badTerms = await create(
      serviceOf('kinds-bad-terms', 'automatic_likes', 100, '9801', { periodDays: 0, posts: 5000, delayMinutes: 7 }),
    );
    expect(badTerms.status).toBe(400);
    expect(badTerms.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'terms.periodDays', message: 'The period is 1 to 365 days.' },
        { field: 'terms.posts', message: 'Posts per period are 1 to 1000.' },
        { field: 'terms.delayMinutes', message: 'Choose one of the delays offered.' },
      ]),
    );
    const noTerms = await create(serviceOf('kinds-no-terms', 'daily_followers', 100, '9802'));
    expect(noTerms.status).toBe(400);
    expect(noTerms.body.errors).toEqual([{ field: 'terms.periodDays', message: 'The period is 1 to 365 days.' }]);
    const noPosts = await create(serviceOf('kinds-no-posts', 'automatic_likes', 100, '9801', { periodDays: 30 }));
    expect(noPosts.body.errors).toEqual([{ field: 'terms.posts', message: 'Posts per period are 1 to 1000.' }]);
    const forLink = await create({
      ...serviceOf('kinds-for-link', 'daily_followers', 100, '9802', { periodDays: 30 }),
      targetKind: 'instagram_post_url',
    });
    expect(forLink.status).toBe(400);
    expect(forLink.body.errors).toEqual([
      {
        field: 'targetKind',
        message: 'Daily followers (delivered every day) are sold for an Instagram or TikTok username.',
      },
    ]);
    const unknownKind = await create({ ...serviceOf('kinds-unknown', 'package', 100, '9802'), kind: 'weekly_views' });
    expect(unknownKind.body.errors).toEqual([{ field: 'kind', message: 'Choose what the service sells.' }]);
    const stored = await app.t.database.db
      .selectFrom('services')
      .select('slug')
      .where('slug', 'like', 'kinds-%')
      .where('slug', 'in', ['kinds-bad-terms', 'kinds-no-terms', 'kinds-no-posts', 'kinds-for-link', 'kinds-unknown'])
      .execute();
    expect(stored).toEqual([]);
  });

  it('refuses a tier mapped to a supplier service of the wrong type, naming the tier and the service', async () => {
    const likesOnFollowers = await create(
      serviceOf('kinds-wrong-likes', 'automatic_likes', 100, '9802', { periodDays: 30, posts: 30, delayMinutes: 0 }),
    );
    expect(likesOnFollowers.status).toBe(400);
    expect(likesOnFollowers.body.errors).toEqual([
      {
        field: 'plans.0.tiers.0.supplierServiceId',
        message:
          '100 likes: supplier service 9802 is a Default service (Instagram Followers HQ), not a subscription; automatic likes need a Subscriptions service.',
      },
    ]);
    const dailyOnSubscription = await create(
      serviceOf('kinds-wrong-daily', 'daily_followers', 50, '9801', { periodDays: 30 }),
    );
    expect(dailyOnSubscription.body.errors).toEqual([
      {
        field: 'plans.0.tiers.0.supplierServiceId',
        message:
          '50 followers a day: supplier service 9801 is a Subscriptions service (Instagram Auto Likes), which serves new posts; daily followers need a service that delivers a quantity to a link.',
      },
    ]);
    const packageOnSubscription = await create(serviceOf('kinds-wrong-package', 'package', 1000, '9801'));
    expect(packageOnSubscription.body.errors?.[0]?.message).toBe(
      'Quantity 1,000: supplier service 9801 is a Subscriptions service (Instagram Auto Likes), which serves new posts; a one-off package needs a service that delivers a quantity to a link.',
    );
    // A service the import does not know is not judged: today's behaviour for unmapped panels.
    const unknown = await create(
      serviceOf('kinds-unimported', 'automatic_likes', 100, '7777', { periodDays: 30, posts: 30, delayMinutes: 0 }),
    );
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(201);
    expect(unknown.body.warnings).toEqual([]);
  });

  it('warns when the panel cannot carry the likes per post or the followers a day, and below cost for the period', async () => {
    const likes = await create(
      serviceOf('kinds-warn-likes', 'automatic_likes', 10_000, '9801', { periodDays: 30, posts: 30, delayMinutes: 0 }),
    );
    expect(likes.status, JSON.stringify(likes.body)).toBe(201);
    expect(likes.body.warnings?.map((warning) => warning.message)).toEqual([
      "10,000 likes per post is outside the supplier's limits (50–5000).",
      // $1 per 1000 likes × 10,000 likes on each of 30 posts = $300 against a price of $9.99.
      'Sells below cost: the supplier charges 300.00 for 300,000 likes (10,000 on each of 30 posts).',
    ]);
    const daily = await create(serviceOf('kinds-warn-daily', 'daily_followers', 50, '9802', { periodDays: 30 }));
    expect(daily.status, JSON.stringify(daily.body)).toBe(201);
    expect(daily.body.warnings?.map((warning) => warning.message)).toEqual([
      "50 followers a day (one day's run) is outside the supplier's limits (100–20000).",
    ]);
    // 500 a day × 30 days at $2 per 1000 = $30 against $9.99: below cost, within the per-run limits.
    const dailyDocument = daily.body.data;
    const plan = dailyDocument.plans[0];
    if (!plan) throw new Error('no plan');
    const dear = await save(dailyDocument, {
      plans: [{ ...plan, tiers: plan.tiers.map((tier) => ({ ...tier, qty: 500 })) }],
    });
    expect(dear.body.warnings?.map((warning) => warning.message)).toEqual([
      'Sells below cost: the supplier charges 30.00 for 15,000 followers (500 a day for 30 days).',
    ]);
    // The same tier as a package is judged on its own quantity, as before.
    const asPackage = await save(dear.body.data, { kind: 'package' });
    expect(asPackage.body.warnings).toEqual([]);
  });

  it('keeps the kind while a paid order of the service runs, and says why', async () => {
    const id = await helpers.paidOrder();
    const running = await helpers.order(id);
    expect(running.payment_status).toBe('paid');
    const followers = await open(running.service_slug);
    expect(followers.kind).toBe('package');
    const refused = await save(followers, {
      kind: 'daily_followers',
      targetKind: 'instagram_username',
      terms: { periodDays: 30 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      {
        field: 'kind',
        message:
          'What the service sells cannot change while 1 paid order of it is still running: it was bought as it is now. Change it once that order has finished, or add a new service for the new kind.',
      },
    ]);
    expect((await open(running.service_slug)).revision).toBe(followers.revision);
    // Its other fields still save: only the kind waits.
    const renamed = await save(followers, { name: `${followers.name} (renamed)` });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
  });
});
