/**
 * The help and legal pages (issue 12): one list for their routes' titles, the footer and header
 * links and the sitemap, so a page is named the same everywhere it appears.
 */

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
  path: '/faq',
  label: 'FAQ',
  title: 'Frequently asked questions',
  description:
    'Answers about Boostly orders: what we need (never your password), delivery times, refunds of undelivered orders, the refill guarantee and your data.',
};

export const PRIVACY_PAGE: HelpPage = {
  path: '/privacy-policy',
  label: 'Privacy Policy',
  title: 'Privacy Policy',
  description:
    'What Boostly collects when you order (an e-mail address and a public username or link, never a password), why, who receives it, and when it is deleted.',
  lastUpdated: { text: '2019', iso: '2019' },
};

export const TERMS_PAGE: HelpPage = {
  path: '/terms-condition',
  label: 'Terms of Service',
  title: 'Terms of Service',
  description:
    'The terms for buying from Boostly: personal use, public accounts, gradual delivery, orders that cannot be changed once placed, refunds and refills.',
  lastUpdated: { text: 'August 2024', iso: '2024-08' },
};

export const DISCLAIMER_PAGE: HelpPage = {
  path: '/disclaimer',
  label: 'Disclaimer',
  title: 'Disclaimer',
  description:
    'Boostly is independent of Instagram, YouTube and TikTok; what we can and cannot promise about results, platform rules and the examples on our pages.',
};

export const REFUND_PAGE: HelpPage = {
  path: '/refund-policy',
  label: 'Refund Policy',
  title: 'Refund Policy',
  description:
    'When Boostly refunds an order: automatically for what was not delivered, within a fixed number of hours, plus the money-back and refill guarantees.',
};

export const LEGAL_PAGES: readonly HelpPage[] = [PRIVACY_PAGE, TERMS_PAGE, DISCLAIMER_PAGE, REFUND_PAGE];

/** Customer help links shown in the site header and footer (the contact page is issue 12's other half). */
export const HELP_LINKS: readonly { to: string; label: string }[] = [
  { to: FAQ_PAGE.path, label: FAQ_PAGE.label },
  { to: '/contact', label: 'Contact' },
  { to: '/client', label: 'My orders' },
  // The course catalogue (decision 027): linked here so visitors and crawlers reach it.
  { to: '/courses', label: 'Courses' },
];

/** Reading links in the site footer only: the blog has its own header and footer (decision 020). */
export const READING_LINKS: readonly { to: string; label: string }[] = [{ to: '/blog', label: 'Blog' }];
