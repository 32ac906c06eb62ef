/** Helpers for the order page and checkout suites, and a paid order for suites that need one. */
import { type APIRequestContext, type Page, expect } from '@playwright/test';
import { clientAddress } from './admin.ts';
import { plan, service } from './catalogue.ts';
import { gotoHydrated } from './page.ts';

export function orderUrl(slug: string, qty: number, type: string): string {
  return `/order/${slug}GOI${qty}?type=${encodeURIComponent(type)}`;
}

/** Unique per call, so repeated runs and parallel workers never share an order or a mailbox. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** Opens an order page and waits for its form (the form detail is fetched by the browser). */
export async function openOrderForm(page: Page, url: string, targetLabel: string): Promise<void> {
  await gotoHydrated(page, url);
  await expect(page.getByLabel(targetLabel, { exact: true })).toBeVisible();
}

export function continueButton(page: Page) {
  return page.getByRole('button', { name: 'Continue', exact: true });
}

export function verificationIcon(page: Page) {
  return page.getByTestId('verification-icon');
}

export function targetMessage(page: Page) {
  return page.getByTestId('target-message');
}

/** Types a target and leaves the field (blur runs the verification). */
export async function enterTarget(page: Page, label: string, value: string): Promise<void> {
  const input = page.getByLabel(label, { exact: true });
  await input.fill(value);
  await input.press('Tab');
}

/** "john.doe@example.com" → /^jo•••@e•••\.com$/: the confirmation page masks the e-mail, its domain too. */
export function maskedEmailPattern(email: string): RegExp {
  const [local, domain] = email.split('@');
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const topLevel = domain.slice(domain.lastIndexOf('.'));
  return new RegExp(`^${escape(local.slice(0, 2))}•••@${escape(domain[0])}•••${escape(topLevel)}$`);
}

const followers = service('instagram-followers');
const standard = plan(followers.slug, 'Standard');

/** A real order of Instagram Followers, paid through the sandbox's API as its checkout window does; returns its id. */
export async function paidFollowersOrder(request: APIRequestContext, email: string): Promise<string> {
  const headers = { 'x-forwarded-for': clientAddress() };
  const created = await request.post('/api/order', {
    headers,
    data: {
      type: standard.type,
      slug: followers.slug,
      qty: standard.tiers[0]?.qty,
      name: email
        .split('@')[0]
        ?.replace(/[^a-z0-9_.]/gi, '')
        .slice(0, 30),
      email,
      order_id: String(Math.floor(100_000 + Math.random() * 899_999)),
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const providerOrderId = ((await created.json()) as { data: { razorpay_order_id: string } }).data.razorpay_order_id;
  const paid = await request.post('/api/sandbox/pay', { headers, data: { razorpay_order_id: providerOrderId } });
  expect(paid.status(), await paid.text()).toBe(200);
  const verified = await request.post('/api/order/verify-payment', {
    headers,
    data: ((await paid.json()) as { data: Record<string, string> }).data,
  });
  expect(verified.status(), await verified.text()).toBe(200);
  return ((await verified.json()) as { data: { orderId: string } }).data.orderId;
}
