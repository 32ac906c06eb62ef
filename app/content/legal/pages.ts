/**
 * The help and legal pages (decision 025): one list for their routes' titles, the footer and header
 * links and the sitemap, so a page is named the same everywhere it appears.
 */
import { DISCLAIMER_LINK, FAQ_LINK, PRIVACY_LINK, REFUND_LINK, TERMS_LINK } from './links.ts';

export interface HelpPage {
  path: string;
  /** Link text in the footer and the page's heading. */
  label: string;
  /** The `<title>` (before " | Boostly") and the meta description. */
  title: string;
  description: string;
  /**
   * "Last updated" as the page shows it (spec section 2, "Legal pages"), and its sitemap `lastmod`
   * (a W3C date: a year or a year-month is valid, so no day is invented).
   */
  lastUpdated?: { text: string; iso: string };
}

export const FAQ_PAGE: HelpPage = {
  ...FAQ_LINK,
  title: 'Frequently asked questions',
  description:
    'Answers about Boostly orders: what we need (never your password), delivery times, refunds of undelivered orders, the refill guarantee and your data.',
};

export const PRIVACY_PAGE: HelpPage = {
  ...PRIVACY_LINK,
  title: 'Privacy Policy',
  description:
    'What Boostly collects when you order (an e-mail address and a public username or link, never a password), why, who receives it, and when it is deleted.',
  lastUpdated: { text: '2019', iso: '2019' },
};

export const TERMS_PAGE: HelpPage = {
  ...TERMS_LINK,
  title: 'Terms of Service',
  description:
    'The terms for buying from Boostly: personal use, public accounts, gradual delivery, orders that cannot be changed once placed, refunds and refills.',
  lastUpdated: { text: 'August 2024', iso: '2024-08' },
};

export const DISCLAIMER_PAGE: HelpPage = {
  ...DISCLAIMER_LINK,
  title: 'Disclaimer',
  description:
    'Boostly is independent of Instagram, YouTube and TikTok; what we can and cannot promise about results, platform rules and the examples on our pages.',
};

export const REFUND_PAGE: HelpPage = {
  ...REFUND_LINK,
  title: 'Refund Policy',
  description:
    'When Boostly refunds an order: automatically for what was not delivered, within a fixed number of hours, plus the money-back and refill guarantees.',
};

export const LEGAL_PAGES: readonly HelpPage[] = [PRIVACY_PAGE, TERMS_PAGE, DISCLAIMER_PAGE, REFUND_PAGE];
