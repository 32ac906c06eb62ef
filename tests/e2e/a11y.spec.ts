import { test } from '@playwright/test';
import { expectNoSeriousAxeViolations } from './support/axe.ts';
import { gotoHydrated } from './support/page.ts';

// The pages send a CSP with script nonces, which would block the injected axe script.
test.use({ bypassCSP: true });

for (const url of [
  '/',
  '/service/instagram-followers',
  '/blog',
  '/blog/grow-instagram-account-safely',
  '/blog/category/instagram-updates',
  '/instagram-issue',
  '/media-update',
  '/faq',
  '/privacy-policy',
  '/terms-condition',
  '/disclaimer',
  '/refund-policy',
  '/contact',
  '/courses',
  '/course/ai-for-beginners',
  '/free-followers',
  '/client',
  '/login',
  // A refund link that does not work: the page that says so, with the way to support.
  '/refund/not-a-refund-link-0123456789',
  // A renewal link and its "stop reminders" page that do not work: the pages that say so.
  '/renew/not-a-renewal-link-0123456789',
  '/renew/not-a-renewal-link-0123456789/stop',
  '/no-such-page',
]) {
  test(`axe finds no serious or critical violations on ${url}`, async ({ page }) => {
    await gotoHydrated(page, url);
    await expectNoSeriousAxeViolations(page, url);
  });
}
