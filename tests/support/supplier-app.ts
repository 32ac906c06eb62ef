/**
 * The app the order-action suites share (reorder, refills, the audit of order actions): the real
 * store wired to the fake SMM panel over HTTP (selling the seeded followers tier) and to a fake
 * Razorpay for refunds, with the helpers each of them needs: the order row, running every due job,
 * a paid order placed through the real API and sent to the panel.
 */
import type { DialectName } from '../../db/database.ts';
import { catalogueSeed } from '../../core/catalogue/seed/catalogue-seed.ts';
import { type FakeRazorpay, startFakeRazorpay } from '../fakes/razorpay.ts';
import { type FakeSmmPanel, followersService, startFakeSmmPanel } from '../fakes/smm-panel.ts';
import { type TestApp, startTestApp } from './app.ts';
import { placePaidOrder } from './paid-order.ts';

const followers = catalogueSeed.groups[0].services[0];
const followersPlan = followers.plans[0];
/** The tier every suite sells: its supplier service is the one the fake panel lists. */
export const followersTier = followersPlan.tiers[2];

interface SupplierApp {
  t: TestApp;
  panel: FakeSmmPanel;
  razorpay: FakeRazorpay;
}

interface SupplierAppKeys {
  panelKey: string;
  razorpay: { keyId: string; keySecret: string; webhookSecret: string };
}

export async function startSupplierApp(dialect: DialectName, keys: SupplierAppKeys): Promise<SupplierApp> {
  const panel = await startFakeSmmPanel({ key: keys.panelKey });
  panel.services.push(followersService(followersTier.supplierServiceId, { min: '1' }));
  const razorpay = await startFakeRazorpay(keys.razorpay);
  const t = await startTestApp(dialect, {
    env: {
      SMM_PANEL_URL: panel.url,
      SMM_PANEL_KEY: keys.panelKey,
      RAZORPAY_KEY_ID: keys.razorpay.keyId,
      RAZORPAY_KEY_SECRET: keys.razorpay.keySecret,
      RAZORPAY_API_URL: razorpay.url,
    },
  });
  return { t, panel, razorpay };
}

export async function closeSupplierApp(app: Partial<SupplierApp>): Promise<void> {
  await app.t?.close();
  await Promise.all([app.panel?.close(), app.razorpay?.close()]);
}

/** The panel as each test expects it: answering, accepting refills and cancels, cancelling at once. */
export function resetPanel(panel: FakeSmmPanel): void {
  panel.setMode('normal');
  panel.refuseRefill(null);
  panel.refuseCancel(null);
  panel.cancelAtOnce(true);
}

interface OrderHelperOptions {
  /** Buyers' names are `<prefix>.<n>`, their addresses in 10.<subnet>.x.y (suites must not share). */
  namePrefix: string;
  subnet: number;
  /** The first order's sequence number (unique per suite: it picks the browser's order id). */
  firstSequence: number;
}

/** The order helpers, over an app started in `beforeAll` (read when called, not when made). */
export function orderHelpers(app: () => SupplierApp, options: OrderHelperOptions) {
  let sequence = options.firstSequence;
  const db = () => app().t.database.db;
  const order = (id: number) => db().selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** Runs every due job now (events, mail, fulfilment, admin actions, refunds); `check` after each round. */
  async function drainJobs(check?: () => Promise<void>) {
    for (;;) {
      await db()
        .updateTable('jobs')
        .set({ run_at: new Date(0).toISOString() })
        .where('status', '=', 'pending')
        .execute();
      const ran = await app().t.store.worker.runOnce();
      if (check) await check();
      if (ran === 0) return;
    }
  }

  /** A paid order through the real API, sent to the panel; returns its row id. */
  async function paidOrder(check?: (id: number) => Promise<void>): Promise<number> {
    sequence += 1;
    const id = await placePaidOrder(app().t, app().razorpay, {
      sequence,
      name: `${options.namePrefix}.${sequence}`,
      type: followersPlan.type,
      slug: followers.slug,
      qty: followersTier.qty,
      subnet: options.subnet,
    });
    await drainJobs(check ? () => check(id) : undefined);
    return id;
  }

  return { db, order, drainJobs, paidOrder };
}
