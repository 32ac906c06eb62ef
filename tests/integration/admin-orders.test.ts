/**
 * The admin orders console through the real app, per dialect, with a real admin login and a
 * fake SMM panel over HTTP: list semantics (order, pages, counts, the six statuses, keyword
 * search in every form), the trigram and walk paths giving the same answers, reorder and
 * apply-service rules against the panel, the detail view's timeline and e-mails, the CSV export
 * (RFC 4180, formula injection) and the 401 on every route without a token.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConsoleRow,
  ConsoleRowSchema,
  OrderActionAcceptedSchema,
  OrderDetailSchema,
  OrdersListReplySchema,
} from '../../core/admin/contracts.ts';
import { createOrdersConsole } from '../../core/admin/orders-console.ts';
import { CSV_HEADER, csvCell, csvLine } from '../../core/admin/orders-csv.ts';
import type { JobStatus } from '../../db/column-values.ts';
import {
  type FulfilmentState,
  ORDER_ACTION_REFUSALS,
  ORDER_STATUSES,
  type OrderStatus,
  PENDING_ACTIONS,
  type PaymentStatus,
} from '../../core/orders/status.ts';
import { purgeExpiredData } from '../../core/retention/purge.ts';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { BAD_TOKEN_MESSAGE, NO_TOKEN_MESSAGE } from '../../server/api/admin-guard.ts';
import { type FakeSmmPanel, startFakeSmmPanel } from '../fakes/smm-panel.ts';
import { adminToken } from '../support/admin-session.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

/** What a dataset order looks like; everything else gets a sensible default. */
interface Spec {
  key: string;
  /** The public order id (after `order_`). */
  code: string;
  email: string;
  target: string;
  service?: 'Instagram Followers' | 'YouTube Views' | 'TikTok Followers';
  orderStatus: OrderStatus;
  paymentStatus?: PaymentStatus;
  fulfilmentState?: FulfilmentState;
  supplierOrderId?: string | null;
  errorMessage?: string | null;
  needsReview?: boolean;
  reviewReason?: string | null;
  quantity?: number;
  remains?: number | null;
}

const NASTY_TARGET = '=HYPERLINK("http://evil.example","x")';
const MULTILINE_TARGET = 'first line\nsecond, "quoted" line';

// Newest last: created_at grows with the index.
const SPECS: Spec[] = [
  {
    key: 'A',
    code: 'ZqAlpha0001xy',
    email: 'jane.doe@console.test',
    target: 'jane_doe_fit',
    orderStatus: 'Completed',
    fulfilmentState: 'submitted',
    supplierOrderId: '9001',
  },
  {
    key: 'B',
    code: 'BravoB0002xy',
    email: 'john.smith@console.test',
    target: 'https://www.youtube.com/watch?v=AbCdEfGhIjK',
    service: 'YouTube Views',
    orderStatus: 'Completed',
    fulfilmentState: 'submitted',
    supplierOrderId: '9002',
  },
  {
    key: 'C',
    code: 'CharlieC003x',
    email: 'mary.jones@console.test',
    target: 'mary.jones.art',
    service: 'TikTok Followers',
    orderStatus: 'In Progress',
    fulfilmentState: 'submitted',
    supplierOrderId: '9003',
  },
  {
    key: 'D',
    code: 'DeltaD0004xy',
    email: 'peter.parker@console.test',
    target: 'spidey_official',
    orderStatus: 'Partial',
    fulfilmentState: 'submitted',
    supplierOrderId: '9004',
    quantity: 1000,
    remains: 400,
  },
  {
    key: 'E',
    code: 'EchoE00005xy',
    email: 'lisa.ray@console.test',
    target: 'lisa.axb',
    orderStatus: 'Processing',
    fulfilmentState: 'submitted',
    supplierOrderId: '9005',
  },
  {
    key: 'F',
    code: 'FoxtrotF006x',
    email: 'tom.hardy@console.test',
    target: 'tom_hardy',
    orderStatus: 'Canceled',
    fulfilmentState: 'submitted',
    supplierOrderId: '9006',
  },
  {
    key: 'G',
    code: 'GolfG00007xy',
    email: 'alex.failed@console.test',
    target: 'alex_failed',
    orderStatus: 'Pending',
    fulfilmentState: 'failed',
    errorMessage: 'Incorrect link',
  },
  {
    key: 'G2',
    code: 'GolfTwo0008x',
    email: 'gina.refused@console.test',
    target: 'gina_refused',
    orderStatus: 'Pending',
    fulfilmentState: 'failed',
    errorMessage: 'Incorrect link',
  },
  {
    key: 'H',
    code: 'HotelH0009xy',
    email: 'rita.review@console.test',
    target: 'rita_review',
    orderStatus: 'Pending',
    fulfilmentState: 'needs_review',
    needsReview: true,
    reviewReason: 'The supplier did not answer clearly',
  },
  {
    key: 'I',
    code: 'IndiaI0010xy',
    email: 'carl.unpaid@console.test',
    target: 'carl_unpaid',
    orderStatus: 'Pending',
    paymentStatus: 'created',
  },
  {
    key: 'J',
    code: 'JulietJ011xy',
    email: 'dana.declined@console.test',
    target: 'dana_declined',
    orderStatus: 'Pending',
    paymentStatus: 'fail',
    errorMessage: 'Payment failed: card declined',
  },
  {
    key: 'K',
    code: 'KiloK00012xy',
    email: 'ed.expired@console.test',
    target: 'ed_expired',
    orderStatus: 'Pending',
    paymentStatus: 'expired',
  },
  // Not a state checkout produces, but the filter's rule: an unpaid order counts as Pending.
  {
    key: 'L',
    code: 'LimaL00013xy',
    email: 'odd.case@console.test',
    target: 'odd_case',
    orderStatus: 'Processing',
    paymentStatus: 'created',
  },
  {
    key: 'M',
    code: 'MikeM00014xy',
    email: '-minus@console.test',
    target: NASTY_TARGET,
    orderStatus: 'Completed',
    fulfilmentState: 'submitted',
    supplierOrderId: '9014',
    errorMessage: '+cmd|calc',
    needsReview: true,
    reviewReason: '@SUM(A1)',
  },
  {
    key: 'N',
    code: 'NovemberN15x',
    email: 'fresh.paid@console.test',
    target: 'fresh_paid',
    orderStatus: 'Pending',
    fulfilmentState: 'none',
  },
  {
    key: 'O',
    code: 'OscarO0016xy',
    email: 'percent%under_score@console.test',
    target: 'a_b',
    orderStatus: 'Completed',
    fulfilmentState: 'submitted',
    supplierOrderId: '9016',
  },
  {
    key: 'P',
    code: 'PapaP00017xy',
    email: 'multi.line@console.test',
    target: MULTILINE_TARGET,
    orderStatus: 'Completed',
    fulfilmentState: 'submitted',
    supplierOrderId: '9017',
  },
];

const SERVICES = {
  'Instagram Followers': { slug: 'instagram-followers', kind: 'instagram_username' },
  'YouTube Views': { slug: 'youtube-views', kind: 'youtube_video_url' },
  'TikTok Followers': { slug: 'tiktok-followers', kind: 'tiktok_username' },
} as const;

const BASE_TIME = Date.UTC(2030, 0, 1);
const createdAt = (index: number) => new Date(BASE_TIME + index * 60_000).toISOString();
const pid = (spec: Spec) => `order_${spec.code}`;

/** Parses RFC 4180 text (quoted fields, doubled quotes, CRLF records). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += ch;
  }
  if (field || record.length) records.push([...record, field]);
  return records;
}

describe('CSV cells', () => {
  it('quotes every cell per RFC 4180 and defuses formulas in every cell', () => {
    expect(csvCell('plain')).toBe('"plain"');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=1+2')).toBe(`"'=1+2"`);
    expect(csvCell('+1')).toBe(`"'+1"`);
    expect(csvCell('-1')).toBe(`"'-1"`);
    expect(csvCell('@cmd')).toBe(`"'@cmd"`);
    expect(csvCell('\tx')).toBe(`"'\tx"`);
    expect(csvCell('\r=x')).toBe(`"'\r=x"`);
    expect(csvCell('  =1+2')).toBe(`"'  =1+2"`);
    expect(csvCell('＝1+2')).toBe(`"'＝1+2"`);
    expect(csvCell('=A1,"x"')).toBe('"\'=A1,""x"""');
    expect(csvCell(12.5)).toBe('"12.5"');
    expect(csvCell(-3)).toBe('"-3"');
    expect(csvCell(null)).toBe('""');
    expect(csvLine(['a', 1, null])).toBe('"a","1",""\r\n');
    expect(csvLine(['ok', '=2*3', 'x', '@A1'])).toBe(`"ok","'=2*3","x","'@A1"\r\n`);
  });
});

describe.each(dialects)('admin orders console on %s', (dialect) => {
  let t: TestApp;
  let panel: FakeSmmPanel;
  let token = '';
  let adminId = 0;
  const ids = new Map<string, number>();

  beforeAll(async () => {
    panel = await startFakeSmmPanel({ key: 'console-key' });
    t = await startTestApp(dialect, {
      // Sandbox payments with a (fake) real panel: the opt-in decision 014 asks for.
      env: { SMM_PANEL_URL: panel.url, SMM_PANEL_KEY: 'console-key', SANDBOX_PAYMENTS: 'allow' },
    });

    const email = 'console.admin@example.com';
    const password = 'a long enough admin password';
    adminId = (await t.store.adminAuth.createAdmin(email, password)).id;
    // Every login needs a second factor (decision 016): the helper goes through it.
    token = await adminToken(t, { email, password }, '10.77.0.1');

    for (const [index, spec] of SPECS.entries()) {
      const service = SERVICES[spec.service ?? 'Instagram Followers'];
      const paymentStatus = spec.paymentStatus ?? 'paid';
      const at = createdAt(index);
      const { id } = await t.database.db
        .insertInto('orders')
        .values({
          provider: 'razorpay',
          provider_order_id: pid(spec),
          client_order_id: String(100_000 + index),
          email: spec.email,
          service_slug: service.slug,
          service_name: spec.service ?? 'Instagram Followers',
          plan_type: 'Standard',
          quantity: spec.quantity ?? 1000,
          target: spec.target,
          target_kind: service.kind,
          comment: null,
          supplier_service_id: '1',
          price_e4: 129_900,
          amount_e4: 129_900,
          currency: 'USD',
          payment_status: paymentStatus,
          order_status: spec.orderStatus,
          payment_id: paymentStatus === 'paid' ? `pay_${spec.code}` : null,
          needs_review: spec.needsReview ? 1 : 0,
          review_reason: spec.reviewReason ?? null,
          error_message: spec.errorMessage ?? null,
          created_at: at,
          updated_at: at,
          paid_at: paymentStatus === 'paid' ? at : null,
          supplier_order_id: spec.supplierOrderId ?? null,
          fulfilment_state: spec.fulfilmentState ?? 'none',
          remains: spec.remains ?? null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.set(spec.key, id);
      // Every order at the supplier has its supplier order (decision 012), as submit writes it.
      if (spec.supplierOrderId) {
        await t.database.db
          .insertInto('supplier_orders')
          .values({
            order_id: id,
            supplier_order_id: spec.supplierOrderId,
            quantity: spec.quantity ?? 1000,
            status: spec.orderStatus === 'Pending' ? 'Processing' : spec.orderStatus,
            remains: spec.remains ?? null,
            final: ['Completed', 'Partial', 'Canceled'].includes(spec.orderStatus) ? 1 : 0,
            created_at: at,
          })
          .execute();
      }
    }
  });
  afterAll(async () => {
    await t?.close();
    await panel?.close();
  });

  const auth = () => ({ authorization: `Bearer ${token}` });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: auth() });
  const post = (url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, headers: auth() });
  const list = async (query: Record<string, string | number> = {}) => {
    const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    const response = await get(`/api/order/all-orders?${search}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const keysOf = (rows: { razorPayOrderId: string }[]) =>
    rows.map((r) => SPECS.find((s) => pid(s) === r.razorPayOrderId)?.key ?? r.razorPayOrderId);
  /** Dataset keys, newest first, that satisfy a predicate. */
  const expected = (keep: (spec: Spec) => boolean) =>
    [...SPECS]
      .reverse()
      .filter(keep)
      .map((s) => s.key);
  const isPending = (s: Spec) => s.orderStatus === 'Pending' || (s.paymentStatus ?? 'paid') === 'created';
  const order = (key: string) =>
    t.database.db.selectFrom('orders').selectAll().where('id', '=', ids.get(key)!).executeTakeFirstOrThrow();
  const events = async (key: string) =>
    t.database.db.selectFrom('order_events').selectAll().where('order_id', '=', ids.get(key)!).orderBy('id').execute();
  const addRequests = () => panel.requests.filter((r) => r.form.action === 'add');

  describe('list', () => {
    it('lists every order newest first, in the spec’s row shape, with exact counts', async () => {
      const body = await list();
      expect(body).toMatchObject({
        isSuccessful: true,
        count: SPECS.length,
        totalPages: 1,
        currentPage: 1,
        countExact: true,
      });
      expect(keysOf(body.data)).toEqual(expected(() => true));
      const a = body.data.find((r: { razorPayOrderId: string }) => r.razorPayOrderId === pid(SPECS[0]));
      expect(a).toEqual({
        razorPayOrderId: 'order_ZqAlpha0001xy',
        orderId: 'ZqAlpha0001xy',
        orderDate: createdAt(0),
        email: 'jane.doe@console.test',
        serviceName: 'Instagram Followers',
        name: 'jane_doe_fit',
        quantity: 1000,
        price: 12.99,
        currency: 'USD',
        paymentStatus: 'paid',
        orderStatus: 'Completed',
        supplierOrderId: '9001',
        errorMessage: null,
        needsReview: false,
        reviewReason: null,
        fulfilmentState: 'submitted',
        // The state and the kind in words (decision 057); a one-off order has no subscription.
        fulfilmentText: 'With the supplier',
        kind: 'package',
        kindLabel: 'One-off package',
        subscription: null,
        // The method and provider in words, and the method's price change (none for cards by default).
        paymentMethod: 'Card',
        paymentProvider: 'Razorpay',
        methodAdjustment: 0,
        pendingAction: null,
        canReorder: false,
        canApplyService: false,
      });
      const flags = Object.fromEntries(
        body.data.map((r: { razorPayOrderId: string; canReorder: boolean; canApplyService: boolean }) => [
          keysOf([r])[0],
          [r.canReorder, r.canApplyService],
        ]),
      );
      expect(flags).toMatchObject({
        A: [false, false],
        F: [false, false],
        I: [false, false],
        J: [false, false],
        // Partial: finished, and its undelivered share refunded (decision 012).
        D: [false, false],
        G: [true, true],
        H: [true, true],
        N: [true, true],
        E: [true, false],
      });
    });

    it('pages through the list (both halves) and clamps the page size', async () => {
      const all = expected(() => true);
      const pages: string[] = [];
      const totalPages = Math.ceil(all.length / 4);
      for (let page = 1; page <= totalPages; page += 1) {
        const body = await list({ size: 4, page });
        expect(body).toMatchObject({ count: all.length, totalPages, currentPage: page });
        pages.push(...keysOf(body.data));
      }
      expect(pages).toEqual(all);
      const beyond = await list({ size: 4, page: 99 });
      expect(beyond).toMatchObject({ data: [], count: all.length, totalPages, currentPage: 99 });
      const clamped = await list({ size: 5000 });
      expect(clamped.data).toHaveLength(all.length);
      expect(clamped.totalPages).toBe(1);
      expect((await list({ page: '', size: '' })).currentPage).toBe(1);
      expect((await get('/api/order/all-orders?page=0')).statusCode).toBe(400);
    });

    it('filters by each of the six statuses, case-insensitively; Pending includes unpaid orders', async () => {
      const cases: [string, (s: Spec) => boolean][] = [
        ['completed', (s) => s.orderStatus === 'Completed'],
        ['IN PROGRESS', (s) => s.orderStatus === 'In Progress'],
        ['in-progress', (s) => s.orderStatus === 'In Progress'],
        ['Partial', (s) => s.orderStatus === 'Partial'],
        ['processing', (s) => s.orderStatus === 'Processing'],
        ['CANCELED', (s) => s.orderStatus === 'Canceled'],
        ['pending', isPending],
      ];
      for (const [status, keep] of cases) {
        const body = await list({ status });
        expect(keysOf(body.data), status).toEqual(expected(keep));
        expect(body.count, status).toBe(expected(keep).length);
      }
      expect(keysOf((await list({ status: 'Pending' })).data)).toContain('L');
      const pendingPages = [
        ...keysOf((await list({ status: 'Pending', size: 3 })).data),
        ...keysOf((await list({ status: 'Pending', size: 3, page: 2 })).data),
      ];
      expect(pendingPages).toEqual(expected(isPending).slice(0, 6));
      const bad = await get('/api/order/all-orders?status=Shipped');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({
        isSuccessful: false,
        message: 'status must be one of Completed, In Progress, Partial, Processing, Canceled, Pending',
      });
    });

    it('searches order ids, e-mails, targets and service names as case-insensitive substrings', async () => {
      const search = async (keyword: string, status?: string) =>
        keysOf((await list(status ? { keyword, status } : { keyword })).data);
      expect(await search('JANE.DOE')).toEqual(['A']);
      expect(await search('  jane.doe  ')).toEqual(['A']);
      expect(await search('spidey')).toEqual(['D']);
      expect(await search('youtube views')).toEqual(['B']);
      expect(await search('watch?v=abcdefg')).toEqual(['B']);
      expect(await search('tiktok')).toEqual(['C']);
      expect(await search('order_ZqAlpha0001xy')).toEqual(['A']);
      expect(await search('ZqAlpha0001xy')).toEqual(['A']);
      expect(await search('alpha0001')).toEqual(['A']);
      expect(await search('percent%under')).toEqual(['O']);
      expect(await search('a_b')).toEqual(['O']);
      expect(await search('"quoted"')).toEqual(['P']);
      expect(await search('console.test', 'completed')).toEqual(expected((s) => s.orderStatus === 'Completed'));
      expect(await search('console.test', 'pending')).toEqual(expected(isPending));
      const none = await list({ keyword: 'nothing-like-this' });
      expect(none).toMatchObject({
        data: [],
        count: 0,
        totalPages: 0,
        currentPage: 1,
        countExact: true,
        message: 'No orders found',
      });
      const paged = await list({ keyword: 'console.test', size: 5, page: 2 });
      expect(paged).toMatchObject({ count: SPECS.length, totalPages: Math.ceil(SPECS.length / 5), countExact: true });
      expect(keysOf(paged.data)).toEqual(expected(() => true).slice(5, 10));
    });

    it('matches one- and two-character keywords as a prefix of the order id or e-mail', async () => {
      const search = async (keyword: string) => keysOf((await list({ keyword })).data);
      expect(await search('jo')).toEqual(['B']); // john.smith, not mary.jones
      expect(await search('ZQ')).toEqual(['A']); // order_ZqAlpha…, with or without the prefix
      expect(await search('-')).toEqual(['M']);
      expect(await search('q')).toEqual([]);
    });

    it('finds an order placed through checkout at once, and counts it as Pending until paid', async () => {
      const followers = catalogueSeed.groups[0].services[0];
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/order',
        remoteAddress: '10.78.0.1',
        payload: {
          type: 'Standard',
          slug: followers.slug,
          qty: followers.plans[0].tiers[0].qty,
          name: 'fresh.buyer.console',
          email: 'Fresh.Buyer@Checkout.test',
          order_id: '424242',
        },
      });
      expect(created.statusCode, created.body).toBe(200);
      const providerId = created.json().data.razorpay_order_id as string;
      const before = (await list({ status: 'Pending' })).count;
      const found = await list({ keyword: 'FRESH.BUYER@checkout' });
      expect(found.data.map((r: { razorPayOrderId: string }) => r.razorPayOrderId)).toEqual([providerId]);
      expect(found.data[0]).toMatchObject({ paymentStatus: 'created', orderStatus: 'Pending', canReorder: false });
      expect(keysOf((await list({ keyword: 'fresh.buyer.console' })).data)).toEqual([providerId]);

      const paid = (
        await t.app.inject({
          method: 'POST',
          url: '/api/sandbox/pay',
          payload: { razorpay_order_id: providerId },
          remoteAddress: '10.78.0.2',
        })
      ).json().data;
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/order/verify-payment',
            payload: paid,
            remoteAddress: '10.78.0.3',
          })
        ).statusCode,
      ).toBe(200);
      expect((await list({ keyword: providerId })).data[0]).toMatchObject({
        paymentStatus: 'paid',
        orderStatus: 'Pending',
        canReorder: true,
      });
      expect((await list({ status: 'Pending' })).count).toBe(before); // still Pending: paid, not yet at the supplier
      expect((await list()).count).toBe(SPECS.length + 1);

      // The paid event's subscribers queue the receipt (one batch of the worker: that event's job).
      await t.store.worker.runOnce();
      const detail = (await get(`/api/order/detail/${providerId.replace(/^order_/, '')}`)).json().data;
      expect(detail.timeline.map((e: { kind: string }) => e.kind)).toEqual(['order.created', 'payment.paid']);
      expect(detail.emails).toHaveLength(1);
      expect(detail.emails[0]).toMatchObject({
        dedupeKey: `receipt:${detail.order.id}`,
        to: 'fresh.buyer@checkout.test',
        status: 'pending',
        attempts: 0,
      });
      expect(detail.emails[0].subject).toEqual(expect.any(String));
      // Out of the way of the remaining tests, which count the dataset alone (and its queued work).
      await t.database.db.deleteFrom('orders').where('provider_order_id', '=', providerId).execute();
      await t.database.db.deleteFrom('jobs').where('status', '=', 'pending').execute();
    });

    it('gives the same answers when forced onto the walk paths, with exact or estimated counts', async () => {
      const small = createOrdersConsole({ db: t.database.db });
      const walking = createOrdersConsole({
        db: t.database.db,
        limits: { smallResult: 1, statusScanLimit: 1 },
      });
      const exactCounts = createOrdersConsole({
        db: t.database.db,
        limits: { smallResult: 1, statusScanLimit: 1000 },
      });
      const queries = [
        { keyword: 'console.test' },
        { keyword: 'console.test', status: 'Pending' },
        { keyword: 'console.test', status: 'completed', size: 2, page: 2 },
        { keyword: 'console.test', size: 4, page: 3 },
        { keyword: 'console.test', size: 4, page: 5 },
        { keyword: 'instagram followers', status: 'pending', size: 2 },
        { keyword: 'c' },
        { keyword: 'o' },
      ];
      for (const query of queries) {
        const reference = await small.list(query);
        const walked = await walking.list(query);
        expect(walked.rows, JSON.stringify(query)).toEqual(reference.rows);
        if (walked.countExact) expect(walked.count, JSON.stringify(query)).toBe(reference.count);
        else expect(walked.count).toBeGreaterThanOrEqual(walked.rows.length);
        if (query.status) {
          const counted = await exactCounts.list(query);
          expect(counted).toMatchObject({ count: reference.count, countExact: true });
        }
      }
      // A partly filled page is the last one: its count is exact even on the walk path.
      const last = await walking.list({ keyword: 'console.test', size: 5, page: 4 });
      expect(last).toMatchObject({ count: SPECS.length, countExact: true });
      expect(last.rows).toHaveLength(SPECS.length - 15);
    });
  });

  describe('detail', () => {
    it('shows the order with its timeline (oldest first, parsed) and the e-mails sent for it', async () => {
      const a = ids.get('A')!;
      const b = ids.get('B')!;
      await t.database.db
        .insertInto('order_events')
        .values([
          {
            order_id: a,
            at: '2030-01-02T00:00:00.000Z',
            kind: 'status.changed',
            detail_json: JSON.stringify({ from: 'In Progress', to: 'Completed' }),
          },
          {
            order_id: a,
            at: '2030-01-01T00:00:00.000Z',
            kind: 'order.created',
            detail_json: JSON.stringify({ provider: 'razorpay' }),
          },
          { order_id: b, at: '2030-01-01T00:00:00.000Z', kind: 'order.created', detail_json: '{}' },
        ])
        .execute();
      const job = (
        dedupeKey: string,
        status: JobStatus,
        attempts: number,
        lastError: string | null,
        subject: string,
        kind = 'mail.send',
      ) => ({
        kind,
        payload_json: JSON.stringify({ to: 'jane.doe@console.test', subject, text: 'x', html: '<p>x</p>' }),
        dedupe_key: dedupeKey,
        status,
        attempts,
        max_attempts: 8,
        run_at: '2030-01-01T00:00:00.000Z',
        last_error: lastError,
        created_at: `2030-01-01T00:0${attempts}:00.000Z`,
        updated_at: '2030-01-01T00:10:00.000Z',
      });
      await t.database.db
        .insertInto('jobs')
        .values([
          job(`receipt:${a}`, 'done', 1, null, 'Your Boostly receipt'),
          job(`status-mail:${a}:Completed`, 'failed', 3, 'SMTP 550 mailbox unavailable', 'Your order is complete'),
          job(`status-mail:${b}:Completed`, 'done', 1, null, 'Not this order'),
          job(`fulfil:${a}`, 'done', 1, null, 'not a mail', 'order.fulfil'),
        ])
        .execute();

      for (const idForm of ['ZqAlpha0001xy', 'order_ZqAlpha0001xy']) {
        const response = await get(`/api/order/detail/${idForm}`);
        expect(response.statusCode).toBe(200);
        const { data } = response.json();
        expect(data.order).toMatchObject({
          id: a,
          razorPayOrderId: 'order_ZqAlpha0001xy',
          orderStatus: 'Completed',
          paymentId: 'pay_ZqAlpha0001xy',
          listPrice: 12.99,
        });
        expect(data.timeline).toEqual([
          { at: '2030-01-01T00:00:00.000Z', kind: 'order.created', detail: { provider: 'razorpay' } },
          { at: '2030-01-02T00:00:00.000Z', kind: 'status.changed', detail: { from: 'In Progress', to: 'Completed' } },
        ]);
        expect(data.emails).toEqual([
          expect.objectContaining({
            dedupeKey: `receipt:${a}`,
            subject: 'Your Boostly receipt',
            status: 'done',
            attempts: 1,
            lastError: null,
            to: 'jane.doe@console.test',
          }),
          expect.objectContaining({
            dedupeKey: `status-mail:${a}:Completed`,
            subject: 'Your order is complete',
            status: 'failed',
            attempts: 3,
            lastError: 'SMTP 550 mailbox unavailable',
          }),
        ]);
      }
      const missing = await get('/api/order/detail/NoSuchOrder');
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ isSuccessful: false, message: 'Order not found' });
    });
  });

  describe('CSV export', () => {
    it('streams the filtered list as RFC 4180 CSV with formulas defused', async () => {
      const response = await get('/api/order/all-orders.csv?keyword=console.test');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="orders-${new Date().toISOString().slice(0, 10)}.csv"`,
      );
      expect(response.headers['cache-control']).toBe('private, no-store');
      const body = response.body;
      expect(body.endsWith('\r\n')).toBe(true);
      const records = parseCsv(body);
      expect(records[0]).toEqual(CSV_HEADER);
      const rows = records.slice(1);
      expect(rows.map((r) => r[1])).toEqual(expected(() => true).map((key) => pid(SPECS.find((s) => s.key === key)!)));
      const m = rows.find((r) => r[0] === 'MikeM00014xy')!;
      expect(m[3]).toBe("'-minus@console.test");
      expect(m[5]).toBe(`'${NASTY_TARGET}`);
      expect(m[12]).toBe("'+cmd|calc");
      expect(m[13]).toBe('yes');
      expect(m[14]).toBe("'@SUM(A1)");
      expect(body).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
      const p = rows.find((r) => r[0] === 'PapaP00017xy')!;
      expect(p[5]).toBe(MULTILINE_TARGET);
      expect(body).toContain('"first line\nsecond, ""quoted"" line"');
      expect(rows.find((r) => r[0] === 'ZqAlpha0001xy')).toEqual([
        'ZqAlpha0001xy',
        'order_ZqAlpha0001xy',
        createdAt(0),
        'jane.doe@console.test',
        'Instagram Followers',
        'jane_doe_fit',
        '1000',
        '12.99',
        'USD',
        'paid',
        'Completed',
        '9001',
        '',
        'no',
        '',
        'With the supplier',
        'Razorpay',
        'Card',
        '0',
        'One-off package',
      ]);

      const completed = parseCsv((await get('/api/order/all-orders.csv?status=completed')).body).slice(1);
      expect(completed.map((r) => r[0])).toEqual(
        expected((s) => s.orderStatus === 'Completed').map((key) => SPECS.find((s) => s.key === key)!.code),
      );
      expect((await get('/api/order/all-orders.csv?status=Shipped')).statusCode).toBe(400);
    });

    it('reads in keyset batches on every path and yields the list’s rows in the list’s order', async () => {
      const tiny = createOrdersConsole({
        db: t.database.db,
        limits: { exportBatch: 2, smallResult: 1 },
      });
      const reference = createOrdersConsole({ db: t.database.db });
      for (const query of [
        {},
        { status: 'Pending' },
        { keyword: 'console.test' },
        { keyword: 'console.test', status: 'pending' },
        { keyword: 'jo' },
      ]) {
        const lines: string[] = [];
        for await (const line of tiny.exportCsv(query)) lines.push(line);
        const listed = await reference.list({ ...query, size: 100 });
        expect(
          lines.slice(1).map((l) => parseCsv(l)[0][1]),
          JSON.stringify(query),
        ).toEqual(listed.rows.map((r) => r.razorPayOrderId));
      }
    });
  });

  describe('reorder and apply-service', () => {
    /** Runs the jobs worker until nothing is left to claim (the admin actions' jobs among them). */
    const drainJobs = async () => {
      for (let round = 0; round < 20 && (await t.store.worker.runOnce()) > 0; round += 1);
    };
    const row = async (key: string): Promise<ConsoleRow> => {
      const body = await list({ keyword: pid(SPECS.find((s) => s.key === key)!) });
      expect(body.data, key).toHaveLength(1);
      return ConsoleRowSchema.parse(body.data[0]);
    };
    const actionJobs = (key: string) =>
      t.database.db
        .selectFrom('jobs')
        .select(['kind', 'dedupe_key', 'status'])
        .where('dedupe_key', 'like', `admin.%:${ids.get(key)!}:%`)
        .execute();

    it('refuses finished, unpaid and unknown orders with the reason', async () => {
      const before = addRequests().length;
      for (const [key, message] of [
        ['A', ORDER_ACTION_REFUSALS.completed],
        ['F', ORDER_ACTION_REFUSALS.canceled],
        ['D', ORDER_ACTION_REFUSALS.partial],
        ['I', ORDER_ACTION_REFUSALS.unpaid],
        ['J', ORDER_ACTION_REFUSALS.unpaid],
      ] as const) {
        const response = await post('/api/order/reorder', {
          razorpay_order_id: pid(SPECS.find((s) => s.key === key)!),
        });
        expect(response.statusCode, key).toBe(409);
        expect(response.json()).toEqual({ isSuccessful: false, message });
      }
      const unknown = await post('/api/order/reorder', { razorpay_order_id: 'order_nope' });
      expect(unknown.statusCode).toBe(404);
      expect((await post('/api/order/reorder', {})).statusCode).toBe(400);
      expect(addRequests()).toHaveLength(before);
    });

    it('queues a reorder: 202 at once, the row pending (one job however often it is asked), then sent once', async () => {
      const before = addRequests().length;
      const response = await post('/api/order/reorder', { razorpay_order_id: 'GolfG00007xy' });
      expect(response.statusCode, response.body).toBe(202);
      expect(response.json()).toEqual({
        isSuccessful: true,
        message: 'Successfully reordered !',
        data: { state: 'pending', action: 'reorder', attempt: 1 },
      });
      // Nothing went to the supplier inside the request.
      expect(addRequests()).toHaveLength(before);
      expect(await row('G')).toMatchObject({ pendingAction: 'reorder', canReorder: false, canApplyService: false });
      const detail = (await get('/api/order/detail/GolfG00007xy')).json().data;
      expect(detail.order.pendingAction).toBe('reorder');

      // A double click, and the other action meanwhile: the same attempt, no second job.
      const again = await post('/api/order/reorder', { razorpay_order_id: 'order_GolfG00007xy' });
      expect(again.statusCode, again.body).toBe(202);
      expect(again.json().data).toEqual({ state: 'pending', action: 'reorder', attempt: 1 });
      const other = await post('/api/order/apply-service', { razorpay_order_id: 'order_GolfG00007xy' });
      expect(other.statusCode).toBe(409);
      expect(other.json().message).toBe(ORDER_ACTION_REFUSALS.pending);
      expect(await actionJobs('G')).toEqual([
        { kind: 'admin.reorder', dedupe_key: `admin.reorder:${ids.get('G')}:1`, status: 'pending' },
      ]);

      await drainJobs();
      const sent = addRequests().slice(before);
      expect(sent).toHaveLength(1);
      expect(sent[0].form).toMatchObject({ service: '1', link: 'alex_failed', quantity: '1000' });
      const after = await row('G');
      expect(after).toMatchObject({
        pendingAction: null,
        fulfilmentState: 'submitted',
        orderStatus: 'Processing',
        errorMessage: null,
        supplierOrderId: expect.stringMatching(/^\d+$/),
      });
      const timeline = await events('G');
      expect(timeline.map((e) => e.kind)).toEqual(
        expect.arrayContaining(['admin.reorder', 'supplier.submitted', 'admin.action_done']),
      );
      expect(timeline[0].kind).toBe('admin.reorder');
      expect(JSON.parse(timeline[0].detail_json)).toMatchObject({
        adminId,
        attempt: 1,
        orderStatus: 'Pending',
        fulfilmentState: 'failed',
      });
    });

    it('cancels a live supplier order before sending the undelivered rest: never two live ones', async () => {
      // E is Processing at the supplier (9005), which has delivered 400 of 1000.
      panel.setOrder('9005', { status: 'In progress', quantity: 1000, remains: '600', link: 'lisa.axb' });
      const before = panel.requests.length;
      const response = await post('/api/order/reorder', { razorpay_order_id: 'EchoE00005xy' });
      expect(response.statusCode, response.body).toBe(202);
      expect(await row('E')).toMatchObject({ pendingAction: 'reorder', canReorder: false });

      await drainJobs();
      const calls = panel.requests.slice(before).map((r) => `${r.form.action}:${r.form.orders ?? r.form.quantity}`);
      const cancelAt = calls.indexOf('cancel:9005');
      const addAt = calls.findIndex((c) => c.startsWith('add:'));
      expect(cancelAt, calls.join(' ')).toBeGreaterThanOrEqual(0);
      expect(addAt, calls.join(' ')).toBeGreaterThan(cancelAt);
      expect(calls[addAt]).toBe('add:600');
      const supplierOrders = await t.database.db
        .selectFrom('supplier_orders')
        .select(['supplier_order_id', 'final'])
        .where('order_id', '=', ids.get('E')!)
        .orderBy('id')
        .execute();
      expect(supplierOrders.filter((o) => o.final === 0)).toHaveLength(1);
      expect(supplierOrders[0]).toEqual({ supplier_order_id: '9005', final: 1 });
      expect(await row('E')).toMatchObject({
        pendingAction: null,
        supplierOrderId: supplierOrders[1].supplier_order_id,
      });
    });

    it('ends the action with the supplier’s refusal on the row and the timeline', async () => {
      panel.failNextAdd('Link is private');
      const response = await post('/api/order/reorder', { razorpay_order_id: 'order_GolfTwo0008x' });
      expect(response.statusCode, response.body).toBe(202);
      await drainJobs();
      expect(await row('G2')).toMatchObject({
        pendingAction: null,
        fulfilmentState: 'failed',
        errorMessage: 'Link is private',
        supplierOrderId: null,
        canReorder: true,
      });
      const last = (await events('G2')).at(-1)!;
      expect(last.kind).toBe('admin.action_failed');
      expect(JSON.parse(last.detail_json)).toMatchObject({ action: 'reorder', reason: 'Link is private' });
    });

    it('applies the service to an order flagged for review and to a paid order not yet sent', async () => {
      const before = addRequests().length;
      const reviewed = await post('/api/order/apply-service', { razorpay_order_id: 'order_HotelH0009xy' });
      expect(reviewed.statusCode, reviewed.body).toBe(202);
      expect(reviewed.json()).toEqual({
        isSuccessful: true,
        message: 'The order will be sent to the supplier',
        data: { state: 'pending', action: 'apply-service', attempt: 1 },
      });
      expect(await row('H')).toMatchObject({ pendingAction: 'apply-service', canApplyService: false });
      const fresh = await post('/api/order/apply-service', { razorpay_order_id: 'NovemberN15x' });
      expect(fresh.statusCode, fresh.body).toBe(202);

      await drainJobs();
      expect(addRequests().length - before).toBe(2);
      expect(await order('H')).toMatchObject({
        fulfilment_state: 'submitted',
        needs_review: 0,
        review_reason: null,
        order_status: 'Processing',
        pending_action: null,
      });
      const timeline = await events('H');
      expect(timeline[0].kind).toBe('admin.apply_service');
      expect(JSON.parse(timeline[0].detail_json)).toMatchObject({
        adminId,
        reviewReason: 'The supplier did not answer clearly',
      });
      expect(await row('N')).toMatchObject({ pendingAction: null, fulfilmentState: 'submitted' });
    });

    it('refuses apply-service for orders already at the supplier, final or unpaid', async () => {
      for (const [key, message] of [
        ['E', ORDER_ACTION_REFUSALS.alreadyAtSupplier],
        ['G', ORDER_ACTION_REFUSALS.alreadyAtSupplier], // sent by the reorder above
        ['B', ORDER_ACTION_REFUSALS.alreadyAtSupplier],
        ['I', ORDER_ACTION_REFUSALS.unpaid],
      ] as const) {
        expect((await row(key)).canApplyService, key).toBe(false);
        const response = await post('/api/order/apply-service', {
          razorpay_order_id: pid(SPECS.find((s) => s.key === key)!),
        });
        expect(response.statusCode, key).toBe(409);
        expect(response.json()).toEqual({ isSuccessful: false, message });
      }
    });

    it('never sends an order that is being sent right now', async () => {
      const current = await order('E');
      await t.database.db
        .updateTable('orders')
        .set({ fulfilment_state: 'submitting' })
        .where('id', '=', current.id)
        .execute();
      await expect(t.store.ordersConsole.reorder(current.provider_order_id)).rejects.toMatchObject({
        statusCode: 409,
        message: expect.stringMatching(/being sent/),
      });
      expect(await row('E')).toMatchObject({ canReorder: false, canApplyService: false });
      await t.database.db
        .updateTable('orders')
        .set({ fulfilment_state: current.fulfilment_state })
        .where('id', '=', current.id)
        .execute();
    });
    it('offers on each row exactly the actions the server accepts', async () => {
      const { data } = await list({ size: 100 });
      expect(data.length).toBeGreaterThan(10);
      for (const { razorPayOrderId } of data as ConsoleRow[]) {
        for (const action of ['reorder', 'apply-service'] as const) {
          // Read right before asking: an accepted action changes what the row allows.
          const offered = (await list({ keyword: razorPayOrderId })).data[0] as ConsoleRow;
          const response = await post(`/api/order/${action}`, { razorpay_order_id: razorPayOrderId });
          const accepted = response.statusCode === 202 && offered.pendingAction === null;
          expect(accepted, `${action} ${razorPayOrderId}: ${response.body}`).toBe(
            action === 'reorder' ? offered.canReorder : offered.canApplyService,
          );
        }
      }
    });
  });

  describe('counts and access', () => {
    it('keeps the per-status counters equal to the table through inserts, updates and deletes', async () => {
      const db = t.database.db;
      const actual = async () =>
        (
          await db
            .selectFrom('orders')
            .select(['order_status', 'payment_status', (eb) => eb.fn.countAll<number>().as('n')])
            .groupBy(['order_status', 'payment_status'])
            .execute()
        )
          .map((r) => `${r.order_status}|${r.payment_status}|${Number(r.n)}`)
          .sort();
      const counters = async () => {
        const { rows } = await sql<{
          order_status: string;
          payment_status: string;
          n: number;
        }>`select * from order_counts where n <> 0`.execute(db);
        return rows.map((r) => `${r.order_status}|${r.payment_status}|${Number(r.n)}`).sort();
      };
      expect(await counters()).toEqual(await actual());
      await db
        .updateTable('orders')
        .set({ order_status: 'Completed' })
        .where('order_status', '=', 'Processing')
        .execute();
      expect(await counters()).toEqual(await actual());
      // The retention purge deletes the five oldest dataset orders (and the counters follow).
      const before = (await list()).count;
      await purgeExpiredData(db, new Date(BASE_TIME + 730 * 86_400_000 + 5 * 60_000 - 1));
      expect((await list()).count).toBe(before - 5);
      expect(await counters()).toEqual(await actual());
      expect((await list()).count).toBe(
        Number(
          (
            await db
              .selectFrom('orders')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      );
    });

    it('keeps the search text right whatever a writer puts there', async () => {
      const db = t.database.db;
      const template = await order('N');
      const { id: _id, ...copy } = template;
      const { id } = await db
        .insertInto('orders')
        .values({
          ...copy,
          provider_order_id: 'order_CopiedRow01',
          client_order_id: '999001',
          payment_id: null,
          search_text: 'stale text',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const stored = async () =>
        (await db.selectFrom('orders').select('search_text').where('id', '=', id).executeTakeFirstOrThrow())
          .search_text;
      expect(await stored()).toBe('order_copiedrow01\nfresh.paid@console.test\nfresh_paid\ninstagram followers');
      await db.updateTable('orders').set({ target: 'New_Target' }).where('id', '=', id).execute();
      expect(await stored()).toBe('order_copiedrow01\nfresh.paid@console.test\nnew_target\ninstagram followers');
      expect(
        (await list({ keyword: 'new_targ' })).data.map((r: { razorPayOrderId: string }) => r.razorPayOrderId),
      ).toEqual(['order_CopiedRow01']);
      expect(
        (await list({ keyword: 'fresh_paid' })).data.map((r: { razorPayOrderId: string }) => r.razorPayOrderId),
      ).toEqual(['order_NovemberN15x']);
      await db.deleteFrom('orders').where('id', '=', id).execute();
      expect((await list({ keyword: 'new_targ' })).count).toBe(0);
    });

    it('answers in its contracts, which are also what the OpenAPI document declares', async () => {
      const listed = OrdersListReplySchema.parse(await list());
      expect(listed.data.length).toBeGreaterThan(0);
      const detail = await get(`/api/order/detail/${listed.data[0].orderId}`);
      expect(OrderDetailSchema.parse(detail.json().data).order.razorPayOrderId).toBe(listed.data[0].razorPayOrderId);

      const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
      const jsonOf = (route: string, method: string, status: string) =>
        doc.paths[route][method].responses[status].content['application/json'].schema;
      const row = jsonOf('/api/order/all-orders', 'get', '200').properties.data.items;
      expect(Object.keys(row.properties)).toEqual(Object.keys(ConsoleRowSchema.shape));
      expect(row.properties.orderStatus.enum).toEqual([...ORDER_STATUSES]);
      expect(row.properties.pendingAction.enum).toEqual([...PENDING_ACTIONS]);
      const order = jsonOf('/api/order/detail/{orderId}', 'get', '200').properties.data.properties.order;
      expect(Object.keys(order.properties)).toEqual(Object.keys(OrderDetailSchema.shape.order.shape));
      for (const route of ['/api/order/reorder', '/api/order/apply-service']) {
        expect(Object.keys(doc.paths[route].post.responses).sort(), route).toEqual([
          '202',
          '400',
          '401',
          '403',
          '404',
          '409',
        ]);
        expect(Object.keys(jsonOf(route, 'post', '202').properties.data.properties)).toEqual(
          Object.keys(OrderActionAcceptedSchema.shape),
        );
        expect(doc.paths[route].post.requestBody.content['application/json'].schema.required).toEqual([
          'razorpay_order_id',
        ]);
      }
    });

    it('answers 401 without a token on every route, before reading anything', async () => {
      const routes = [
        { method: 'GET' as const, url: '/api/order/all-orders?keyword=x&status=Completed' },
        { method: 'GET' as const, url: '/api/order/all-orders?page=not-a-number' },
        { method: 'GET' as const, url: '/api/order/all-orders.csv' },
        { method: 'GET' as const, url: '/api/order/detail/ZqAlpha0001xy' },
        { method: 'POST' as const, url: '/api/order/reorder', payload: { razorpay_order_id: 'order_GolfG00007xy' } },
        {
          method: 'POST' as const,
          url: '/api/order/apply-service',
          payload: { razorpay_order_id: 'order_NovemberN15x' },
        },
        { method: 'POST' as const, url: '/api/order/reorder', payload: {} },
      ];
      for (const route of routes) {
        const anonymous = await t.app.inject(route);
        expect(anonymous.statusCode, route.url).toBe(401);
        expect(anonymous.json()).toEqual({ isSuccessful: false, message: NO_TOKEN_MESSAGE });
        const forged = await t.app.inject({ ...route, headers: { authorization: 'Bearer not-a-real-token' } });
        expect(forged.statusCode, route.url).toBe(401);
        expect(forged.json()).toEqual({ isSuccessful: false, message: BAD_TOKEN_MESSAGE });
      }
    });
  });
});
