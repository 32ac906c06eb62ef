/**
 * Spec section 2, "Layout rules": where the top bar (flash-sale banner), the storefront header
 * and the footer show. The footer hides on the same pages as the top bar, and in the admin area
 * too. The admin area (decision 034) is a back office with its own navigation: neither
 * the storefront's top bar nor its header belong there, so both hide inside /admin as well.
 */
const BARE_PREFIXES = [
  '/login',
  '/register',
  '/forgot-password',
  '/blog',
  '/instagram-issue',
  '/media-update',
  '/order',
];

const ADMIN_PREFIX = '/admin';

function matchesPrefix(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

function isBarePage(pathname: string): boolean {
  // "/order-confirm/…" is the confirmation page, not an order page: it keeps the layout.
  return BARE_PREFIXES.some((prefix) => matchesPrefix(pathname, prefix));
}

/** Whether the page is part of the admin back office (its own shell, no storefront chrome). */
function isAdminPage(pathname: string): boolean {
  return matchesPrefix(pathname, ADMIN_PREFIX);
}

/** The top bar and the storefront header (root.tsx renders both from this one rule). */
export function showsTopBar(pathname: string): boolean {
  return !isBarePage(pathname) && !isAdminPage(pathname);
}

export function showsFooter(pathname: string): boolean {
  return !isBarePage(pathname) && !isAdminPage(pathname);
}
