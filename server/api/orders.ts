import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Catalogue } from '../../core/catalogue/catalogue.ts';
import {
  CreateOrderPayload,
  CreatedOrderSchema,
  FormDetailPayload,
  OrderFormDetailSchema,
  OrderStatusQuery,
  OrderStatusViewSchema,
  PAYMENT_FAILURE_MESSAGES,
  PAYMENT_FAILURE_REASONS,
} from '../../core/orders/contracts.ts';
import { type CheckoutMethods, lookUpOrderForm } from '../../core/orders/form-detail.ts';
import { safeText } from '../../core/form-fields.ts';
import type { OrderService } from '../../core/orders/orders.ts';
import { WebhookRejected } from '../../core/orders/payments.ts';
import { PAYMENT_STATUSES } from '../../core/orders/types.ts';
import type { PaymentGateways } from '../../core/payments/methods.ts';
import type { SandboxProvider } from '../../core/payments/sandbox.ts';
import { FailureSchema, envelopeOf, failure, ok } from './envelope.ts';

const text = (max: number) => safeText(max);

const PaymentResultBody = z.object({
  razorpay_order_id: text(100).min(1, 'razorpay_order_id is required'),
  razorpay_payment_id: text(100).min(1, 'razorpay_payment_id is required'),
  razorpay_signature: text(200).min(1, 'razorpay_signature is required'),
});

/** Anyone holding an order id may call this: it takes a reason code, never free text (decision 017). */
const PaymentFailedBody = z.object({
  razorpay_order_id: text(100).min(1),
  razorpay_payment_id: text(100).optional(),
  reason: z
    .enum(PAYMENT_FAILURE_REASONS)
    .optional()
    .describe('Razorpay checkout’s error.reason when it is one of these, else `other`'),
});

const WebhookParams = z.object({ provider: z.enum(['razorpay', 'cryptomus', 'solidgate']) });

const OrderIdBody = z.object({ razorpay_order_id: text(100).min(1, 'razorpay_order_id is required') });

interface OrdersApiOptions {
  catalogue: Catalogue;
  orders: OrderService;
  gateways: PaymentGateways;
  /** The methods offered now, with the owner's adjustments (read per request: the owner may change them). */
  checkoutMethods: () => Promise<CheckoutMethods>;
}

const limit = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });

export const ordersApi: FastifyPluginAsyncZod<OrdersApiOptions> = async (
  app,
  { catalogue, orders, gateways, checkoutMethods },
) => {
  app.post(
    '/order/form-detail',
    {
      schema: {
        tags: ['checkout'],
        summary: 'What the order form needs for one package (target field, package list, comment field)',
        body: FormDetailPayload,
        response: { 200: envelopeOf(OrderFormDetailSchema), 400: FailureSchema, 404: FailureSchema },
      },
    },
    async (request, reply) => {
      const lookup = await lookUpOrderForm(catalogue, request.body, checkoutMethods);
      if (!lookup.ok) return reply.status(lookup.status).send(failure(lookup.message));
      return ok(lookup.detail);
    },
  );

  app.post(
    '/order',
    {
      config: limit(20),
      schema: {
        tags: ['checkout'],
        summary: 'Create an order priced from the catalogue and open a payment with the provider',
        body: CreateOrderPayload,
        response: {
          200: envelopeOf(CreatedOrderSchema),
          400: FailureSchema,
          404: FailureSchema,
          409: FailureSchema,
          502: FailureSchema,
        },
      },
    },
    async (request) => {
      const { comments, comment, ...rest } = request.body;
      return ok(await orders.create({ ...rest, comment: comment ?? comments }), 'Order created');
    },
  );

  app.post(
    '/order/verify-payment',
    {
      config: limit(30),
      schema: {
        tags: ['checkout'],
        summary: 'Verify the payment window’s signed result and mark the order paid (exactly once)',
        body: PaymentResultBody,
        response: { 200: envelopeOf(z.object({ orderId: z.string() })), 400: FailureSchema, 404: FailureSchema },
      },
    },
    async (request) => {
      return ok(await orders.verifyPayment(request.body), 'Payment verified');
    },
  );

  app.post(
    '/order/payment-failed',
    {
      config: limit(30),
      schema: {
        tags: ['checkout'],
        summary: 'Record a failed attempt reported by the payment window',
        body: PaymentFailedBody,
        response: { 200: envelopeOf(z.object({ orderId: z.string() })), 400: FailureSchema, 404: FailureSchema },
      },
    },
    async (request) => {
      const { reason, ...attempt } = request.body;
      // The order's error message is our fixed sentence for the code, never the caller's text.
      const recorded = await orders.paymentFailed({ ...attempt, reason: PAYMENT_FAILURE_MESSAGES[reason ?? 'other'] });
      return ok(recorded, 'Payment failure recorded');
    },
  );

  app.post(
    '/order/check-payment',
    {
      config: limit(30),
      schema: {
        tags: ['checkout'],
        summary: 'The buyer is back from a hosted payment page: ask the payment providers about the order now',
        body: OrderStatusQuery,
        response: {
          200: envelopeOf(z.object({ orderId: z.string(), paymentStatus: z.enum(PAYMENT_STATUSES) })),
          400: FailureSchema,
          404: FailureSchema,
        },
      },
    },
    async (request) => ok(await orders.checkPayment(request.body.orderId)),
  );

  app.get(
    '/order/order-status',
    {
      config: limit(60),
      schema: {
        tags: ['checkout'],
        summary: 'Status of one order for its confirmation page (the e-mail is masked)',
        querystring: OrderStatusQuery,
        response: { 200: envelopeOf(OrderStatusViewSchema), 400: FailureSchema, 404: FailureSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return ok(await orders.status(request.query.orderId));
    },
  );

  // Webhooks need the raw body for the signature, so they get their own parser scope.
  await app.register(async (hooks) => {
    hooks.removeContentTypeParser('application/json');
    hooks.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
      (_request, body, parsed) => parsed(null, body),
    );
    hooks.post(
      '/payments/:provider/webhook',
      {
        schema: {
          tags: ['payments'],
          summary: 'A payment provider’s webhook (razorpay, cryptomus, solidgate), verified over the raw body',
          description:
            'Each provider signs its own way: Razorpay `X-Razorpay-Signature`, Cryptomus the `sign` field of the body, Solidgate the `merchant` and `signature` headers.',
          params: WebhookParams,
          response: {
            200: envelopeOf(z.object({ result: z.string() })),
            400: FailureSchema,
            404: FailureSchema,
          },
        },
      },
      async (request, reply) => {
        const { provider } = WebhookParams.parse(request.params);
        const raw = request.body;
        if (!Buffer.isBuffer(raw)) return reply.status(400).send(failure('Invalid webhook signature'));
        try {
          const { result } = await orders.handleWebhook(provider, raw, request.headers);
          return ok({ result }, 'Webhook processed');
        } catch (error) {
          if (!(error instanceof WebhookRejected)) throw error;
          request.log.warn({ provider, reason: error.message }, 'webhook rejected');
          return reply.status(400).send(failure(error.message));
        }
      },
    );
  });

  const sandboxProvider = gateways.provider('sandbox');
  if (sandboxProvider) {
    const sandbox = sandboxProvider as SandboxProvider;
    app.post(
      '/sandbox/pay',
      {
        config: limit(30),
        schema: {
          tags: ['sandbox'],
          summary: 'Sandbox payment window: pay',
          body: OrderIdBody,
          response: { 200: envelopeOf(PaymentResultBody), 400: FailureSchema, 404: FailureSchema, 409: FailureSchema },
        },
      },
      async (request, reply) => {
        const order = await orders.payableOrder(request.body.razorpay_order_id);
        if (order.paymentStatus === 'paid') return reply.status(409).send(failure('This order is already paid'));
        return ok(await sandbox.pay(order), 'Payment captured');
      },
    );
    app.post(
      '/sandbox/fail',
      {
        config: limit(30),
        schema: {
          tags: ['sandbox'],
          summary: 'Sandbox payment window: a declined card',
          body: OrderIdBody,
          response: {
            200: envelopeOf(z.object({ paymentId: z.string(), description: z.string() })),
            400: FailureSchema,
            404: FailureSchema,
          },
        },
      },
      async (request) => {
        const order = await orders.payableOrder(request.body.razorpay_order_id);
        return ok(await sandbox.fail(order), 'Payment failed');
      },
    );
  }
};
