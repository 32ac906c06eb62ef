import { type RouteConfig, index, layout, route } from '@react-router/dev/routes';

/** The spec's route table (section 2). `/` is the store home; see docs/decisions/002-index-routes.md. */
export default [
  index('routes/home.tsx'),
  route('service/:slug', 'routes/service.tsx'),
  route('order/:param', 'routes/order.tsx'),
  route('order-confirm/:orderId', 'routes/order-confirm.tsx'),
  // The spec lists this misspelt route; it only redirects to the confirmation (or order lookup).
  route('order-confrim/:orderId?', 'routes/order-confrim.tsx'),
  route('client', 'routes/client.tsx'),
  // The contact form: stored, mailed to support, acknowledged (docs/decisions/024-contact-messages.md).
  route('contact', 'routes/contact.tsx'),
  // Help and legal pages: texts filled from the store settings (docs/decisions/025-legal-texts.md).
  route('faq', 'routes/faq.tsx'),
  route('privacy-policy', 'routes/legal/privacy-policy.tsx'),
  route('terms-condition', 'routes/legal/terms-condition.tsx'),
  route('disclaimer', 'routes/legal/disclaimer.tsx'),
  route('refund-policy', 'routes/legal/refund-policy.tsx'),
  // The static course catalogue: the list at /courses per decision 002; decision 027.
  route('courses', 'routes/courses.tsx'),
  route('course/:slug', 'routes/course.tsx'),
  // The spec's static mock-up, built as an honest preview that gives nothing away (docs/decisions/028-mock-up-pages.md).
  route('free-followers', 'routes/mockups/free-followers.tsx'),
  // The payment mock-up's addresses: the chooser is real on the order page now, so they go home (301).
  route('payment', 'routes/payment.tsx', { id: 'payment' }),
  route('payment/sample-confirmation', 'routes/payment.tsx', { id: 'payment-sample-confirmation' }),
  route('login', 'routes/login.tsx'),
  // The review page the completion e-mail links to, with its single-use token (docs/decisions/039-real-reviews.md).
  route('review/:token', 'routes/review.tsx'),
  // A crypto refund's e-mailed single-use link: the customer gives the wallet address to send it to.
  route('refund/:token', 'routes/refund.tsx'),
  // A subscription's renewal link and its "stop reminders" page, from the reminder e-mail (decision 057).
  route('renew/:token', 'routes/renew.tsx'),
  route('renew/:token/stop', 'routes/renew-stop.tsx'),
  // An admin invitation's link: set a password, then log in (decision 041).
  route('accept-invitation', 'routes/accept-invitation.tsx'),
  // The public blog (decision 020) in its own header and footer; /instagram-issue and /media-update
  // show the two seeded categories (docs/decisions/020-blog-pages-and-seo.md).
  layout('routes/blog/layout.tsx', [
    route('blog', 'routes/blog/index.tsx'),
    route('blog/category/:slug', 'routes/blog/category.tsx'),
    route('blog/:slug', 'routes/blog/post.tsx'),
    route('instagram-issue', 'routes/blog/instagram-issue.tsx'),
    route('media-update', 'routes/blog/media-update.tsx'),
  ]),
  route('blog/feed.xml', 'routes/blog/feed.ts'),
  route('sitemap.xml', 'routes/seo/sitemap.ts'),
  route('robots.txt', 'routes/seo/robots.ts'),
  // The admin area: the layout guards every child (token in local storage, spec section 6).
  route('admin', 'routes/admin/layout.tsx', [
    index('routes/admin/index.tsx'),
    route('dashboard', 'routes/admin/dashboard.tsx'),
    route('all-orders', 'routes/admin/all-orders.tsx'),
    route('orders/:orderId', 'routes/admin/order-detail.tsx'),
    route('security', 'routes/admin/security.tsx'),
    route('mail', 'routes/admin/mail.tsx'),
    // The contact messages' inbox (decision 026).
    route('messages', 'routes/admin/messages.tsx'),
    route('messages/:id', 'routes/admin/messages-detail.tsx'),
    // Review moderation (decision 039).
    route('reviews', 'routes/admin/reviews.tsx'),
    route('blog', 'routes/admin/blog.tsx'),
    route('blog/add', 'routes/admin/blog-add.tsx'),
    route('blog/:slug', 'routes/admin/blog-edit.tsx'),
    // The owner's preview of a post, drafts and scheduled ones too (noindex, never cached).
    route('blog/:slug/preview', 'routes/admin/blog-preview.tsx'),
    // Owner only: the team and the audit log (decision 041).
    route('admins', 'routes/admin/admins.tsx'),
    route('audit', 'routes/admin/audit.tsx'),
    // Owner only: supplier panels and their imported services (decision 045).
    route('suppliers', 'routes/admin/suppliers.tsx'),
    route('suppliers/:panelId/services', 'routes/admin/suppliers-services.tsx'),
    // Owner only: the price change per payment method, like the catalogue's prices.
    route('payment-methods', 'routes/admin/payment-methods.tsx'),
    // Owner only: the catalogue editor (decision 044).
    route('catalogue', 'routes/admin/catalogue.tsx'),
    route('catalogue/services/:slug', 'routes/admin/catalogue-service.tsx', { id: 'admin-catalogue-service' }),
    route('catalogue/groups/:group/new', 'routes/admin/catalogue-service.tsx', { id: 'admin-catalogue-new-service' }),
  ]),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
