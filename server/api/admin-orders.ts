/**
 * The admin orders console over HTTP (spec "Admin all-orders", section 7; design/api-contract.md
 * for reorder and apply-service). Every route needs an admin bearer token: the guard runs first
 * (onRequest), so a request without one gets 401 'No access token found.' before its query or
 * body is even read.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  OrderActionBodySchema,
  OrderActionAcceptedSchema,
  OrderDetailParamsSchema,
  OrderDetailSchema,
  OrderNoteBodySchema,
  OrderNoteSchema,
  OrdersFilterSchema,
  OrdersListQuerySchema,
  OrdersListReplySchema,
} from '../../core/admin/contracts.ts';
import type { OrdersConsole } from '../../core/admin/orders-console.ts';
import { normaliseStatus } from '../../core/admin/orders-search.ts';
import { auditChangeOf } from './admin-audit.ts';
import { type AuthenticateToken, OWNER_AND_SUPPORT, noteAudit, requireAdmin } from './admin-guard.ts';
import { FailureSchema, envelopeOf, ok } from './envelope.ts';

interface AdminOrdersApiOptions {
  console: OrdersConsole;
  authenticate: AuthenticateToken;
  /** The clock for the export's file name. */
  now?: () => Date;
}

/** 202: the action is queued; its result reaches the row and the timeline when its job has run. */
const ActionAccepted = envelopeOf(OrderActionAcceptedSchema);
const actionRefusals = { 400: FailureSchema, 401: FailureSchema, 404: FailureSchema, 409: FailureSchema };

const REORDER_MESSAGE = 'Successfully reordered !';
const APPLY_SERVICE_MESSAGE = 'The order will be sent to the supplier';

export const adminOrdersApi: FastifyPluginAsyncZod<AdminOrdersApiOptions> = async (app, options) => {
  const { console: orders } = options;
  // Encapsulated: guards this plugin's routes only.
  app.addHook('onRequest', requireAdmin(options.authenticate, OWNER_AND_SUPPORT));

  app.get(
    '/order/all-orders',
    {
      schema: {
        tags: ['admin'],
        summary:
          "All orders, newest first: status and payment provider filters, keyword search (order id, e-mail, target, service name), one customer's orders by exact e-mail (with that customer's totals), pages, and the providers the filter offers",
        querystring: OrdersListQuerySchema,
        response: { 200: OrdersListReplySchema, 400: FailureSchema, 401: FailureSchema },
      },
    },
    async (request) => {
      const email = request.query.email;
      const [result, providers, customer] = await Promise.all([
        orders.list(request.query),
        orders.providers(),
        email ? orders.customerTotals(email) : undefined,
      ]);
      return {
        isSuccessful: true,
        message: result.count === 0 ? 'No orders found' : 'Success',
        data: result.rows,
        count: result.count,
        totalPages: result.totalPages,
        currentPage: result.currentPage,
        countExact: result.countExact,
        providers,
        ...(customer ? { customer } : {}),
      };
    },
  );

  app.get(
    '/order/all-orders.csv',
    {
      schema: {
        tags: ['admin'],
        summary: 'The filtered list as CSV (streamed; formula-injection safe)',
        querystring: OrdersFilterSchema,
        response: {
          200: { description: 'CSV, one header line', content: { 'text/csv': { schema: z.string() } } },
          400: FailureSchema,
          401: FailureSchema,
        },
      },
    },
    async (request, reply) => {
      // A bad status is a 400 now, not a broken download later.
      normaliseStatus(request.query.status);
      const date = (options.now?.() ?? new Date()).toISOString().slice(0, 10);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="orders-${date}.csv"`);
      const csv = Readable.from(orders.exportCsv(request.query));
      // The reply is the documented CSV text, streamed in batches instead of built as one string.
      return reply.send(csv as unknown as string);
    },
  );

  app.get(
    '/order/detail/:orderId',
    {
      schema: {
        tags: ['admin'],
        summary: 'One order with its timeline, the e-mails sent for it, its payments and refunds',
        params: OrderDetailParamsSchema,
        response: { 200: envelopeOf(OrderDetailSchema), 400: FailureSchema, 401: FailureSchema, 404: FailureSchema },
      },
    },
    async (request) => ok(await orders.detail(request.params.orderId, request.admin?.role)),
  );

  app.put(
    '/order/note/:orderId',
    {
      schema: {
        tags: ['admin'],
        summary:
          "Set the team's internal note on an order (plain text, trimmed; empty removes it). Shown only in the console, never to the customer",
        params: OrderDetailParamsSchema,
        body: OrderNoteBodySchema,
        response: {
          200: envelopeOf(OrderNoteSchema.nullable()),
          400: FailureSchema,
          401: FailureSchema,
          404: FailureSchema,
        },
      },
    },
    async (request) => {
      const note = await orders.saveNote(request.params.orderId, request.body.note, {
        adminId: request.admin?.adminId ?? null,
        audit: auditChangeOf(request),
      });
      noteAudit(request, { action: 'order.note', targetType: 'order', targetId: request.params.orderId });
      return ok(note, note ? 'Note saved' : 'Note removed');
    },
  );

  app.post(
    '/order/reorder',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Queue a new delivery of what is still undelivered (decision 012): a live supplier order is cancelled at the panel first; refused for finished or refunded orders',
        body: OrderActionBodySchema,
        response: { 202: ActionAccepted, ...actionRefusals },
      },
    },
    async (request, reply) => {
      const accepted = await orders.reorder(request.body.razorpay_order_id, {
        adminId: request.admin?.adminId,
        audit: auditChangeOf(request),
      });
      return reply.code(202).send(ok(accepted, REORDER_MESSAGE));
    },
  );

  app.post(
    '/order/apply-service',
    {
      schema: {
        tags: ['admin'],
        summary: 'Queue sending a paid order that is not at the supplier yet (or is flagged for review) now',
        body: OrderActionBodySchema,
        response: { 202: ActionAccepted, ...actionRefusals },
      },
    },
    async (request, reply) => {
      const accepted = await orders.applyService(request.body.razorpay_order_id, {
        adminId: request.admin?.adminId,
        audit: auditChangeOf(request),
      });
      return reply.code(202).send(ok(accepted, APPLY_SERVICE_MESSAGE));
    },
  );
};
