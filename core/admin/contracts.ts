/**
 * The admin orders API's payloads and replies, once (spec "Admin all-orders", sections 4 and 7;
 * design/api-contract.md for reorder and apply-service): the API routes declare them (so they
 * validate requests, check replies and make the OpenAPI document), the console's TypeScript
 * types are inferred from them, and the admin screens import those types.
 *
 * Browser-safe: no database or Node imports here (the admin screens bundle it).
 */
import { z } from 'zod';
import { FULFILMENT_STATES, ORDER_STATUSES, PAYMENT_STATUSES, PENDING_ACTIONS } from '../orders/status.ts';
import { PROVIDER_IDS } from '../payments/provider.ts';
import { SERVICE_KINDS } from '../subscriptions/terms.ts';
import { OrderMoneySchema } from './refund-contracts.ts';

export const MAX_KEYWORD_LENGTH = 200;
/** An e-mail is at most 254 characters (core/email.ts). */
export const MAX_EMAIL_FILTER_LENGTH = 254;
/** An internal note on an order: enough for a few paragraphs, never an archive. */
export const ORDER_NOTE_MAX_LENGTH = 2000;

/**
 * The list's views beside the status filter: subscriptions (orders of a subscription kind),
 * ending (running subscriptions whose period ends within 7 days, soonest first) and queued
 * (paid orders waiting for the order ahead of them on the same account).
 */
export const ORDER_VIEWS = ['subscriptions', 'ending', 'queued'] as const;
export type OrderView = (typeof ORDER_VIEWS)[number];
export const ORDER_VIEW_LABELS: Readonly<Record<OrderView, string>> = {
  subscriptions: 'Subscriptions',
  ending: 'Subscriptions ending this week',
  queued: 'Queued behind another order',
};

// ---------------------------------------------------------------------------------------------
// Requests

/** `?page=` (empty) means the default, as browsers send empty fields. */
const optionalPositiveInt = (max: number) =>
  z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number().int().min(1).max(max).optional());

/**
 * The list's filter (also the CSV export's). `status` is matched case-insensitively against
 * ORDER_STATUSES by the console ('in progress', 'In Progress', 'inprogress'); '' and 'all' mean
 * every status; anything else is a 400 with the list of statuses. `provider` is the payment
 * provider that took (or is to take) the order's money; '' means every provider.
 */
export const OrdersFilterSchema = z.object({
  keyword: z.string().max(MAX_KEYWORD_LENGTH).optional(),
  status: z.string().max(40).optional(),
  provider: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(PROVIDER_IDS, { error: `must be one of ${PROVIDER_IDS.join(', ')}` }).optional(),
  ),
  view: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.enum(ORDER_VIEWS, { error: `must be one of ${ORDER_VIEWS.join(', ')}` }).optional(),
  ),
  /**
   * One customer's orders: the e-mail exactly, case-blind (orders store it lowercased), served
   * by the index on (email, created_at); the list then carries that customer's totals.
   */
  email: z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() || undefined : value),
    z.string().max(MAX_EMAIL_FILTER_LENGTH, `must be at most ${MAX_EMAIL_FILTER_LENGTH} characters`).optional(),
  ),
});
export type OrdersFilter = z.infer<typeof OrdersFilterSchema>;

/** `GET /api/order/all-orders`: the filter and the page. */
export const OrdersListQuerySchema = OrdersFilterSchema.extend({
  page: optionalPositiveInt(10_000_000),
  // Larger sizes are served as 100 (the console's maximum).
  size: optionalPositiveInt(10_000),
});
export type OrdersListQuery = z.infer<typeof OrdersListQuerySchema>;

/** `POST /api/order/reorder` and `POST /api/order/apply-service` (the spec's field name). */
export const OrderActionBodySchema = z.object({
  razorpay_order_id: z.string().trim().min(1, 'razorpay_order_id is required').max(100),
});
export type OrderActionBody = z.input<typeof OrderActionBodySchema>;

export const OrderDetailParamsSchema = z.object({ orderId: z.string().min(1).max(100) });

// ---------------------------------------------------------------------------------------------
// Rows and replies

/** One row of the all-orders table (field names follow the spec's order row). */
export const ConsoleRowSchema = z.object({
  razorPayOrderId: z.string(),
  /** The provider order id without its `order_` prefix. */
  orderId: z.string(),
  orderDate: z.string(),
  email: z.string(),
  serviceName: z.string(),
  /** The target: username or post/video URL. */
  name: z.string(),
  quantity: z.number(),
  /** What the customer was charged. */
  price: z.number(),
  currency: z.string(),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  orderStatus: z.enum(ORDER_STATUSES),
  supplierOrderId: z.string().nullable(),
  errorMessage: z.string().nullable(),
  needsReview: z.boolean(),
  reviewReason: z.string().nullable(),
  fulfilmentState: z.enum(FULFILMENT_STATES),
  /** The fulfilment state in words; a queued order names the order it waits for. */
  fulfilmentText: z.string(),
  /** What the order sells: a one-off package or a subscription kind, and that in words. */
  kind: z.enum(SERVICE_KINDS),
  kindLabel: z.string(),
  /** A subscription's period in one line each: what it covers, where it stands, when it ends. */
  subscription: z
    .object({ coverage: z.string(), progress: z.string(), endsAt: z.string().nullable(), running: z.boolean() })
    .nullable(),
  /** The payment method in words ("Crypto"): the one that paid, or the buyer's latest choice. */
  paymentMethod: z.string(),
  /** Its provider's name for the owner ("Cryptomus"). */
  paymentProvider: z.string(),
  /** What that method changed the price by (negative: a discount), included in `price`. */
  methodAdjustment: z.number(),
  /**
   * An admin action queued for the order and not finished yet: the console shows the row as
   * pending (no action offered) until its result is on the timeline.
   */
  pendingAction: z.enum(PENDING_ACTIONS).nullable(),
  /** The server would accept a reorder now: the console offers it only then. */
  canReorder: z.boolean(),
  /** The server would accept apply-service now: the console offers it only then. */
  canApplyService: z.boolean(),
});
export type ConsoleRow = z.infer<typeof ConsoleRowSchema>;

/** Money of one currency a customer paid and got back (never two currencies added together). */
export const CustomerMoneySchema = z.object({ currency: z.string(), paid: z.number(), refunded: z.number() });

/**
 * One customer's totals (the list filtered by `email`): every order of the address whatever the
 * other filters, the money received for them (second payments included) and given back, per currency.
 */
export const CustomerTotalsSchema = z.object({
  email: z.string(),
  orders: z.number().int(),
  money: z.array(CustomerMoneySchema),
});
export type CustomerTotals = z.infer<typeof CustomerTotalsSchema>;

/** One page of the list, as the console answers it. */
export const OrdersPageSchema = z.object({
  rows: z.array(ConsoleRowSchema),
  count: z.number().int(),
  totalPages: z.number().int(),
  currentPage: z.number().int(),
  /** False when `count` is an estimate (a keyword with many matches). */
  countExact: z.boolean(),
});
export type OrdersPage = z.infer<typeof OrdersPageSchema>;

/**
 * `GET /api/order/all-orders`: the spec's envelope with the rows as `data` and the page's
 * figures beside it.
 */
export const OrdersListReplySchema = z
  .object({ isSuccessful: z.boolean(), message: z.string(), data: OrdersPageSchema.shape.rows })
  .extend(OrdersPageSchema.omit({ rows: true }).shape)
  .extend({
    /** The providers the filter offers: those configured and those that have orders. */
    providers: z.array(z.object({ id: z.enum(PROVIDER_IDS), label: z.string() })),
    customer: CustomerTotalsSchema.optional().describe('Present when the list is filtered by `email`'),
  });
export type OrdersListReply = z.infer<typeof OrdersListReplySchema>;

/** An admin's internal note on an order: console only, never in a customer's reply. */
export const OrderNoteSchema = z.object({ text: z.string(), updatedAt: z.string() });
export type OrderNote = z.infer<typeof OrderNoteSchema>;

/** `PUT /api/order/note/:orderId`: the note's plain text, trimmed; empty removes it. */
export const OrderNoteBodySchema = z.object({
  note: z
    .string({ error: 'note is required' })
    .trim()
    .max(ORDER_NOTE_MAX_LENGTH, `The note must be at most ${ORDER_NOTE_MAX_LENGTH} characters.`),
});
export type OrderNoteBody = z.input<typeof OrderNoteBodySchema>;

/** The detail's order: the row plus the facts only the detail shows. */
const OrderFactsSchema = ConsoleRowSchema.extend({
  id: z.number().int(),
  provider: z.string(),
  clientOrderId: z.string(),
  serviceSlug: z.string(),
  planType: z.string(),
  targetKind: z.string(),
  comment: z.string().nullable(),
  supplierServiceId: z.string(),
  listPrice: z.number(),
  paymentId: z.string().nullable(),
  paidAt: z.string().nullable(),
  updatedAt: z.string(),
  fulfilmentAttempts: z.number().int(),
  startCount: z.number().nullable(),
  remains: z.number().nullable(),
  supplierCharge: z.number().nullable(),
  statusSyncedAt: z.string().nullable(),
  refunded: z.number(),
});

/** One order_events entry; `detail` is the event's recorded JSON object. */
export const TimelineEntrySchema = z.object({
  at: z.string(),
  kind: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export type TimelineEntry = z.infer<typeof TimelineEntrySchema>;

/** A receipt or status e-mail queued for the order (a mail job). */
const OrderEmailSchema = z.object({
  id: z.number().int(),
  dedupeKey: z.string().nullable(),
  to: z.string().nullable(),
  subject: z.string().nullable(),
  status: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A subscription's facts for the detail, in words (null for a one-off order). */
export const SubscriptionDetailSchema = z.object({
  coverage: z.string(),
  progress: z.string(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  /** The supplier's own word for it, as it last said it. */
  panelStatus: z.string().nullable(),
  endedAt: z.string().nullable(),
  endReason: z.string().nullable(),
  /** Running at the supplier: the owner may cancel it there. */
  running: z.boolean(),
  /** What cancelling now gives back, by the recorded rule, in one sentence. */
  refundRule: z.string(),
  reminders: z.boolean(),
  reminderSentAt: z.string().nullable(),
  /** The order this one renews, and the one that renewed it (public ids). */
  renews: z.string().nullable(),
  renewedBy: z.string().nullable(),
});
export type SubscriptionDetail = z.infer<typeof SubscriptionDetailSchema>;

/** `GET /api/order/detail/:orderId`'s data. */
export const OrderDetailSchema = z.object({
  order: OrderFactsSchema,
  /** Oldest first. */
  timeline: z.array(TimelineEntrySchema),
  emails: z.array(OrderEmailSchema),
  /** The payments received, what is left to refund on each, and the refunds made. */
  money: OrderMoneySchema,
  subscription: SubscriptionDetailSchema.nullable(),
  /** The team's internal note (null: none). */
  note: OrderNoteSchema.nullable(),
});
export type OrderDetail = z.infer<typeof OrderDetailSchema>;

/**
 * The data of an accepted reorder or apply-service (HTTP 202): the action is queued as a job
 * (decision 012) and the row shows it as `pendingAction` until its result is on the timeline.
 */
export const OrderActionAcceptedSchema = z.object({
  state: z.literal('pending'),
  action: z.enum(PENDING_ACTIONS),
  /** The order's action attempt number (the job's dedupe key). */
  attempt: z.number().int(),
});
export type OrderActionAccepted = z.infer<typeof OrderActionAcceptedSchema>;
