import { type Page, expect, test } from '@playwright/test';
import { E2E_ADMINS, clientAddress, logIn } from './support/admin.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { codeFor, sentTo, waitForMail } from './support/mail.ts';
import { uniqueSuffix } from './support/order.ts';
import { gotoHydrated } from './support/page.ts';

/**
 * Admin roles and invitations (decision 041), end to end: an owner invites a support admin from
 * /admin/admins; the invited admin opens the mailed link, sets a password, logs in with the
 * e-mailed code, sees only the support navigation and is refused an owner page with a clear page;
 * the owner then finds the invitation and its acceptance in the audit log. Axe on each new page.
 */

// The pages send a CSP with script nonces, which would block the injected axe script.
test.use({ bypassCSP: true });

const NEW_PASSWORD = 'a long new support password';
const heading = (page: Page) => page.getByRole('heading', { level: 1 });
const nav = (page: Page) => page.getByRole('navigation', { name: 'Admin' });

test('an owner invites a support admin, who accepts through the mailed link and sees only support pages', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress() });
  const invited = `support.${uniqueSuffix()}@example.com`;

  // The owner invites.
  await logIn(page, E2E_ADMINS.roles);
  await expect(nav(page).getByRole('link', { name: 'Admins' })).toBeVisible();
  await gotoHydrated(page, '/admin/admins');
  await expect(heading(page)).toHaveText('Admins');
  await expect(page.getByTestId('admins-table')).toBeVisible();
  await expectNoSeriousAxeViolations(page, '/admin/admins');
  const form = page.getByTestId('invite-form');
  await form.getByLabel('E-mail', { exact: true }).fill(invited);
  await form.getByLabel('Role', { exact: true }).selectOption('support');
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByTestId('invitations')).toContainText(invited);

  // The mailed link carries the token in its fragment.
  const mail = await waitForMail((m) => sentTo(m, invited) && m.subject.includes('invited'));
  const link = /https?:\/\/\S+\/accept-invitation#token=[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  const url = new URL(link ?? '');

  // The invited admin, in a browser of their own.
  const context = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': clientAddress() } });
  const invitee = await context.newPage();
  await gotoHydrated(invitee, `${url.pathname}${url.hash}`);
  await expect(invitee.getByTestId('invitation-for')).toContainText(invited);
  await expect(invitee.getByTestId('invitation-for')).toContainText('support');
  await expectNoSeriousAxeViolations(invitee, '/accept-invitation');
  await invitee.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await invitee.getByLabel('Repeat the password', { exact: true }).fill(NEW_PASSWORD);
  await invitee.getByRole('button', { name: 'Set my password' }).click();
  await expect(invitee).toHaveURL(/\/login$/);
  await expect(invitee.getByTestId('login-notice')).toContainText('Your password is set');

  // The first login asks for the e-mailed code: the second factor before any session.
  await invitee.getByLabel('Email', { exact: true }).fill(invited);
  await invitee.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
  await invitee.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(heading(invitee)).toHaveText('Check your e-mail');
  await invitee.getByLabel('6-digit code', { exact: true }).fill(await codeFor(invited));
  await invitee.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(invitee).toHaveURL(/\/admin\/all-orders$/);

  // Support navigation only.
  await expect(nav(invitee).getByRole('link', { name: 'All orders' })).toBeVisible();
  await expect(nav(invitee).getByRole('link', { name: /Messages/ })).toBeVisible();
  await expect(nav(invitee).getByRole('link', { name: 'Security' })).toBeVisible();
  for (const ownerOnly of ['Admins', 'Audit log', 'Blog', /Failed mail/]) {
    await expect(nav(invitee).getByRole('link', { name: ownerOnly })).toHaveCount(0);
  }

  // An owner's address: a clear refusal, not a broken page.
  await gotoHydrated(invitee, '/admin/admins');
  await expect(invitee.getByTestId('owner-only')).toBeVisible();
  await expect(heading(invitee)).toHaveText('Only the store owner can open this page.');
  await expect(invitee.getByTestId('admins-table')).toHaveCount(0);
  await expectNoSeriousAxeViolations(invitee, '/admin/admins as support');
  await context.close();

  // The owner sees both in the audit log.
  await gotoHydrated(page, '/admin/audit');
  await expect(heading(page)).toHaveText('Audit log');
  await page.getByLabel('Search the log', { exact: true }).fill(invited);
  await page.getByLabel('Search the log', { exact: true }).press('Enter');
  const entries = page.getByTestId('audit-entry');
  // Actions read in words, never as the names or routes they are stored under.
  await expect(entries.filter({ hasText: 'Accepted an invitation' })).toHaveCount(1);
  await expect(entries.filter({ hasText: 'Invited a team member' }).first()).toContainText(E2E_ADMINS.roles);
  await expect(page.getByTestId('audit-action').filter({ hasText: /admin\.|\/admin\// })).toHaveCount(0);
  // Its before/after reads as a change (decision 047): a new invitation, field by field.
  const invite = entries.filter({ hasText: 'Invited a team member' }).first().getByTestId('audit-summary');
  await expect(invite).toContainText('Created');
  await expect(invite).toContainText('role: support');
  await expectNoSeriousAxeViolations(page, '/admin/audit');
});
