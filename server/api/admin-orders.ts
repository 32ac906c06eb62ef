/**
 * The admin orders console over HTTP (spec "Admin all-orders", section 7; design/api-contract.md
 * for reorder and apply-service). Every route needs an admin bearer token: the guard runs first
 * (onRequest), so a request without one gets 401 'No access token found.' before its query or
 * body is even read.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MAX_KEYWORD_LENGTH, type OrdersConsole, normaliseStatus } from '../../core/admin/orders-console.ts';
import { type AuthenticateToken, requireAdmin } from './admin-guard.ts';
import { FailureSchema, envelopeOf, ok } from './envelope.ts';

export interface AdminOrdersApiOptions {
  console: OrdersConsole;
  authenticate: AuthenticateToken;
  /** The clock for the export's file name. */
  now?: () => Date;
}

/** `?page=` (empty) means the default, as browsers send empty fields. */
const optionalInt = (max: number) =>
  z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number().int().min(1).max(max).optional());

const FilterQuery = z.object({
  keyword: z.string().max(MAX_KEYWORD_LENGTH).optional(),
  status: z.string().max(40).optional(),
});
const ListQuery = FilterQuery.extend({
  page: optionalInt(10_000_000),
  // Larger sizes are served as 100 (the console's maximum).
  size: optionalInt(10_000),
});
const OrderIdBody = z.object({ razorpay_order_id: z.string().trim().min(1, 'razorpay_order_id is required').max(100) });

const RowSchema = z.object({
  razorPayOrderId: z.string(),
  orderId: z.string(),
  orderDate: z.string(),
  email: z.string(),
  serviceName: z.string(),
  name: z.string(),
  quantity: z.number(),
  price: z.number(),
  currency: z.string(),
  paymentStatus: z.string(),
  orderStatus: z.string(),
  supplierOrderId: z.string().nullable(),
  errorMessage: z.string().nullable(),
  needsReview: z.boolean(),
  reviewReason: z.string().nullable(),
  fulfilmentState: z.string(),
  canReorder: z.boolean(),
  canApplyService: z.boolean(),
});
const ListReply = z.object({
  isSuccessful: z.boolean(),
  message: z.string(),
  data: z.array(RowSchema),
  count: z.number(),
  totalPages: z.number(),
  currentPage: z.number(),
  /** False when `count` is an estimate (keyword searches with many matches). */
  countExact: z.boolean(),
});
const ResubmitReply = envelopeOf(z.object({ supplierOrderId: z.string(), quantity: z.number() }));
const errors = { 400: FailureSchema, 401: FailureSchema, 404: FailureSchema, 409: FailureSchema, 502: FailureSchema };

export const REORDER_MESSAGE = 'Successfully reordered !';
export const APPLY_SERVICE_MESSAGE = 'The order was sent to the supplier';

export const adminOrdersApi: FastifyPluginAsyncZod<AdminOrdersApiOptions> = async (app, options) => {
  const { console: orders } = options;
  // Encapsulated: guards this plugin's routes only.
  app.addHook('onRequest', requireAdmin(options.authenticate));

  app.get(
    '/order/all-orders',
    {
      schema: {
        tags: ['admin'],
        summary:
          'All orders, newest first: status filter, keyword search (order id, e-mail, target, service name), pages',
        querystring: ListQuery,
        response: { 200: ListReply, 400: FailureSchema, 401: FailureSchema },
      },
    },
    async (request) => {
      const result = await orders.list(request.query);
      return {
        isSuccessful: true,
        message: result.count === 0 ? 'No orders found' : 'Success',
        data: result.rows,
        count: result.count,
        totalPages: result.totalPages,
        currentPage: result.currentPage,
        countExact: result.countExact,
      };
    },
  );

  app.get(
    '/order/all-orders.csv',
    {
      schema: {
        tags: ['admin'],
        summary: 'The filtered list as CSV (streamed; formula-injection safe)',
        querystring: FilterQuery,
      },
    },
    async (request, reply) => {
      // A bad status is a 400 now, not a broken download later.
      normaliseStatus(request.query.status);
      const date = (options.now?.() ?? new Date()).toISOString().slice(0, 10);
      reply.header('content-type', 'text/csv; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="orders-${date}.csv"`);
      return reply.send(Readable.from(orders.exportCsv(request.query)));
    },
  );

  app.get(
    '/order/detail/:orderId',
    {
      schema: {
        tags: ['admin'],
        summary: 'One order with its timeline and the e-mails sent for it',
        params: z.object({ orderId: z.string().min(1).max(100) }),
        response: { 200: envelopeOf(z.any()), 401: FailureSchema, 404: FailureSchema },
      },
    },
    async (request) => ok(await orders.detail(request.params.orderId)),
  );

  app.post(
    '/order/reorder',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Send a paid order to the supplier again (not for Completed or Canceled); a Partial order gets what remains',
        body: OrderIdBody,
        response: { 200: ResubmitReply, ...errors },
      },
    },
    async (request) => {
      const { supplierOrderId, quantity } = await orders.reorder(request.body.razorpay_order_id, {
        adminId: request.admin?.adminId,
      });
      return ok({ supplierOrderId, quantity }, REORDER_MESSAGE);
    },
  );

  app.post(
    '/order/apply-service',
    {
      schema: {
        tags: ['admin'],
        summary: 'Send a paid order that is not at the supplier yet (or is flagged for review) now',
        body: OrderIdBody,
        response: { 200: ResubmitReply, ...errors },
      },
    },
    async (request) => {
      const { supplierOrderId, quantity } = await orders.applyService(request.body.razorpay_order_id, {
        adminId: request.admin?.adminId,
      });
      return ok({ supplierOrderId, quantity }, APPLY_SERVICE_MESSAGE);
    },
  );
};
