/**
 * Spec section 2, "Layout rules": where the top bar (flash-sale banner) and the footer show.
 * The footer hides on the same pages as the top bar, and in the admin area too.
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

function matchesPrefix(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

function isBarePage(pathname: string): boolean {
  // "/order-confirm/…" is the confirmation page, not an order page: it keeps the layout.
  return BARE_PREFIXES.some((prefix) => matchesPrefix(pathname, prefix));
}

export function showsTopBar(pathname: string): boolean {
  return !isBarePage(pathname);
}

export function showsFooter(pathname: string): boolean {
  return !isBarePage(pathname) && !matchesPrefix(pathname, '/admin');
}
