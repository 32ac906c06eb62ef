/**
 * Audit log actions in the owner's words: "Changed a service" instead of
 * `PATCH /admin/catalogue/services/:slug`. The log stores the action as it was (a route, or a
 * name an action gave itself); the console shows these words. A test checks every audited route
 * and every named action has an entry, so a new one cannot land as a route. Browser-safe.
 */
export const AUDIT_ACTION_WORDS: Readonly<Record<string, string>> = {
  // Named by the action itself (noteAudit / recordAudit).
  'admin.invite': 'Invited a team member',
  'admin.invitation.withdraw': 'Withdrew an invitation',
  'admin.invitation.accept': 'Accepted an invitation',
  'admin.role.change': "Changed a team member's role",
  'admin.remove': 'Removed a team member',
  'catalogue.group.create': 'Added a service group',
  'catalogue.group.move': 'Moved a service group',
  'catalogue.group.delete': 'Deleted a service group',
  'catalogue.group.update': 'Changed a service group',
  'catalogue.service.create': 'Added a service',
  'catalogue.service.update': 'Changed a service (prices, texts or supplier)',
  'catalogue.service.move': 'Moved a service',
  'catalogue.price_floor': 'Changed the price floor',
  'order.refund': 'Refunded an order',
  'order.refill_at_supplier': 'Asked the supplier for a refill',
  'order.cancel_at_supplier': 'Asked the supplier to cancel an order',
  'order.cancel_subscription': 'Cancelled a subscription',
  'order.note': "Changed an order's internal note",
  // Routes that name no action: the route as logged (method, path without /api).
  'POST /blog': 'Wrote a blog post',
  'PATCH /blog/:idOrSlug': 'Changed a blog post',
  'DELETE /blog/:idOrSlug': 'Deleted a blog post',
  'POST /uploads': 'Uploaded an image',
  'POST /admin/catalogue/groups': 'Added a service group',
  'POST /admin/catalogue/groups/:slug/move': 'Moved a service group',
  'DELETE /admin/catalogue/groups/:slug': 'Deleted a service group',
  'PATCH /admin/catalogue/groups/:slug': 'Changed a service group',
  'POST /admin/catalogue/groups/:slug/services': 'Added a service',
  'PATCH /admin/catalogue/services/:slug': 'Changed a service (prices, texts or supplier)',
  'POST /admin/catalogue/services/:slug/move': 'Moved a service',
  'PUT /admin/catalogue/price-floor': 'Changed the price floor',
  'POST /admin/mail/:id/resend': 'Sent an e-mail again',
  'POST /admin/admins/invitations': 'Invited a team member',
  'DELETE /admin/admins/invitations/:id': 'Withdrew an invitation',
  'PATCH /admin/admins/:id': "Changed a team member's role",
  'DELETE /admin/admins/:id': 'Removed a team member',
  'POST /admin/suppliers': 'Added a supplier panel',
  'PATCH /admin/suppliers/:id': 'Changed a supplier panel',
  'DELETE /admin/suppliers/:id': 'Deleted a supplier panel',
  'POST /admin/suppliers/:id/import': "Imported a supplier panel's services",
  'PUT /admin/payment-methods': 'Changed the payment methods',
  'POST /admin/orders/:orderId/refunds': 'Refunded an order',
  'PUT /order/note/:orderId': "Changed an order's internal note",
  'POST /order/reorder': 'Sent an order to the supplier again',
  'POST /order/apply-service': 'Moved an order to another supplier service',
  'POST /order/refill-at-supplier': 'Asked the supplier for a refill',
  'POST /order/cancel-at-supplier': 'Asked the supplier to cancel an order',
  'POST /admin/orders/:orderId/cancel-subscription': 'Cancelled a subscription',
  'POST /admin/messages/:id/handled': 'Marked a message handled',
  'POST /admin/messages/:id/reopen': 'Reopened a message',
  'POST /admin/messages/:id/replies': 'Replied to a message',
  'POST /admin/reviews/:id/approve': 'Approved a review',
  'POST /admin/reviews/:id/reject': 'Rejected a review',
  'POST /auth/totp/setup': 'Started setting up an authenticator app',
  'POST /auth/totp/confirm': 'Turned on the authenticator app',
  'POST /auth/totp/disable': 'Turned off the authenticator app',
  'POST /auth/logout': 'Signed out',
};

/** `PATCH /admin/catalogue/services/:slug` as logged, from a route in the OpenAPI form (`{slug}`). */
export function loggedRouteAction(method: string, apiPath: string): string {
  return `${method.toUpperCase()} ${apiPath.replace(/^\/api(?=\/)/, '').replace(/\{([^}]+)\}/g, ':$1')}`;
}

const ROUTE_VERBS: Readonly<Record<string, string>> = {
  POST: 'Did',
  PUT: 'Replaced',
  PATCH: 'Changed',
  DELETE: 'Deleted',
};

/**
 * An action in words. One no version knows (a route added without words, which the test stops)
 * reads as its method in words and its path, never as nothing.
 */
export function auditActionWords(action: string): string {
  const known = AUDIT_ACTION_WORDS[action];
  if (known) return known;
  const route = /^(POST|PUT|PATCH|DELETE) (\/\S*)$/.exec(action);
  if (!route) return action;
  return `${ROUTE_VERBS[route[1] ?? ''] ?? 'Did'}: ${route[2] ?? ''}`;
}
