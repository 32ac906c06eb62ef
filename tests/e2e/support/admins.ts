/**
 * The admin accounts of the end-to-end suites, one per test that logs in. serve.ts creates every
 * one of them before the store starts; tests pick theirs from here (never a literal address).
 *
 * Why one per test: every login asks for a second factor, and the e-mailed codes for one admin are
 * capped at 5 an hour (core/auth/one-time-codes.ts, decision 016). A suite that logged in as one
 * admin in every test would use the whole allowance on a single pass, so a retry (CI retries once)
 * would be refused. With one account per test a test and its retry send 2 codes at most, and a
 * test that turns on the authenticator app changes nobody else's login.
 */
export const E2E_ADMINS = {
  /** admin.spec.ts: the first login, step by step (the code step, its errors, the resend throttle). */
  firstLogin: 'admin@boostly.test',
  /** admin.spec.ts: reorder a paid order in delivery. */
  reorder: 'reorder@boostly.test',
  /** admin.spec.ts: the console offers only what the server accepts. */
  console: 'console@boostly.test',
  /** admin.spec.ts: the orders list (search, filter, pagination, CSV). */
  orders: 'orders@boostly.test',
  /** admin.spec.ts: log out, and the guard afterwards. */
  logout: 'logout@boostly.test',
  /** admin.spec.ts: a token revoked while a page is open sends the admin to /login with the notice. */
  expired: 'expired@boostly.test',
  /** admin-mail.spec.ts: the failed-mail page, its resend action and the navigation count. */
  mail: 'mail@boostly.test',
  /** admin-mail.spec.ts: Send again for a mail another admin has already sent again. */
  mailResend: 'mail-resend@boostly.test',
  /** admin-security.spec.ts: turning the authenticator app on, a TOTP login, turning it off. */
  security: 'security@boostly.test',
  /** admin-security.spec.ts: a recovery code in place of the app's code. */
  securityRecovery: 'security-recovery@boostly.test',
  /** admin-blog.spec.ts (the blog suites). */
  blog: 'blog@boostly.test',
  /** The blog suites' XSS checks. */
  blogXss: 'blog-xss@boostly.test',
  /** admin-messages.spec.ts: the contact inbox (badge, search, open, reply, mark handled). */
  messages: 'messages@boostly.test',
  /** admin-layout.spec.ts: the admin shell (no storefront chrome, navigation counts, orders table widths, toasts). */
  layout: 'layout@boostly.test',
  /** overflow.spec.ts: every admin page at five widths. */
  overflow: 'overflow@boostly.test',
  /** admin-roles.spec.ts: the owner who invites a support admin and reads the audit log. */
  roles: 'roles@boostly.test',
  /** reviews.spec.ts: review moderation (the pending list, approve). */
  reviews: 'reviews@boostly.test',
  /** carousel.spec.ts: approves the reviews the carousel shows (decision 039: no example reviews). */
  carousel: 'carousel@boostly.test',
  /** reviews-strip.spec.ts: approves the one review the home page's strip shows. */
  reviewsStrip: 'reviews-strip@boostly.test',
  /** refills.spec.ts: the order detail's refill and cancel panel (decision 040). */
  refills: 'refills@boostly.test',
  /** admin-refunds.spec.ts: the owner who refunds part of an order from its detail. */
  refunds: 'refunds@boostly.test',
  /** admin-dashboard.spec.ts: the owner's dashboard. */
  dashboard: 'dashboard@boostly.test',
  /** admin-suppliers.spec.ts: the owner who adds a supplier panel and imports its services. */
  suppliers: 'suppliers@boostly.test',
  /** admin-catalogue.spec.ts: the owner who edits a price and publishes a draft service. */
  catalogue: 'catalogue@boostly.test',
  /** admin-payment-methods.spec.ts: the owner who sets a payment method's price change. */
  paymentMethods: 'payment-methods@boostly.test',
  /** admin-catalogue.spec.ts: a support admin (serve.ts gives it that role): no catalogue link. */
  catalogueSupport: 'catalogue-support@boostly.test',
} as const;

export type E2eAdmin = (typeof E2E_ADMINS)[keyof typeof E2E_ADMINS];

/** Every e2e admin has this password (the policy wants 12 characters or more). */
export const E2E_ADMIN_PASSWORD = 'correct horse battery staple';
