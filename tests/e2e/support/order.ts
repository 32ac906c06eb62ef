/** Helpers for the order page and checkout suites. */
import { type Page, expect } from '@playwright/test';
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

/** "john.doe@example.com" → /^j\*+e@example\.com$/: the confirmation page masks the e-mail. */
export function maskedEmailPattern(email: string): RegExp {
  const [local, domain] = email.split('@');
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escape(local[0])}\\*+${escape(local.at(-1)!)}@${escape(domain)}$`);
}
