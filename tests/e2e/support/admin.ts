/**
 * Admin login for the end-to-end suites. Every login asks for a second factor (decision 016);
 * these helpers use the code the store e-mails, read from the SMTP sink (mail.ts). Each test logs
 * in with its own account from admins.ts, so the per-admin cap on codes (5 an hour) is never
 * reached, not even by CI's retry.
 *
 * - `logIn(page, account)`: the login form and its code step, as an admin does it; ends on
 *   /admin/all-orders.
 * - `adminToken(request, account)`: the same flow through the API, for suites that only need a
 *   bearer token (or a logged-in page: `storeToken`).
 */
import { type APIRequestContext, type Page, expect } from '@playwright/test';
import { type E2eAdmin, E2E_ADMIN_PASSWORD } from './admins.ts';
import { capturedMail, codeFor, sentTo } from './mail.ts';
import { gotoHydrated } from './page.ts';

export { E2E_ADMINS, E2E_ADMIN_PASSWORD, type E2eAdmin } from './admins.ts';

/** Where the admin pages keep the token (app/admin/token.ts). */
export const TOKEN_KEY = 'boostly.admin.token';

/**
 * A client address of its own (the store trusts X-Forwarded-For in e2e, as behind a proxy), so
 * the per-client rate limits and lockouts of the login never see other tests or retries.
 */
export function clientAddress(): string {
  const octet = () => 1 + Math.floor(Math.random() * 254);
  return `10.${octet()}.${octet()}.${octet()}`;
}

/** The newest login code e-mailed to `account` so far, if any: the next login's code is a newer one. */
export async function newestCode(account: string): Promise<string | null> {
  const mails = (await capturedMail()).filter((m) => sentTo(m, account) && m.subject.includes('code'));
  const newest = mails[mails.length - 1];
  return newest ? (/^\s*(\d{6})\s*$/m.exec(newest.text)?.[1] ?? null) : null;
}

/**
 * The code the login just asked the store to send. A retry that follows a login abandoned at the
 * code step within a minute gets no new e-mail (the resend throttle), and the earlier code, unused,
 * is still the valid one: when no new code has come in the time a loaded machine may take to
 * deliver one, that one is used.
 */
async function loginCode(account: string, previous: string | null): Promise<string> {
  try {
    return await codeFor(account, previous, 20_000);
  } catch (error) {
    if (previous) return previous;
    throw error;
  }
}

/**
 * A fresh, settled /login: no navigation state left from an earlier redirect (Chromium keeps
 * history.state when page.goto repeats the current address, so "back to …" and the
 * session-expired notice would carry over), hydrated, its on-entry checks done.
 */
export async function openLoginPage(page: Page): Promise<void> {
  if (new URL(page.url(), 'http://blank.invalid').pathname === '/login') await page.goto('about:blank');
  await gotoHydrated(page, '/login');
}

const heading = (page: Page) => page.getByRole('heading', { level: 1 });

/** Logs in through the form and its code step (the e-mailed code); ends on /admin/all-orders. */
export async function logIn(page: Page, account: E2eAdmin): Promise<void> {
  await openLoginPage(page);
  const previous = await newestCode(account);
  await page.getByLabel('Email', { exact: true }).fill(account);
  await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(heading(page)).toHaveText('Check your e-mail');
  await page.getByLabel('6-digit code', { exact: true }).fill(await loginCode(account, previous));
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/all-orders$/);
  await expect(heading(page)).toHaveText('All orders');
}

/**
 * A bearer token for `account` through the API: the password (409, a code is e-mailed), the code,
 * then the password again from the same client address (the store hands the token to the login
 * that follows the code from that address).
 */
export async function adminToken(request: APIRequestContext, account: E2eAdmin): Promise<string> {
  const headers = { 'x-forwarded-for': clientAddress() };
  const credentials = { email: account, password: E2E_ADMIN_PASSWORD };
  const previous = await newestCode(account);
  const first = await request.post('/api/auth/login', { headers, data: credentials });
  expect(first.status(), await first.text()).toBe(409);
  expect((await first.json()).secondFactor).toBe('email');
  const otp = await loginCode(account, previous);
  const verified = await request.post('/api/auth/verify-otp', { headers, data: { email: account, otp } });
  expect(verified.status(), await verified.text()).toBe(200);
  const login = await request.post('/api/auth/login', { headers, data: credentials });
  expect(login.status(), await login.text()).toBe(200);
  const token: unknown = (await login.json()).access_token;
  expect(token).toEqual(expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/));
  return token as string;
}

/**
 * Puts `token` where the admin pages look for it, from a document of the store's origin that runs
 * no script of ours (the readiness check's JSON), so the next `page.goto` is the first page to
 * read it. Written under a live page instead, the token may be read by that page first: the
 * login page sends a visitor with a token on to /admin when its effects run, which on a loaded
 * machine can be after `gotoHydrated` has returned (React marks the DOM hydrated before it
 * commits); that page's own 401 then clears the token while the next page loads, and the next
 * page finds none (so no "session expired" notice). That race is what failed the log-out test.
 */
export async function storeToken(page: Page, token: string): Promise<void> {
  const blank = await page.goto('/readyz');
  expect(blank?.status(), 'GET /readyz').toBe(200);
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [TOKEN_KEY, token] as const);
}

/** The token the admin pages hold, if any. */
export function storedToken(page: Page): Promise<string | null> {
  return page.evaluate((key) => localStorage.getItem(key), TOKEN_KEY);
}
