/**
 * Subscriptions in the browser, on a store of its own (its catalogue is changed and its orders
 * are set up in its database, as the checkout, payment and status sync would have left them):
 * the owner's Subscriptions filter in all orders, the order detail's "Cancel subscription" that
 * asks first (saying what the rule refunds) and only then calls the cancel route, and a renewal
 * link from the reminder e-mail opening the order page for the same package with the account
 * filled in.
 */
import path from 'node:path';
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { renewalTokenHash } from '../../core/subscriptions/renewal-tokens.ts';
import { DAY_MS } from '../../core/subscriptions/terms.ts';
import { openDatabase } from '../../db/database.ts';
import type { ServiceKind } from '../../db/column-values.ts';
import { TOKEN_KEY } from './support/admin.ts';
import { plan, service } from './support/catalogue.ts';
import { type OwnStore, startOwnStore } from './support/own-store.ts';
import { gotoHydrated } from './support/page.ts';

const OWNER = 'subscriptions-owner@boostly.test';
const followers = service('instagram-followers');
const standard = plan(followers.slug, 'Standard');
const tierQty = standard.tiers[0]?.qty ?? 0;
/** The renewal link's token the reminder e-mail would carry (43 base64url characters). */
const RENEWAL_TOKEN = 'e2eRenewalToken0123456789abcdefghijklmnopqr';

let store: OwnStore | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  store = await startOwnStore('subscriptions');
});

test.afterAll(async () => {
  await store?.stop();
});

function withDatabase<T>(run: (db: ReturnType<typeof openDatabase>['db']) => Promise<T>): Promise<T> {
  if (!store) throw new Error('the store is not running');
  const handle = openDatabase({ sqlitePath: path.join(store.dataDir, 'store.db') });
  return run(handle.db).finally(() => handle.close());
}

let sequence = 0;

/** A paid order of `kind` with its subscription's period as the sync records it. */
async function insertOrder(
  code: string,
  kind: ServiceKind,
  options: { endsInDays?: number; postsServed?: number; tokenHash?: string } = {},
) {
  sequence += 1;
  const now = Date.now();
  const at = new Date(now - (50 - sequence) * 60_000).toISOString();
  const target = `e2e.${code.toLowerCase()}`;
  await withDatabase(async (db) => {
    const { id } = await db
      .insertInto('orders')
      .values({
        provider: 'sandbox',
        provider_order_id: `order_${code}`,
        client_order_id: String(700000 + sequence),
        email: `${code.toLowerCase()}@subs-e2e.test`,
        service_slug: followers.slug,
        service_name: followers.name,
        plan_type: standard.type,
        quantity: tierQty,
        target,
        target_kind: 'instagram_username',
        comment: null,
        supplier_service_id: '1',
        price_e4: 100_000,
        amount_e4: 100_000,
        currency: 'USD',
        payment_status: 'paid',
        order_status: 'In Progress',
        fulfilment_state: 'submitted',
        payment_id: `pay_${code}`,
        review_reason: null,
        error_message: null,
        created_at: at,
        updated_at: at,
        paid_at: at,
        kind,
        lane_key: `new-posts:instagram_username:${target}`,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (kind === 'package') return;
    const endsInDays = options.endsInDays ?? 18;
    await db
      .insertInto('subscriptions')
      .values({
        order_id: id,
        kind,
        per_unit: tierQty,
        posts: 30,
        delay_minutes: 0,
        runs: null,
        interval_minutes: null,
        period_days: 30,
        starts_at: new Date(now + (endsInDays - 30) * DAY_MS).toISOString(),
        ends_at: new Date(now + endsInDays * DAY_MS).toISOString(),
        posts_served: options.postsServed ?? 12,
        panel_status: 'In progress',
        renewal_token_hash: options.tokenHash ?? null,
        reminder_sent_at: options.tokenHash ? new Date(now).toISOString() : null,
      })
      .execute();
  });
  return target;
}

/** The owner's session, put where the admin pages of this store's origin look for it. */
async function logInAsOwner(page: Page) {
  if (!store) throw new Error('the store is not running');
  const token = await store.adminToken(OWNER, 'owner');
  const blank = await page.goto(`${store.base}/readyz`);
  expect(blank?.status()).toBe(200);
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [TOKEN_KEY, token] as const);
}

test('the Subscriptions filter lists subscriptions with their progress; cancelling asks first', async ({ page }) => {
  await insertOrder('E2eOneOff1', 'package');
  await insertOrder('E2eLikes1', 'automatic_likes', { endsInDays: 18, postsServed: 12 });
  await logInAsOwner(page);

  await gotoHydrated(page, `${store?.base}/admin/all-orders`);
  await expect(page.getByTestId('order-row').filter({ hasText: 'E2eOneOff1' })).toBeVisible();
  await page.getByLabel('Show').selectOption({ label: 'Subscriptions' });
  await expect(page).toHaveURL(/view=subscriptions/);
  const rows = page.getByTestId('order-row');
  await expect(rows).toHaveCount(1);
  const likes = rows.first();
  await expect(likes.getByTestId('row-order-id')).toHaveText('E2eLikes1');
  await expect(likes.getByTestId('row-kind')).toHaveText('Automatic likes (on each new post)');
  await expect(likes.getByTestId('row-progress')).toHaveText('12 of 30 posts, 18 days left');
  await expect(likes.getByTestId('row-ends')).toContainText('Ends ');

  await likes.getByTestId('row-order-id').click();
  await expect(page).toHaveURL(/\/admin\/orders\/E2eLikes1/);
  const panel = page.getByTestId('order-subscription');
  await expect(panel.getByTestId('subscription-progress')).toHaveText('12 of 30 posts, 18 days left');
  await expect(panel.getByTestId('subscription-refund-rule')).toContainText('the share not served');

  // Asks first: keeping it sends nothing.
  const cancelCalls: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/cancel-subscription')) cancelCalls.push(request.method());
  });
  await panel.getByTestId('subscription-cancel-button').click();
  const dialog = page.getByTestId('subscription-cancel-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Cancel this subscription?');
  await expect(dialog).toContainText('the smaller of the posts left (18 of 30) and the time left');
  await dialog.getByRole('button', { name: 'Keep it running' }).click();
  await expect(dialog).toBeHidden();
  expect(cancelCalls).toEqual([]);

  // Confirmed: the owner's cancel route is called once and its answer is shown.
  await panel.getByTestId('subscription-cancel-button').click();
  const called = page.waitForRequest(
    (request) =>
      request.url().endsWith('/api/admin/orders/E2eLikes1/cancel-subscription') && request.method() === 'POST',
  );
  await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
  await called;
  await expect(page.getByTestId('toast-message').first()).toBeVisible();
  expect(cancelCalls).toEqual(['POST']);
});

/** Waits until the store's catalogue sells the package as automatic likes (it re-reads within a second). */
async function waitForRenewalLink(request: APIRequestContext, url: string) {
  await expect.poll(async () => (await request.get(url, { maxRedirects: 0 })).status(), { timeout: 15_000 }).toBe(302);
}

test("the reminder e-mail's renewal link opens the order page with the account filled in", async ({
  page,
  request,
}) => {
  // Instagram Followers sold as automatic likes, as the catalogue editor would save it.
  await withDatabase(async (db) => {
    await db
      .updateTable('services')
      .set({ kind: 'automatic_likes', period_days: 30, posts_per_period: 30, post_delay_minutes: 0 })
      .where('slug', '=', followers.slug)
      .execute();
    await db
      .updateTable('catalogue_content')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', 1)
      .execute();
  });
  const target = await insertOrder('E2eRenew1', 'automatic_likes', {
    endsInDays: 2.5,
    tokenHash: renewalTokenHash(RENEWAL_TOKEN),
  });
  const link = `${store?.base}/renew/${RENEWAL_TOKEN}`;
  await waitForRenewalLink(request, link);

  await gotoHydrated(page, link);
  await expect(page).toHaveURL(new RegExp(`/order/${followers.slug}GOI${tierQty}\\?`));
  const address = new URL(page.url());
  expect(address.searchParams.get('type')).toBe(standard.type);
  expect(address.searchParams.get('target')).toBe(target);
  expect(address.searchParams.get('renewal')).toBe(RENEWAL_TOKEN);
  // The order page fills the account in from the address (the order page's own change).
  await expect(page.getByLabel('Instagram Username')).toHaveValue(target ?? '');

  // An unknown link says so, with a way on.
  await gotoHydrated(page, `${store?.base}/renew/${'z'.repeat(43)}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('This renewal link does not work');
  await expect(page.getByRole('link', { name: 'Back to the store' })).toBeVisible();
});
