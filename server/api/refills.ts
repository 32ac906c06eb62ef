/**
 * Refills and supplier cancels over HTTP (decision 040; rules in core/fulfilment/refills.ts).
 *
 * - `POST /order/refill`: the customer's "Request refill" from /client. The proof is the token
 *   the verified order-history lookup handed out for that order (same proof as the list itself);
 *   rate-limited per client, never cached.
 * - Admin (bearer token, `requireAdmin`): what the order detail may offer at the supplier, and
 *   the two actions, each answering the panel's reply for the toast.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OrderActionBodySchema, OrderDetailParamsSchema } from '../../core/admin/contracts.ts';
import {
  CustomerRefillRequestSchema,
  CustomerRefillSchema,
  REFILL_MESSAGES,
  type RefillEntry,
  SupplierActionResultSchema,
  SupplierActionsSchema,
} from '../../core/orders/refill-contracts.ts';
import type { Refills } from '../../core/fulfilment/refills.ts';
import { type AuthenticateToken, OWNER_AND_SUPPORT, noteAudit, requireAdmin } from './admin-guard.ts';
import { FailureSchema, envelopeOf, ok } from './envelope.ts';

interface RefillsApiOptions {
  refills: Refills;
}

interface AdminRefillsApiOptions extends RefillsApiOptions {
  authenticate: AuthenticateToken;
}

/** The refill an admin action just asked for: the newest on the order, in a few fields for the audit log. */
function newestRefill(entries: RefillEntry[]): Pick<RefillEntry, 'state' | 'supplierRefillId' | 'note'> | null {
  const newest = entries.reduce<RefillEntry | null>(
    (latest, entry) => (latest === null || entry.requestedAt >= latest.requestedAt ? entry : latest),
    null,
  );
  return newest ? { state: newest.state, supplierRefillId: newest.supplierRefillId, note: newest.note } : null;
}

const limit = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });
const refusals = { 400: FailureSchema, 403: FailureSchema, 404: FailureSchema, 409: FailureSchema, 429: FailureSchema };

export const refillsApi: FastifyPluginAsyncZod<RefillsApiOptions> = async (app, { refills }) => {
  // Personal: the reply (errors and 429s included) must not be stored by any cache.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  app.post(
    '/order/refill',
    {
      config: limit(5),
      schema: {
        tags: ['order history'],
        summary:
          'Request a refill of a completed order at the supplier, with the token its order-history lookup returned (one open refill per order)',
        body: CustomerRefillRequestSchema,
        response: { 200: envelopeOf(CustomerRefillSchema), ...refusals },
      },
    },
    async (request) => {
      const view = await refills.requestByCustomer(request.body.orderId, request.body.token);
      return ok(view, view.latest?.state === 'Rejected' ? (view.latest.note ?? 'Rejected') : REFILL_MESSAGES.requested);
    },
  );
};

export const adminRefillsApi: FastifyPluginAsyncZod<AdminRefillsApiOptions> = async (app, options) => {
  const { refills } = options;
  app.addHook('onRequest', requireAdmin(options.authenticate, OWNER_AND_SUPPORT));

  app.get(
    '/order/supplier-actions/:orderId',
    {
      schema: {
        tags: ['admin'],
        summary: "What the order detail may do at the supplier (refill, cancel) and why not, with the order's refills",
        params: OrderDetailParamsSchema,
        response: {
          200: envelopeOf(SupplierActionsSchema),
          400: FailureSchema,
          401: FailureSchema,
          404: FailureSchema,
        },
      },
    },
    async (request) => ok(await refills.adminActions(request.params.orderId)),
  );

  app.post(
    '/order/refill-at-supplier',
    {
      config: limit(20),
      schema: {
        tags: ['admin'],
        summary:
          "Ask the supplier panel to refill a completed order (refused while a refill is open); the panel's answer",
        body: OrderActionBodySchema,
        response: { 200: envelopeOf(SupplierActionResultSchema), 401: FailureSchema, ...refusals },
      },
    },
    async (request) => {
      const result = await refills.requestByAdmin(request.body.razorpay_order_id, request.admin?.adminId ?? null);
      noteAudit(request, {
        action: 'order.refill_at_supplier',
        targetType: 'order',
        targetId: request.body.razorpay_order_id,
        // The refill row was inserted past the one-open-refill index, so there was none open before.
        before: { openRefill: null },
        after: { openRefill: newestRefill(result.actions.refills), accepted: result.accepted, answer: result.answer },
      });
      return ok(result, result.answer);
    },
  );

  app.post(
    '/order/cancel-at-supplier',
    {
      config: limit(20),
      schema: {
        tags: ['admin'],
        summary:
          "Ask the supplier panel to cancel a running order; once it is final, what was not delivered is refunded (decision 012). The panel's answer",
        body: OrderActionBodySchema,
        response: { 200: envelopeOf(SupplierActionResultSchema), 401: FailureSchema, ...refusals },
      },
    },
    async (request) => {
      const result = await refills.cancelByAdmin(request.body.razorpay_order_id, request.admin?.adminId ?? null);
      noteAudit(request, {
        action: 'order.cancel_at_supplier',
        targetType: 'order',
        targetId: request.body.razorpay_order_id,
        // The cancel mark was set by compare-and-set from "not asked"; a refusal takes it back.
        before: { cancelRequested: false },
        after: { cancelRequested: result.accepted, answer: result.answer },
      });
      return ok(result, result.answer);
    },
  );
};
