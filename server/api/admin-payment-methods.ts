/**
 * The owner's payment method settings over HTTP: each configured method with its provider, test
 * mode or live, and its price change in percent; saving new values. Owner only, like the
 * catalogue's prices (decision 041): a price change reprices every checkout. Thin:
 * core/payments/method-settings.ts holds the rules; the audit entry records the values that
 * changed, by the methods' names.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PaymentMethodSettingsSchema,
  PaymentMethodsUpdateSchema,
} from '../../core/payments/method-settings-contracts.ts';
import {
  type MethodSettingsDeps,
  listMethodSettings,
  saveMethodSettings,
} from '../../core/payments/method-settings.ts';
import { auditChangeOf } from './admin-audit.ts';
import { type AuthenticateToken, OWNER_ONLY, requireAdmin } from './admin-guard.ts';
import { FailureSchema, envelopeOf, ok } from './envelope.ts';

interface AdminPaymentMethodsApiOptions extends MethodSettingsDeps {
  authenticate: AuthenticateToken;
}

const SAVED_MESSAGE = 'Payment method prices saved: the next checkout uses them.';

export const adminPaymentMethodsApi: FastifyPluginAsyncZod<AdminPaymentMethodsApiOptions> = async (app, options) => {
  const deps: MethodSettingsDeps = { db: options.db, gateways: options.gateways };
  app.addHook('onRequest', requireAdmin(options.authenticate, OWNER_ONLY));

  app.get(
    '/admin/payment-methods',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The payment methods this store offers: provider, test mode or live, the price change in percent, and what a $10.00 package costs by each',
        response: { 200: envelopeOf(PaymentMethodSettingsSchema), 401: FailureSchema, 403: FailureSchema },
      },
    },
    async () => ok(await listMethodSettings(deps)),
  );

  app.put(
    '/admin/payment-methods',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Set the price change (percent, within the bounds, up to 2 decimals) of one or more offered payment methods',
        body: PaymentMethodsUpdateSchema,
        response: {
          200: envelopeOf(PaymentMethodSettingsSchema),
          400: FailureSchema,
          401: FailureSchema,
          403: FailureSchema,
        },
      },
    },
    async (request) => ok(await saveMethodSettings(deps, request.body, auditChangeOf(request)), SAVED_MESSAGE),
  );
};
