import { type Page, expect, test } from '@playwright/test';
import { authenticator } from 'otplib';
import { E2E_ADMINS, E2E_ADMIN_PASSWORD, type E2eAdmin, clientAddress, logIn, openLoginPage } from './support/admin.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { gotoHydrated } from './support/page.ts';

/**
 * The Security page (decision 016): turning on an authenticator app (TOTP), the recovery codes
 * shown once, logging in with the app's code or a recovery code, turning it off. The codes are
 * computed here with otplib from the secret the page shows, as an app would. Each test has its
 * own admin (support/admins.ts), so turning the app on changes no other test's login.
 */

// The pages send a CSP with script nonces, which would block the injected axe script.
test.use({ bypassCSP: true });

test.beforeEach(async ({ page }) => {
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress() });
});

/** RFC 6238 steps are 30 seconds (core/auth/totp.ts). */
const STEP_MS = 30_000;
const stepAt = (ms: number) => Math.floor(ms / STEP_MS);

const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const status = (page: Page) => page.getByTestId('totp-status');
const setUpButton = (page: Page) => page.getByRole('button', { name: 'Set up an authenticator app' });
const confirmField = (page: Page) => page.getByLabel('Then enter the 6-digit code the app shows', { exact: true });
const turnOffField = (page: Page) =>
  page.getByLabel('To turn it off, enter a code from your app or a recovery code', { exact: true });

/**
 * A code of a step after `usedStep`: the server takes each step's code once and a later step
 * only, and it takes a code one step either side of its own now (clock drift), so the next step's
 * code works at once, with no wait for the clock (or now's code, when the clock has gone further).
 */
function codeAfterStep(secret: string, usedStep: number): { code: string; step: number } {
  const step = Math.max(usedStep + 1, stepAt(Date.now()));
  return { code: authenticator.clone({ epoch: step * STEP_MS }).generate(secret), step };
}

async function openSecurity(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Security' }).click();
  await expect(page).toHaveURL(/\/admin\/security$/);
  await expect(heading(page)).toHaveText('Security');
  await expect(status(page)).toBeVisible();
}

/**
 * Turns the app on from the Security page: the secret and its otpauth link, a wrong code refused,
 * the right one accepted, and the ten recovery codes. Answers the secret, the step its code
 * used, and the recovery codes.
 */
async function enrol(page: Page, account: E2eAdmin): Promise<{ secret: string; step: number; recovery: string[] }> {
  await openSecurity(page);
  await expect(status(page)).toHaveText('Off. Logins ask for a code we e-mail you.');
  await expect(page.getByTestId('totp-unavailable')).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, '/admin/security (off)');

  await setUpButton(page).click();
  const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  const url = new URL((await page.getByTestId('totp-url').getAttribute('href')) ?? '');
  expect(url.protocol).toBe('otpauth:');
  expect(url.host).toBe('totp');
  expect(decodeURIComponent(url.pathname)).toContain(account);
  expect(url.searchParams.get('secret')).toBe(secret);
  expect(url.searchParams.get('issuer')).toBeTruthy();
  await expectNoSeriousAxeViolations(page, '/admin/security (set-up)');

  // Nothing typed, then a wrong code: refused, still off.
  await page.getByRole('button', { name: 'Turn on', exact: true }).click();
  await expect(page.getByTestId('totp-confirm-error')).toHaveText('Code is required');
  const right = authenticator.generate(secret);
  await confirmField(page).fill(right === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Turn on', exact: true }).click();
  await expect(page.getByTestId('totp-confirm-error')).toHaveText('Invalid code');
  await expect(confirmField(page)).toHaveAttribute('aria-invalid', 'true');
  await expectNoSeriousAxeViolations(page, '/admin/security (a refused code)');

  // The app's code: on, and the recovery codes, once.
  const now = Date.now();
  await confirmField(page).fill(authenticator.clone({ epoch: now }).generate(secret));
  await page.getByRole('button', { name: 'Turn on', exact: true }).click();
  await expect(page.getByTestId('recovery-codes')).toBeVisible();
  const recovery = (await page.getByTestId('recovery-codes').getByRole('listitem').allTextContents()).map((code) =>
    code.trim(),
  );
  expect(recovery).toHaveLength(10);
  expect(new Set(recovery).size).toBe(10);
  await expect(status(page)).toHaveText('On. Logins ask for the code from your app. Recovery codes left: 10.');
  await expect(page.getByTestId('totp-secret')).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, '/admin/security (on, recovery codes)');

  // Shown once: a new visit has the status, not the codes (nor the secret).
  await gotoHydrated(page, '/admin/security');
  await expect(status(page)).toHaveText('On. Logins ask for the code from your app. Recovery codes left: 10.');
  await expect(page.getByTestId('recovery-codes')).toHaveCount(0);
  await expect(page.getByTestId('totp-secret')).toHaveCount(0);
  expect(await page.content()).not.toContain(recovery[0]);
  // The server records the step the code belongs to (its window only widens what it accepts).
  return { secret, step: stepAt(now), recovery };
}

async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** The password, then the two-step login's code step (the app's code or a recovery code). */
async function logInWithSecondFactor(page: Page, account: E2eAdmin, code: () => Promise<string>): Promise<void> {
  await openLoginPage(page);
  await page.getByLabel('Email', { exact: true }).fill(account);
  await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(heading(page)).toHaveText('Two-step login');
  await expect(page.getByTestId('otp-intro')).toHaveText(
    'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  );
  // No e-mailed code for an admin with the app, and so no "Resend".
  await expect(page.getByRole('button', { name: 'Resend', exact: true })).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, 'the two-step login');
  await page.getByLabel('Code or recovery code', { exact: true }).fill(await code());
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/all-orders$/);
  await expect(heading(page)).toHaveText('All orders');
}

test.describe('admin security page', () => {
  test('turn the authenticator app on, log in with its code, turn it off with a recovery code: e-mailed codes again', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const account = E2E_ADMINS.security;
    await logIn(page, account);
    const { secret, step, recovery } = await enrol(page, account);

    // A login now asks for the app's code (of a later step than the one that turned it on).
    await logOut(page);
    let loginStep = step;
    await logInWithSecondFactor(page, account, () => {
      const next = codeAfterStep(secret, step);
      loginStep = next.step;
      return Promise.resolve(next.code);
    });

    // Off, with a recovery code: the notice, the e-mailed code is the second factor again.
    await openSecurity(page);
    await expect(status(page)).toHaveText('On. Logins ask for the code from your app. Recovery codes left: 10.');
    await page.getByRole('button', { name: 'Turn off', exact: true }).click();
    await expect(page.getByTestId('totp-disable-error')).toHaveText('Code is required');
    // The login's own code was used once already: refused.
    await turnOffField(page).fill(authenticator.clone({ epoch: loginStep * STEP_MS }).generate(secret));
    await page.getByRole('button', { name: 'Turn off', exact: true }).click();
    await expect(page.getByTestId('totp-disable-error')).toHaveText('Invalid code');
    await expectNoSeriousAxeViolations(page, '/admin/security (on, a refused code)');
    await turnOffField(page).fill(recovery[0]);
    await page.getByRole('button', { name: 'Turn off', exact: true }).click();
    await expect(page.getByTestId('security-notice')).toHaveText(
      'Two-step login with an authenticator app is off: logins use e-mailed codes again.',
    );
    await expect(status(page)).toHaveText('Off. Logins ask for a code we e-mail you.');
    await expect(setUpButton(page)).toBeVisible();
    await expectNoSeriousAxeViolations(page, '/admin/security (turned off)');

    // The next login is the e-mailed code again.
    await logOut(page);
    await logIn(page, account);
  });

  test('a recovery code logs in once, and the count of those left goes down; the app code turns it off', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const account = E2E_ADMINS.securityRecovery;
    await logIn(page, account);
    const { secret, step, recovery } = await enrol(page, account);
    await logOut(page);

    // Letter case does not matter.
    const used = recovery[3];
    expect(used).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    await logInWithSecondFactor(page, account, () => Promise.resolve(used.toUpperCase()));
    await openSecurity(page);
    await expect(status(page)).toHaveText('On. Logins ask for the code from your app. Recovery codes left: 9.');
    await logOut(page);

    // The same recovery code a second time: refused at the code step.
    await openLoginPage(page);
    await page.getByLabel('Email', { exact: true }).fill(account);
    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(heading(page)).toHaveText('Two-step login');
    await page.getByLabel('Code or recovery code', { exact: true }).fill(used);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page.getByTestId('login-error')).toHaveText('Invalid code');
    await expectNoSeriousAxeViolations(page, 'the two-step login with a refused code');
    // Another one works.
    await page.getByLabel('Code or recovery code', { exact: true }).fill(recovery[7]);
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/all-orders$/);

    // Off with the app's code.
    await openSecurity(page);
    await expect(status(page)).toHaveText('On. Logins ask for the code from your app. Recovery codes left: 8.');
    await turnOffField(page).fill(codeAfterStep(secret, step).code);
    await page.getByRole('button', { name: 'Turn off', exact: true }).click();
    await expect(status(page)).toHaveText('Off. Logins ask for a code we e-mail you.');
  });
});
