/**
 * The catalogue editor (decision 044), per dialect, through the real app: owner-only
 * routes, validation messages per field, the revision compare-and-set (409 for a stale editor),
 * drafts absent from every public read and from order creation, audit rows with before/after, the
 * content version seen by a second store instance on the same database, warnings from the
 * supplier's rate, and an order that keeps the price it was sold at.
 */
import { describeChanges } from '../../core/audit/describe-changes.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogue } from '../../core/catalogue/catalogue.ts';
import { createCatalogueEditor } from '../../core/catalogue/editor.ts';
import { supplierDirectory } from '../../server/api/admin-catalogue.ts';
import { CATALOGUE_MESSAGES, type ServiceDocument } from '../../core/catalogue/service-document.ts';
import { e4ToCents, parseAmountE4 } from '../../core/money/money.ts';
import { ROLE_MESSAGES } from '../../core/auth/roles.ts';
import { refundDueE4 } from '../../core/orders/progress.ts';
import type { FakeRazorpay } from '../fakes/razorpay.ts';
import type { FakeSmmPanel } from '../fakes/smm-panel.ts';
import { adminToken } from '../support/admin-session.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { closeSupplierApp, startSupplierApp } from '../support/supplier-app.ts';
import { waitFor } from '../support/wait-for.ts';
import { draftServiceInput } from '../support/catalogue-input.ts';
import { decodeEntities } from '../support/html.ts';

const keys = {
  panelKey: 'catalogue-panel-key',
  razorpay: { keyId: 'rzp_test_catalogue', keySecret: 'catalogue-secret', webhookSecret: 'catalogue-webhook' },
};
const OWNER = { email: 'catalogue.owner@example.com', password: 'a long enough catalogue password' };
const SUPPORT = { email: 'catalogue.support@example.com', password: 'a long enough support password' };
const OWNER_ADDRESS = '10.81.0.1';
const SUPPORT_ADDRESS = '10.81.0.2';

interface Reply<T> {
  isSuccessful: boolean;
  message: string;
  data: T;
  errors?: { field: string; message: string }[];
  warnings?: { field: string; message: string }[];
}

describe.each(dialects)('catalogue editor on %s', (dialect) => {
  let t: TestApp;
  let panel: FakeSmmPanel;
  let razorpay: FakeRazorpay;
  let owner = '';
  let support = '';

  beforeAll(async () => {
    ({ t, panel, razorpay } = await startSupplierApp(dialect, keys));
    await t.store.adminAuth.createAdmin(OWNER.email, OWNER.password);
    await t.store.adminAuth.createAdmin(SUPPORT.email, SUPPORT.password, 'support');
    owner = await adminToken(t, OWNER, OWNER_ADDRESS);
    support = await adminToken(t, SUPPORT, SUPPORT_ADDRESS);
  });
  afterAll(() => closeSupplierApp({ t, panel, razorpay }));

  const call = async <T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
    token = owner,
  ): Promise<{ status: number; body: Reply<T> }> => {
    const response = await t.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: token === owner ? OWNER_ADDRESS : SUPPORT_ADDRESS,
    });
    return { status: response.statusCode, body: response.json<Reply<T>>() };
  };
  const open = async (slug: string) => {
    const { status, body } = await call<ServiceDocument>('GET', `/api/admin/catalogue/services/${slug}`);
    expect(status, JSON.stringify(body)).toBe(200);
    return body.data;
  };
  const save = (document: ServiceDocument, changes: Partial<ServiceDocument> = {}, token = owner) => {
    const { groupSlug: _group, publishedAt: _published, ...fields } = { ...document, ...changes };
    return call<ServiceDocument>('PATCH', `/api/admin/catalogue/services/${document.slug}`, fields, token);
  };
  const publicService = async (slug: string) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/services/${slug}` });
    return {
      status: response.statusCode,
      body: response.json<
        Reply<{ services: { slug: string; plans: { list: { qty: number; price: number }[] }[] }[] }>
      >(),
    };
  };
  const latestAudit = () =>
    t.database.db.selectFrom('admin_audit').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
  const withTierPrice = (document: ServiceDocument, price: string): Partial<ServiceDocument> => ({
    plans: document.plans.map((plan, p) =>
      p === 0 ? { ...plan, tiers: plan.tiers.map((tier, i) => (i === 0 ? { ...tier, price } : tier)) } : plan,
    ),
  });
  it('is the owner’s: a support admin gets 403 on every catalogue route', async () => {
    for (const [method, url] of [
      ['GET', '/api/admin/catalogue'],
      ['GET', '/api/admin/catalogue/services/tiktok-likes'],
      ['PATCH', '/api/admin/catalogue/groups/tiktok'],
      ['POST', '/api/admin/catalogue/groups'],
      ['POST', '/api/admin/catalogue/groups/tiktok/move'],
      ['DELETE', '/api/admin/catalogue/groups/tiktok'],
    ] as const) {
      const { status, body } = await call(
        method,
        url,
        method === 'GET' || method === 'DELETE' ? undefined : { slug: 'x', title: 'x', image: '', direction: 'up' },
        support,
      );
      expect(status).toBe(403);
      expect(body.message).toBe(ROLE_MESSAGES.ownerOnly);
    }
  });

  it('lists the groups in order with every service, its status, plans and price range', async () => {
    const { status, body } = await call<
      { slug: string; services: { slug: string; status: string; plans: { minPrice: number; maxPrice: number }[] }[] }[]
    >('GET', '/api/admin/catalogue');
    expect(status).toBe(200);
    expect(body.data.map((g) => g.slug)).toEqual(['instagram', 'youtube', 'tiktok']);
    const followers = body.data[0]?.services[0];
    expect(followers?.slug).toBe('instagram-followers');
    expect(followers?.status).toBe('published');
    expect(followers?.plans[0]?.minPrice).toBe(2.99);
    expect(followers?.plans[0]?.maxPrice).toBeGreaterThan(2.99);
  });

  it('refuses bad fields with a message at each field', async () => {
    const document = await open('tiktok-likes');
    const { status, body } = await save(document, { name: '  ', ...withTierPrice(document, '2.999999') });
    expect(status).toBe(400);
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { field: 'name', message: 'Name is required.' },
        { field: 'plans.0.tiers.0.price', message: 'Price must be an amount such as 2.99 (at most 4 decimals).' },
      ]),
    );
    expect((await open('tiktok-likes')).revision).toBe(document.revision);
  });

  it('saves a price, shows it publicly at once, audits before/after, and refuses a stale editor with 409', async () => {
    const document = await open('tiktok-likes');
    const saved = await save(document, withTierPrice(document, '0.77'));
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.revision).toBe(document.revision + 1);

    const shown = await publicService('tiktok-likes');
    const likes = shown.body.data.services.find((s) => s.slug === 'tiktok-likes');
    expect(likes?.plans[0]?.list[0]?.price).toBe(0.77);

    const audit = await latestAudit();
    expect(audit.action).toBe('catalogue.service.update');
    expect(audit.target_id).toBe('tiktok-likes');
    const summary = JSON.parse(audit.summary ?? '{}') as {
      before: Record<string, unknown>;
      after: Record<string, unknown> & { revision: number };
    };
    // One readable line for the one price changed, not every tier of the plan twice.
    const plan = document.plans[0];
    const tier = plan?.tiers[0];
    const priceLines = describeChanges(summary.before, summary.after).filter((line) => line.includes(': price'));
    expect(priceLines).toEqual([
      `${tier?.text || tier?.qty} (${plan?.type}): price ${plan?.currency}${tier?.price} → ${plan?.currency}0.77`,
    ]);
    expect(Object.keys(summary.after).sort()).toEqual([
      `${tier?.text || tier?.qty} (${plan?.type}): price`,
      'revision',
    ]);
    expect(summary.after.revision).toBe(document.revision + 1);

    // The same editor, still at the old revision, saves again: refused, nothing overwritten.
    const stale = await save(document, withTierPrice(document, '0.55'));
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(CATALOGUE_MESSAGES.stale);
    expect((await open('tiktok-likes')).plans[0]?.tiers[0]?.price).toBe('0.77');
  });

  it('keeps a draft out of every public read and out of order creation, until it is published', async () => {
    const created = await call<ServiceDocument>(
      'POST',
      '/api/admin/catalogue/groups/tiktok/services',
      draftServiceInput('tiktok-shares'),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.titleHtml).not.toContain('script');
    expect((await latestAudit()).action).toBe('catalogue.service.create');

    const groups = (await t.app.inject({ method: 'GET', url: '/api/services' })).json<
      Reply<{ services: { slug: string }[] }[]>
    >();
    expect(groups.data.flatMap((g) => g.services.map((s) => s.slug))).not.toContain('tiktok-shares');
    expect((await publicService('tiktok-shares')).status).toBe(404);
    const tiktok = await publicService('tiktok');
    expect(tiktok.body.data.services.map((s) => s.slug)).not.toContain('tiktok-shares');
    expect(await t.store.catalogue.serviceSlugs()).not.toContain('tiktok-shares');

    const order = await t.app.inject({
      method: 'POST',
      url: '/api/order',
      remoteAddress: '10.81.1.1',
      payload: {
        type: 'Standard',
        slug: 'tiktok-shares',
        qty: 100,
        name: 'https://www.tiktok.com/@someone/video/7234567890123456789',
        email: 'draft.buyer@example.com',
        order_id: '810001',
      },
    });
    expect(order.statusCode).toBe(404);

    const draft = await open('tiktok-shares');
    const renamed = await save(draft, { slug: 'tiktok-shares-2' });
    // Not published yet: the slug may still change (here: back to its name after the check).
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const published = await call<ServiceDocument>(
      'PATCH',
      '/api/admin/catalogue/services/tiktok-shares-2',
      (({ groupSlug: _g, publishedAt: _p, ...fields }) => ({ ...fields, status: 'published' }))(renamed.body.data),
    );
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    expect(published.body.data.publishedAt).not.toBeNull();
    expect((await publicService('tiktok-shares-2')).status).toBe(200);

    // Published once: the slug is fixed, even if the service goes back to draft.
    const relabel = await save(published.body.data, { slug: 'tiktok-shares-3' });
    expect(relabel.status).toBe(400);
    expect(relabel.body.errors).toEqual([{ field: 'slug', message: CATALOGUE_MESSAGES.slugLocked }]);
  });

  it('hides a group whose services are all drafts', async () => {
    const groups = (await call<{ slug: string; services: { slug: string }[] }[]>('GET', '/api/admin/catalogue')).body
      .data;
    const youtube = groups.find((g) => g.slug === 'youtube');
    for (const service of youtube?.services ?? []) {
      const document = await open(service.slug);
      expect((await save(document, { status: 'draft' })).status).toBe(200);
    }
    const publicGroups = (await t.app.inject({ method: 'GET', url: '/api/services' })).json<
      Reply<{ slug: string }[]>
    >();
    expect(publicGroups.data.map((g) => g.slug)).toEqual(['instagram', 'tiktok']);
    expect((await publicService('youtube')).status).toBe(404);
    for (const service of youtube?.services ?? []) {
      const document = await open(service.slug);
      expect((await save(document, { status: 'published' })).status).toBe(200);
    }
    expect((await publicService('youtube')).status).toBe(200);
  });

  it('moves a service within its group and edits a group title', async () => {
    const moved = await call<{ order: string[] }>('POST', '/api/admin/catalogue/services/tiktok-likes/move', {
      direction: 'up',
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data.order.slice(0, 2)).toEqual(['tiktok-likes', 'tiktok-followers']);
    const groups = (await t.app.inject({ method: 'GET', url: '/api/services' })).json<
      Reply<{ slug: string; services: { slug: string }[] }[]>
    >();
    expect(groups.data.find((g) => g.slug === 'tiktok')?.services[0]?.slug).toBe('tiktok-likes');
    await call('POST', '/api/admin/catalogue/services/tiktok-likes/move', { direction: 'down' });

    const renamed = await call('PATCH', '/api/admin/catalogue/groups/tiktok', {
      title: 'TikTok growth',
      image: '/images/groups/tiktok.svg',
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    const audit = await latestAudit();
    expect(audit.action).toBe('catalogue.group.update');
    expect(JSON.parse(audit.summary ?? '{}')).toEqual({
      before: { title: 'TikTok' },
      after: { title: 'TikTok growth' },
    });
    expect((await publicService('tiktok')).body.data).toMatchObject({ group: { title: 'TikTok growth' } });
    const notUploaded = await call('PATCH', '/api/admin/catalogue/groups/tiktok', {
      title: 'TikTok',
      image: 'https://evil.example/x.png',
    });
    expect(notUploaded.status).toBe(400);
    await call('PATCH', '/api/admin/catalogue/groups/tiktok', { title: 'TikTok', image: '/images/groups/tiktok.svg' });
  });

  it('warns (without refusing) when a tier sells below the supplier cost or outside its limits', async () => {
    await t.database.db.updateTable('supplier_panels').set({ currency: 'USD' }).where('id', '=', 1).execute();
    await t.database.db
      .insertInto('supplier_services')
      .values({
        panel_id: 1,
        service: '9901',
        name: 'TikTok Likes HQ',
        type: 'Default',
        category: 'TikTok',
        rate_e4: 50_000, // $5 per 1000
        min: 200,
        max: 10_000,
        refill: 0,
        cancel: 0,
        imported_at: new Date().toISOString(),
      })
      .execute();
    const document = await open('tiktok-likes');
    const plan = document.plans[0];
    if (!plan) throw new Error('tiktok-likes has no plan');
    const tiers = plan.tiers.map((tier, i) =>
      i === 0 ? { ...tier, qty: 100, price: '0.10', supplierServiceId: '9901' } : tier,
    );
    // $0.10 is below the price floor: the owner confirms it (the warnings come only with a save).
    const plans = [{ ...plan, tiers }, ...document.plans.slice(1)];
    expect((await save(document, { plans })).status).toBe(409);
    const saved = await save(document, { plans, confirmRiskyPrices: true });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const messages = (saved.body.warnings ?? []).filter((w) => w.field === 'plans.0.tiers.0').map((w) => w.message);
    expect(messages).toEqual([
      "Quantity 100 is outside the supplier's limits (200–10000).",
      'Sells below cost: the supplier charges 0.50 for 100.',
    ]);
    await t.database.db.updateTable('supplier_panels').set({ currency: 'EUR' }).where('id', '=', 1).execute();
    const again = await save(saved.body.data);
    expect((again.body.warnings ?? []).map((w) => w.message)).toContain(
      'The panel charges in EUR, the plan sells in $: no cost check.',
    );
    await t.database.db.updateTable('supplier_panels').set({ currency: null }).where('id', '=', 1).execute();
  });

  it('shows a change to a second store instance on the same database within about a second', async () => {
    const other = createCatalogue(t.database.db);
    const before = await other.getService('instagram-likes');
    const versionBefore = other.version();
    const document = await open('instagram-likes');
    expect((await save(document, withTierPrice(document, '1.23'))).status).toBe(200);
    await waitFor(() => other.version() !== versionBefore, {
      timeout: 5_000,
      interval: 100,
      message: 'the new version',
    });
    const after = await other.getService('instagram-likes');
    expect(after?.plans[0]?.list[0]?.price).toBe(1.23);
    expect(after?.plans[0]?.list[0]?.price).not.toBe(before?.plans[0]?.list[0]?.price);
  });

  it('keeps the price an order was created at: it is paid, shown and refundable at that price', async () => {
    const document = await open('instagram-views');
    const plan = document.plans[0];
    const tier = plan?.tiers[0];
    if (!plan || !tier) throw new Error('instagram-views has no tier');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/order',
      remoteAddress: '10.81.2.1',
      payload: {
        type: plan.type,
        slug: 'instagram-views',
        qty: tier.qty,
        name: 'https://www.instagram.com/p/Cabcdefghij/',
        email: 'price.keeper@example.com',
        order_id: '810002',
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const { razorpay_order_id, checkout } =
      created.json<Reply<{ razorpay_order_id: string; checkout: { order_id: string } }>>().data;

    const raised = (parseAmountE4(tier.price) * 3) / 10_000;
    expect((await save(document, withTierPrice(document, raised.toFixed(2)))).status).toBe(200);

    const { handlerResult } = razorpay.pay(checkout.order_id);
    const verified = await t.app.inject({
      method: 'POST',
      url: '/api/order/verify-payment',
      payload: handlerResult,
      remoteAddress: '10.81.2.2',
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const row = await t.database.db
      .selectFrom('orders')
      .selectAll()
      .where('provider_order_id', '=', razorpay_order_id)
      .executeTakeFirstOrThrow();
    expect(Number(row.price_e4)).toBe(parseAmountE4(tier.price));
    expect(row.payment_status).toBe('paid');
    // Paid at the stored amount: the provider order was opened with it and nothing re-priced it.
    expect(razorpay.orders.get(checkout.order_id)?.amount).toBe(e4ToCents(Number(row.amount_e4)));
    const status = await t.app.inject({ method: 'GET', url: `/api/order/order-status?orderId=${razorpay_order_id}` });
    expect(status.body).toContain(String(Number(row.price_e4) / 10_000));
    // A full refund is what was paid for it, not the new catalogue price.
    expect(refundDueE4({ ...row, refunded_e4: 0 }, row.quantity)).toBe(e4ToCents(Number(row.amount_e4)) * 100);
  });
  it('adds a group hidden until it has a published service, moves groups, and deletes only an empty one', async () => {
    const adminGroups = async () =>
      (await call<{ slug: string; services: { slug: string }[] }[]>('GET', '/api/admin/catalogue')).body.data;
    const publicGroups = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/services' }))
        .json<Reply<{ slug: string }[]>>()
        .data.map((group) => group.slug);

    // Groups and services share the slug namespace (both are /service/:slug).
    for (const slug of ['tiktok-likes', 'tiktok']) {
      const taken = await call('POST', '/api/admin/catalogue/groups', {
        slug,
        title: 'Taken',
        image: '/images/groups/tiktok.svg',
      });
      expect(taken.status).toBe(400);
      expect(taken.body.errors).toEqual([{ field: 'slug', message: CATALOGUE_MESSAGES.slugTaken }]);
    }
    const badFields = await call('POST', '/api/admin/catalogue/groups', {
      slug: 'Face Book',
      title: ' ',
      image: 'https://evil.example/x.png',
    });
    expect(badFields.status).toBe(400);
    expect(badFields.body.errors?.map((error) => error.field).sort()).toEqual(['slug', 'title']);
    const noImage = await call('POST', '/api/admin/catalogue/groups', {
      slug: 'facebook',
      title: 'Facebook',
      image: '',
    });
    expect(noImage.body.errors).toEqual([{ field: 'image', message: CATALOGUE_MESSAGES.groupImageRequired }]);
    const notUploaded = await call('POST', '/api/admin/catalogue/groups', {
      slug: 'facebook',
      title: 'Facebook',
      image: 'https://evil.example/x.png',
    });
    expect(notUploaded.status).toBe(400);
    expect(notUploaded.body.errors).toEqual([{ field: 'image', message: CATALOGUE_MESSAGES.imageNotUploaded }]);

    const added = await call('POST', '/api/admin/catalogue/groups', {
      slug: 'facebook',
      title: 'Facebook',
      image: '/images/groups/tiktok.svg',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.message).toBe(CATALOGUE_MESSAGES.groupCreated);
    const created = await latestAudit();
    expect(created.action).toBe('catalogue.group.create');
    expect(created.target_id).toBe('facebook');
    expect(JSON.parse(created.summary ?? '{}')).toMatchObject({
      before: null,
      after: { slug: 'facebook', title: 'Facebook' },
    });
    expect((await adminGroups()).map((group) => group.slug)).toEqual(['instagram', 'youtube', 'tiktok', 'facebook']);
    // No published service: absent from the store.
    expect(await publicGroups()).toEqual(['instagram', 'youtube', 'tiktok']);
    expect((await publicService('facebook')).status).toBe(404);
    // A service cannot take the group's slug either.
    const clash = await call('POST', '/api/admin/catalogue/groups/tiktok/services', draftServiceInput('facebook'));
    expect(clash.status).toBe(400);
    expect(clash.body.errors).toEqual([{ field: 'slug', message: CATALOGUE_MESSAGES.slugTaken }]);

    // Moving: the store's order follows at once.
    const up = await call<{ order: string[] }>('POST', '/api/admin/catalogue/groups/tiktok/move', { direction: 'up' });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    expect(up.body.data.order).toEqual(['instagram', 'tiktok', 'youtube', 'facebook']);
    const moved = await latestAudit();
    expect(moved.action).toBe('catalogue.group.move');
    expect(JSON.parse(moved.summary ?? '{}')).toMatchObject({ after: { direction: 'up', order: up.body.data.order } });
    expect(await publicGroups()).toEqual(['instagram', 'tiktok', 'youtube']);
    const first = await call<{ order: string[] }>('POST', '/api/admin/catalogue/groups/instagram/move', {
      direction: 'up',
    });
    expect(first.body.data.order).toEqual(['instagram', 'tiktok', 'youtube', 'facebook']);
    await call('POST', '/api/admin/catalogue/groups/tiktok/move', { direction: 'down' });
    expect(await publicGroups()).toEqual(['instagram', 'youtube', 'tiktok']);
    expect((await call('POST', '/api/admin/catalogue/groups/myspace/move', { direction: 'up' })).status).toBe(404);

    // A group with a service (a draft counts) is not deleted: the delete would take the service with it.
    const draft = await call(
      'POST',
      '/api/admin/catalogue/groups/facebook/services',
      draftServiceInput('facebook-likes'),
    );
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    const refused = await call('DELETE', '/api/admin/catalogue/groups/facebook');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(CATALOGUE_MESSAGES.groupNotEmpty(1));
    expect((await adminGroups()).find((group) => group.slug === 'facebook')?.services.map((s) => s.slug)).toEqual([
      'facebook-likes',
    ]);
    const tiktokServices = (await adminGroups()).find((group) => group.slug === 'tiktok')?.services.length ?? 0;
    expect(tiktokServices).toBeGreaterThan(1);
    expect((await call('DELETE', '/api/admin/catalogue/groups/tiktok')).body.message).toBe(
      CATALOGUE_MESSAGES.groupNotEmpty(tiktokServices),
    );

    // An empty group goes, audited.
    expect(
      (
        await call('POST', '/api/admin/catalogue/groups', {
          slug: 'snapchat',
          title: 'Snapchat',
          image: '/images/groups/tiktok.svg',
        })
      ).status,
    ).toBe(201);
    const deleted = await call('DELETE', '/api/admin/catalogue/groups/snapchat');
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const deletion = await latestAudit();
    expect(deletion.action).toBe('catalogue.group.delete');
    expect(JSON.parse(deletion.summary ?? '{}')).toMatchObject({ before: { title: 'Snapchat' }, after: null });
    expect((await adminGroups()).map((group) => group.slug)).not.toContain('snapchat');
    expect((await call('DELETE', '/api/admin/catalogue/groups/snapchat')).status).toBe(404);

    // Publishing the group's service shows the group, last.
    const document = await open('facebook-likes');
    expect((await save(document, { status: 'published' })).status).toBe(200);
    expect(await publicGroups()).toEqual(['instagram', 'youtube', 'tiktok', 'facebook']);
    expect((await publicService('facebook')).status).toBe(200);
  });
});

describe.each(dialects)('drafts and the rendered store on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { withPages: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('leaves a draft out of the sitemap and its page, and shows it (with its JSON-LD) once published', async () => {
    const editor = createCatalogueEditor({
      db: t.database.db,
      catalogue: t.store.catalogue,
      suppliers: supplierDirectory(t.database.db),
    });
    const get = (url: string) => t.app.inject({ method: 'GET', url });
    const sitemapBefore = await get('/sitemap.xml');
    expect(sitemapBefore.statusCode).toBe(200);
    const document = await editor.getService('youtube-likes');
    if (!document) throw new Error('youtube-likes is seeded');
    const { groupSlug: _g, publishedAt: _p, revision, ...fields } = document;
    const hidden = await editor.saveService('youtube-likes', revision, { ...fields, status: 'draft' });
    expect(hidden.ok).toBe(true);
    expect((await get('/sitemap.xml')).body).not.toContain('/service/youtube-likes');
    expect((await get('/service/youtube-likes')).statusCode).toBe(404);
    // The group's page lists its published services only.
    const views = await get('/service/youtube-views');
    expect(views.statusCode).toBe(200);
    expect(views.body).toContain('/service/youtube-subscribers');
    expect(views.body).not.toContain('/service/youtube-likes');

    const shown = await editor.saveService('youtube-likes', revision + 1, { ...fields, status: 'published' });
    expect(shown.ok).toBe(true);
    expect((await get('/sitemap.xml')).body).toContain('/service/youtube-likes');
    const page = await get('/service/youtube-likes');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('application/ld+json');
  });

  it('shows the plans in the order the editor saved them, on the service page and in the API', async () => {
    const editor = createCatalogueEditor({
      db: t.database.db,
      catalogue: t.store.catalogue,
      suppliers: supplierDirectory(t.database.db),
    });
    const planTabs = async () => {
      const page = await t.app.inject({ method: 'GET', url: '/service/youtube-subscribers' });
      expect(page.statusCode).toBe(200);
      return [...page.body.matchAll(/data-testid="plan-tab"[\s\S]*?font-semibold text-ink">([^<]+)</g)].map((m) =>
        decodeEntities(m[1] ?? ''),
      );
    };
    const apiTypes = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/services/youtube-subscribers' }))
        .json<{ data: { services: { slug: string; plans: { type: string }[] }[] } }>()
        .data.services.find((service) => service.slug === 'youtube-subscribers')
        ?.plans.map((plan) => plan.type);

    const document = await editor.getService('youtube-subscribers');
    if (!document) throw new Error('youtube-subscribers is seeded');
    expect(document.plans.length).toBeGreaterThan(1);
    const seeded = document.plans.map((plan) => plan.title);
    expect(await planTabs()).toEqual(seeded);

    // The editor's list, reversed (what "Move up"/"Move down" leave), saved as it is.
    const { groupSlug: _g, publishedAt: _p, revision, ...fields } = document;
    const reversed = [...fields.plans].reverse();
    const saved = await editor.saveService('youtube-subscribers', revision, { ...fields, plans: reversed });
    expect(saved.ok).toBe(true);
    expect((await editor.getService('youtube-subscribers'))?.plans.map((plan) => plan.title)).toEqual(
      [...seeded].reverse(),
    );
    expect(await planTabs()).toEqual([...seeded].reverse());
    expect(await apiTypes()).toEqual(reversed.map((plan) => plan.type));
  });
});
