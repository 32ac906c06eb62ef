import { expect, test } from '@playwright/test';
import { E2E_ADMINS, adminToken, clientAddress, storeToken } from './support/admin.ts';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { plan, service } from './support/catalogue.ts';
import { sentTo, waitForMail } from './support/mail.ts';
import { uniqueSuffix } from './support/order.ts';
import { gotoHydrated } from './support/page.ts';

/**
 * The admin inbox (decision 026) end to end: a customer writes through /contact about their own
 * order, the admin sees the unread badge, searches, opens the message (the badge goes down), sees
 * the order and its timeline, replies (the reply is e-mailed and kept on the thread) and the
 * message is handled; axe on both screens. The customer's text is shown as text, never as HTML.
 */

// The pages send a CSP with script nonces, which would block the injected axe script.
test.use({ bypassCSP: true });

test('a contact message reaches the inbox, is answered by e-mail and handled', async ({ page, request }) => {
  const suffix = uniqueSuffix();
  const email = `inbox.${suffix}@example.com`;
  const followers = service('instagram-followers');
  const standard = plan(followers.slug, followers.plans[0]?.type ?? '');
  const created = await request.post('/api/order', {
    headers: { 'x-forwarded-for': clientAddress() },
    data: {
      type: standard.type,
      slug: followers.slug,
      qty: standard.tiers[0]?.qty,
      name: `inbox.${suffix}`,
      email,
      order_id: String(Math.floor(100_000 + Math.random() * 899_999)),
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const providerId = ((await created.json()) as { data: { razorpay_order_id: string } }).data.razorpay_order_id;
  const orderId = providerId.replace(/^order_/, '');

  // The customer writes, with markup that must stay text.
  await page.setExtraHTTPHeaders({ 'x-forwarded-for': clientAddress() });
  await gotoHydrated(page, '/contact');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Order ID (optional)', { exact: true }).fill(orderId);
  await page.getByLabel('Message', { exact: true }).fill(`Where is my order ${suffix}?\n<b>Thanks</b>`);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByTestId('contact-success')).toBeVisible();

  // The admin: the badge, the list, the search.
  await page.setExtraHTTPHeaders({});
  await storeToken(page, await adminToken(request, E2E_ADMINS.messages));
  await gotoHydrated(page, '/admin/messages');
  await expect(page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  const badge = page.getByTestId('unread-messages-count');
  await expect(badge).toBeVisible();
  const unreadBefore = Number((await badge.textContent())?.replace(/\D/g, ''));
  expect(unreadBefore).toBeGreaterThanOrEqual(1);
  await expectNoSeriousAxeViolations(page, '/admin/messages');

  await page.getByLabel('Search messages').fill(suffix);
  await page.getByLabel('Search messages').press('Enter');
  await expect(page).toHaveURL(new RegExp(`keyword=${suffix}`));
  const rows = page.getByTestId('message-row');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute('data-unread', 'true');
  await expect(rows.first().getByTestId('message-order')).toHaveText(orderId);
  await expect(rows.first().getByTestId('message-preview')).toContainText(`Where is my order ${suffix}?`);

  // Open it: read, the badge goes down, the order and its timeline are there.
  await rows.first().getByTestId('message-link').click();
  await expect(page).toHaveURL(/\/admin\/messages\/\d+$/);
  await expect(page.getByTestId('message-email')).toHaveText(email);
  await expect(page.getByTestId('message-text')).toHaveText(`Where is my order ${suffix}?\n<b>Thanks</b>`);
  await expect(page.getByTestId('message-text').locator('b')).toHaveCount(0);
  await expect(page.getByTestId('message-order-link')).toHaveAttribute('href', `/admin/orders/${orderId}`);
  await expect(page.getByTestId('message-timeline-entry').first()).toContainText('order.created');
  if (unreadBefore === 1) await expect(badge).toHaveCount(0);
  else await expect(badge).toContainText(String(unreadBefore - 1));
  await expect(page.getByTestId('mark-handled')).toBeVisible();
  await expectNoSeriousAxeViolations(page, '/admin/messages/:id');

  // Reply, keeping it new; then mark it handled with the button.
  await page.getByLabel(/Your reply/).fill(`Hello!\nIt is on its way ${suffix}.`);
  await page.getByLabel('Mark the message handled when the reply is sent').uncheck();
  await page.getByTestId('send-reply').click();
  await expect(page.getByTestId('reply-success')).toBeVisible();
  await expect(page.getByLabel(/Your reply/)).toHaveValue('');
  await expect(page.getByTestId('message-reply')).toHaveCount(1);
  await expect(page.getByTestId('message-reply')).toContainText(`It is on its way ${suffix}.`);
  const mail = await waitForMail(
    (candidate) => sentTo(candidate, email) && candidate.subject === `Re: your message about order ${orderId}`,
  );
  expect(mail.text).toContain(`It is on its way ${suffix}.`);

  await page.getByTestId('mark-handled').click();
  await expect(page.getByTestId('message-detail-status')).toHaveText('Handled');
  await expect(page.getByTestId('mark-handled')).toHaveCount(0);
  await expect(page.getByTestId('mark-new')).toBeVisible();
});
