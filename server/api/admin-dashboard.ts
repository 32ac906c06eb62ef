/**
 * The owner's dashboard over HTTP (decision 042): the figures of core/admin/dashboard.ts for the last
 * 7, 30 or 90 days, the failed-mail count, and each supplier panel's balance (decision 045: asked
 * at most once a minute per panel). Owner only.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DASHBOARD_RANGES, REVENUE_KINDS } from '../../core/admin/dashboard-figures.ts';
import type { Dashboard } from '../../core/admin/dashboard.ts';
import type { SupplierAdmin } from '../../core/fulfilment/panels-admin.ts';
import { PanelBalanceSchema } from '../../core/fulfilment/supplier-contracts.ts';
import type { FailedMailConsole } from '../../core/mail/failed-mail.ts';
import { type AuthenticateToken, OWNER_ONLY, requireAdmin } from './admin-guard.ts';
import { FailureSchema, envelopeOf, ok } from './envelope.ts';

interface AdminDashboardApiOptions {
  dashboard: Dashboard;
  failedMail: FailedMailConsole;
  /** Every panel's balance (core/fulfilment/panels-admin.ts). */
  suppliers: Pick<SupplierAdmin, 'balances'>;
  authenticate: AuthenticateToken;
}

const DaysQuerySchema = z.object({
  days: z.coerce
    .number({ error: 'must be 7, 30 or 90' })
    .refine((days): days is (typeof DASHBOARD_RANGES)[number] => DASHBOARD_RANGES.some((range) => range === days), {
      error: 'must be 7, 30 or 90',
    })
    .default(30),
});

const DayFiguresSchema = z.object({
  checkouts: z.number().int(),
  paidCheckouts: z.number().int(),
  payments: z.number().int(),
  revenue: z.number(),
  refunds: z.number().int(),
  refunded: z.number(),
});

const DashboardSchema = z.object({
  range: z.number().int(),
  from: z.string(),
  to: z.string(),
  series: z.array(
    z.object({
      currency: z.string(),
      days: z.array(DayFiguresSchema.extend({ day: z.string() })),
      totals: DayFiguresSchema,
    }),
  ),
  statuses: z.array(
    z.object({
      orderStatus: z.string(),
      paymentStatus: z.string(),
      paymentWords: z.string(),
      count: z.number().int(),
    }),
  ),
  delivery: z.array(
    z.object({
      serviceSlug: z.string(),
      serviceName: z.string(),
      completed: z.number().int(),
      averageSeconds: z.number(),
    }),
  ),
  flaggedForReview: z.number().int(),
  byProvider: z.array(
    z.object({
      provider: z.string(),
      label: z.string(),
      currency: z.string(),
      payments: z.number().int(),
      revenue: z.number(),
      methods: z.array(z.object({ label: z.string(), payments: z.number().int(), revenue: z.number() })),
      refunds: z.number().int(),
      refunded: z.number(),
      disputes: z.number().int(),
      disputed: z.number(),
      toRefund: z.number().int(),
      toRefundAmount: z.number(),
    }),
  ),
  byKind: z.array(
    z.object({
      kind: z.enum(REVENUE_KINDS),
      label: z.string(),
      currency: z.string(),
      payments: z.number().int(),
      revenue: z.number(),
    }),
  ),
  failedMail: z.number().int(),
  supplierBalances: z.array(PanelBalanceSchema),
});

export const adminDashboardApi: FastifyPluginAsyncZod<AdminDashboardApiOptions> = async (app, options) => {
  const { dashboard, failedMail, suppliers } = options;
  app.addHook('onRequest', requireAdmin(options.authenticate, OWNER_ONLY));

  app.get(
    '/admin/dashboard',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The owner dashboard: revenue, payments, refunds and checkouts per day (7, 30 or 90 days, per currency), order statuses, average delivery time per service, money per payment provider (payments, refunds, chargebacks, second payments to refund), orders flagged for review, failed mail and each supplier panel’s balance',
        querystring: DaysQuerySchema,
        response: { 200: envelopeOf(DashboardSchema), 400: FailureSchema, 401: FailureSchema },
      },
    },
    async (request) => {
      const [figures, failed, supplierBalances] = await Promise.all([
        dashboard.figures(request.query.days),
        failedMail.count(),
        suppliers.balances(),
      ]);
      return ok({ ...figures, failedMail: failed, supplierBalances });
    },
  );
};
