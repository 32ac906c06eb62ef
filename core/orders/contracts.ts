/**
 * The public order API's payloads and replies, once (spec section 3 and 7): the API routes
 * declare them (so they validate requests and make the OpenAPI document), the browser forms
 * validate with them, and the TypeScript types are inferred from them.
 *
 * Browser-safe: no database, mail or Node imports here (the order and client pages bundle it).
 */
import { z } from 'zod';
import { CustomerRefillSchema } from './refill-contracts.ts';
import { TARGET_KINDS } from '../catalogue/types.ts';
import { PAYMENT_STATUSES } from './types.ts';
import { oneTimeCodeField, requiredEmail, safeText } from '../form-fields.ts';
// The history forms' messages live in the zod-free ./history-form-check.ts, which /client uses (decision 037).
import { HISTORY_FORM_MESSAGES } from './history-form-check.ts';

export { HISTORY_FORM_MESSAGES } from './history-form-check.ts';

/** Every text field: no control or text-direction characters (form-fields.ts). */
const text = (max: number) => safeText(max);
/** Order URLs carry numbers as text; both spellings are accepted. */
const lenientText = (max: number) => z.union([safeText(max), z.number()]).transform(String);

// ---------------------------------------------------------------------------------------------
// The order page

/** `POST /api/order/form-detail`: missing parts get the spec's order-page messages from the lookup. */
export const FormDetailPayload = z.object({
  slug: lenientText(100).optional(),
  qty: lenientText(12).optional(),
  type: lenientText(40).optional(),
});
export type FormDetailPayload = z.input<typeof FormDetailPayload>;

/** One payment method of the checkout's chooser. */
export const PaymentMethodOptionSchema = z.object({
  id: z.string(),
  label: z.string(),
  detail: z.string(),
  /** The owner's price change for this method, in percent (negative: a discount). */
  adjustmentPercent: z.number(),
  /** What the selected package costs with this method. */
  charge: z.number(),
  default: z.boolean(),
});
export type PaymentMethodOption = z.infer<typeof PaymentMethodOptionSchema>;

export const TargetFieldSchema = z.object({ title: z.string(), placeholder: z.string(), icon: z.string() });

/** A subscription service's words on the order page, before payment (decision 057). */
export const FormSubscriptionSchema = z.object({
  /** What one period covers: "up to 30 new posts, 100 likes each, for 30 days". */
  coverage: z.string(),
  /** How it is renewed: never charged again by itself. */
  renewal: z.string(),
});

export const OrderFormDetailSchema = z.object({
  serviceId: z.string(),
  name: z.string(),
  targetKind: z.enum(TARGET_KINDS),
  commentRequired: z.boolean(),
  planType: z.string(),
  planTitle: z.string(),
  currency: z.string(),
  /** Spec order: target input, e-mail input, the package list, then the optional comment input. */
  fields: z.tuple(
    [
      TargetFieldSchema,
      z.object({ title: z.string(), placeholder: z.string() }),
      z.object({
        list: z.array(
          z.object({ qty: z.number(), text: z.string(), price: z.number(), listPrice: z.number().optional() }),
        ),
      }),
    ],
    TargetFieldSchema,
  ),
  selected: z.object({
    qty: z.number(),
    text: z.string(),
    price: z.number(),
    discount: z.number(),
    /** While a sale covers the package: its price before the sale (decision 031). */
    listPrice: z.number().optional(),
    /** What the buyer pays: the price, plus 1 when it is 1 or less (spec section 9). */
    charge: z.number(),
  }),
  /** The payment methods this store offers, each with its price for the selected package. */
  paymentMethods: z.array(PaymentMethodOptionSchema),
  /** True when payments are simulated (no provider keys): the checkout says so. */
  testMode: z.boolean(),
  /** Subscription services only (automatic likes, daily followers): what the period covers. */
  subscription: FormSubscriptionSchema.optional(),
});

/**
 * `POST /api/order`. The buyer's fields are only shaped here: their rules depend on the package
 * (`orderFormSchema` in validation.ts, applied by order creation once it has found the package).
 */
export const CreateOrderPayload = z.object({
  type: text(40),
  slug: text(100),
  qty: lenientText(12),
  name: text(500).default(''),
  email: text(254).default(''),
  amount: z.number().nonnegative().optional(),
  currency: text(8).optional(),
  /** The browser's random 6-digit id; one per form, so a double click names the same order. */
  order_id: lenientText(12),
  comment: safeText(5000, { multiline: true }).optional(),
  /** The spec's older spelling of `comment`. */
  comments: safeText(5000, { multiline: true }).optional(),
  /**
   * How the buyer pays: a method id the form's data lists (`card`, `card-3ds`, `crypto`).
   * Omitted: the default card method, so clients written against the spec keep working.
   */
  paymentMethod: text(40).optional(),
  /** The single-use token of a renewal link (`/order/…?renewal=`): this order renews a subscription. */
  renewalToken: z.string().max(200).optional(),
});
/** What a client sends. */
export type CreateOrderPayload = z.input<typeof CreateOrderPayload>;

export const CheckoutInstructionsSchema = z.discriminatedUnion('provider', [
  z.object({
    provider: z.literal('sandbox'),
    order_id: z.string(),
    amountCents: z.number(),
    currency: z.string(),
    methodLabel: z.string(),
  }),
  z.object({
    provider: z.literal('razorpay'),
    key: z.string(),
    order_id: z.string(),
    amount: z.number(),
    currency: z.string(),
    name: z.string(),
    description: z.string(),
    prefill: z.object({ email: z.string() }),
  }),
  z.object({ provider: z.enum(['cryptomus', 'solidgate']), redirectUrl: z.string() }),
]);

export const CreatedOrderSchema = z.object({
  currency: z.string(),
  serviceName: z.string(),
  /** The order's reference, `order_` + `orderId` (the spec's field name, for spec clients). */
  razorpay_order_id: z.string(),
  /** The order's public id: its confirmation page is `/order-confirm/{orderId}`. */
  orderId: z.string(),
  email: z.string(),
  /** The chosen method's price, which is exactly what is charged. */
  amountCents: z.number(),
  paymentMethod: z.string(),
  /** What the method changed the price by (negative: a discount), included in `amountCents`. */
  adjustmentCents: z.number(),
  /** A hosted payment page to send the buyer to (crypto, 3-D Secure cards); absent for an in-page window. */
  redirectUrl: z.string().optional(),
  /** The package price as the order stored it; `amountCents` − `packagePriceCents` is the processing fee. */
  packagePriceCents: z.number(),
  /** The package's price before a sale, when a sale reduced `packagePriceCents` (decision 038). */
  listPriceCents: z.number().optional(),
  checkout: CheckoutInstructionsSchema,
});
/** What the order page gets back to take the payment. */
export type CreatedOrder = z.infer<typeof CreatedOrderSchema>;

// ---------------------------------------------------------------------------------------------
// A failed payment attempt

// `POST /api/order/payment-failed`'s reasons live without zod in ./payment-failures.ts, for the
// order page's payment window (decision 037).
export { PAYMENT_FAILURE_MESSAGES, PAYMENT_FAILURE_REASONS } from './payment-failures.ts';

// ---------------------------------------------------------------------------------------------
// A subscription order, on the confirmation page and in /client (core/orders/subscription-view.ts)

export const OrderSubscriptionSchema = z.object({
  /** What the period covers: "up to 30 new posts, 100 likes each, until 27 Dec 2026". */
  coverage: z.string(),
  /** Where it stands: "12 of 30 posts, 18 days left", "Waiting for …", "Ended 12 Dec 2026: …". */
  progress: z.string(),
  /** At the supplier and not ended. */
  running: z.boolean(),
  /** Paid, waiting for the order ahead of it on the same account to finish. */
  queued: z.boolean(),
  /** Whether a renewal link is e-mailed before the end. */
  reminders: z.boolean(),
  /** Whether "Cancel subscription" is offered: the panel runs it (one not sent yet cannot be stopped there). */
  canCancel: z.boolean(),
  /** What cancelling now refunds, by the recorded rule, in words; null when it cannot be cancelled. */
  cancelRefund: z.string().nullable(),
  /** /client only: the proof for cancel and reminders (the refill token); null elsewhere. */
  token: z.string().nullable(),
});
export type OrderSubscription = z.infer<typeof OrderSubscriptionSchema>;

// ---------------------------------------------------------------------------------------------
// The confirmation page

/** `GET /api/order/order-status?orderId=`: the public id, with or without the provider's `order_` prefix. */
export const OrderStatusQuery = z.object({ orderId: text(100).trim().min(1, 'orderId is required') });
export type OrderStatusQuery = z.input<typeof OrderStatusQuery>;

export const OrderStatusViewSchema = z.object({
  razorPayOrderId: z.string(),
  orderId: z.string(),
  /** Masked: the confirmation page is open to anyone with its link. */
  email: z.string(),
  serviceName: z.string(),
  quantity: z.number(),
  target: z.string(),
  amount: z.number(),
  /** The package price the order stored; `amount` − `adjustment` − `price` is the processing fee (decision 033). */
  price: z.number(),
  /** The payment method's price change (negative: a discount), included in `amount`. */
  adjustment: z.number(),
  /** The payment method, in words ("Crypto"). */
  paymentMethod: z.string(),
  /** Paid (or to be paid) in the keyless sandbox: no money moves. */
  testMode: z.boolean(),
  /** Refunded so far, and when the first refund was made (null before any). */
  refunded: z.number(),
  refundedAt: z.string().nullable(),
  /** The package's order page, for "Try again" after a failed payment. */
  orderPath: z.string(),
  currency: z.string(),
  orderStatus: z.string(),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  createdAt: z.string(),
  /** Subscription orders only. */
  subscription: OrderSubscriptionSchema.optional(),
  /** Money that arrived after the order expired: never applied, given back (core/orders/late-payment.ts). */
  latePayment: z
    .object({ refund: z.enum(['refunding', 'awaiting_address', 'refunded']), message: z.string() })
    .optional(),
  /**
   * Expired orders only: the same package's order page with the account filled in, where it is
   * priced from today's catalogue (an expired order's own price is stale and never charged).
   */
  placeAgainPath: z.string().optional(),
});
/** What the confirmation page shows. */
export type OrderStatusView = z.infer<typeof OrderStatusViewSchema>;

// ---------------------------------------------------------------------------------------------
// The client page (order history behind an e-mailed code)

const HistoryEmail = requiredEmail({
  required: HISTORY_FORM_MESSAGES.emailRequired,
  invalid: HISTORY_FORM_MESSAGES.emailInvalid,
});

/** `POST /api/order/order-history/code`. */
export const HistoryCodePayload = z.object({ email: HistoryEmail });
export type HistoryCodePayload = z.input<typeof HistoryCodePayload>;

/** `PATCH /api/order/order-history`. */
export const HistoryLookupPayload = z.object({
  email: HistoryEmail,
  code: oneTimeCodeField({ required: HISTORY_FORM_MESSAGES.codeRequired, format: HISTORY_FORM_MESSAGES.codeFormat }),
});
export type HistoryLookupPayload = z.input<typeof HistoryLookupPayload>;

/** One row of the spec's order history (section 3, "Order (history row)"). */
export const HistoryRowSchema = z.object({
  /** The payment provider's order id, with its `order_` prefix. */
  razorPayOrderId: z.string(),
  /** The service slug. */
  serviceId: z.string(),
  /** The target: username or post/video URL. */
  name: z.string(),
  serviceName: z.string(),
  quantity: z.number(),
  /** The amount charged, in `currency`. */
  price: z.number(),
  /** The package price the order stored; `price` − `packagePrice` is the processing fee (decision 033). */
  packagePrice: z.number(),
  /** Refunded so far, and when the refund was made (null before any). */
  refunded: z.number(),
  refundedAt: z.string().nullable(),
  currency: z.string(),
  orderStatus: z.string(),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  /** ISO-8601 creation time. */
  orderDate: z.string(),
  errorMessage: z.string().nullable(),
  email: z.string(),
  /** Completed orders only: the refill state and whether "Request refill" is offered (decision 040). */
  refill: CustomerRefillSchema.optional(),
  /** Subscription orders only: coverage, progress, and what the customer may do with it. */
  subscription: OrderSubscriptionSchema.optional(),
});
export type HistoryRow = z.infer<typeof HistoryRowSchema>;
