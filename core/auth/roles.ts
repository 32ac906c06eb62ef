/**
 * Admin roles (decision 041). An owner can do everything; a support admin runs the day-to-day
 * customer work: orders (including refills and cancels, not refunds), contact messages, reviews, and their own
 * security page. Catalogue, suppliers, the blog, the mail log, admins and the audit log are the
 * owner's. The server enforces it on every admin route (server/api/admin-guard.ts); the admin
 * navigation only hides what a role cannot open.
 */
export const ADMIN_ROLES = ['owner', 'support'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** At least one role: a route that lists none could never be opened, which is always a mistake. */
export type AllowedRoles = readonly [AdminRole, ...AdminRole[]];

export const OWNER_ONLY: AllowedRoles = ['owner'];
export const OWNER_AND_SUPPORT: AllowedRoles = ['owner', 'support'];
/**
 * Giving money back is the owner's decision: support sees the payments and refunds on the order
 * and can cancel at the supplier, but a refund (which cannot be taken back) is the owner's.
 */
export const REFUND_ROLES: AllowedRoles = OWNER_ONLY;

export const ROLE_LABELS: Record<AdminRole, string> = { owner: 'Owner', support: 'Support' };

export const ROLE_MESSAGES = {
  ownerOnly: 'Only the store owner can do this.',
  ownerOnlyPage: 'Only the store owner can open this page.',
} as const;

export function isAdminRole(value: unknown): value is AdminRole {
  return typeof value === 'string' && (ADMIN_ROLES as readonly string[]).includes(value);
}

/** A stored role; anything unknown is treated as the least-privileged role. */
export function storedRole(value: string): AdminRole {
  return isAdminRole(value) ? value : 'support';
}

/**
 * The admin pages (paths under /admin) a support admin may open; everything else is the owner's.
 * Pages list what the navigation shows; the API refuses on its own whatever the page would ask.
 */
const SUPPORT_PAGES: readonly string[] = [
  '/admin',
  '/admin/all-orders',
  '/admin/orders',
  '/admin/messages',
  '/admin/reviews',
  '/admin/security',
];

export function roleMayOpenPage(role: AdminRole, pathname: string): boolean {
  if (role === 'owner') return true;
  const path = pathname.replace(/\/+$/, '') || '/';
  return SUPPORT_PAGES.some((page) => path === page || (page !== '/admin' && path.startsWith(`${page}/`)));
}
