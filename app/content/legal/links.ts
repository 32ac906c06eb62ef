/**
 * The help and legal pages' addresses and link texts, apart from their titles and descriptions
 * (pages.ts): the site header and footers link to them on every page, so every page downloads
 * this small module, not the page texts.
 */

interface NavLink {
  to: string;
  label: string;
}

export const FAQ_LINK = { path: '/faq', label: 'FAQ' } as const;
export const PRIVACY_LINK = { path: '/privacy-policy', label: 'Privacy Policy' } as const;
export const TERMS_LINK = { path: '/terms-condition', label: 'Terms of Service' } as const;
export const DISCLAIMER_LINK = { path: '/disclaimer', label: 'Disclaimer' } as const;
export const REFUND_LINK = { path: '/refund-policy', label: 'Refund Policy' } as const;

/** The four legal pages, in the order the footers list them. */
export const LEGAL_LINKS: readonly NavLink[] = [PRIVACY_LINK, TERMS_LINK, DISCLAIMER_LINK, REFUND_LINK].map((page) => ({
  to: page.path,
  label: page.label,
}));

/** Customer help links shown in the site header and footer. */
export const HELP_LINKS: readonly NavLink[] = [
  { to: FAQ_LINK.path, label: FAQ_LINK.label },
  { to: '/contact', label: 'Contact' },
  { to: '/client', label: 'My orders' },
  // The course catalogue (decision 027): linked here so visitors and crawlers reach it.
  { to: '/courses', label: 'Courses' },
];

/** Reading links in the site footer only: the blog has its own header and footer (decision 020). */
export const READING_LINKS: readonly NavLink[] = [{ to: '/blog', label: 'Blog' }];
