/**
 * The owner's dashboard over HTTP (issue 14): the figures of core/admin/dashboard.ts for the last
 * 7, 30 or 90 days, the failed-mail count, and the supplier panel's balance. Owner only.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DASHBOARD_RANGES, type Dashboard } from '../../core/admin/dashboard.ts';
import type { SupplierPanel } from '../../core/fulfilment/supplier.ts';
import { createSupplierBalance } from '../../core/fulfilment/supplier-balance.ts';
import type { FailedMailConsole } from '../../core/mail/failed-mail.ts';
import { type AuthenticateToken, OWNER_ONLY, requireAdmin } from './admin-guard.ts';
import { FailureSchema, envelopeOf, ok } from './envelope.ts';

export interface AdminDashboardApiOptions {
  dashboard: Dashboard;
  failedMail: FailedMailConsole;
  supplier: SupplierPanel;
  authenticate: AuthenticateToken;
  now?: () => Date;
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
  statuses: z.array(z.object({ orderStatus: z.string(), paymentStatus: z.string(), count: z.number().int() })),
  delivery: z.array(z.object({ serviceSlug: z.string(), completed: z.number().int(), averageSeconds: z.number() })),
  flaggedForReview: z.number().int(),
  failedMail: z.number().int(),
  supplierBalance: z.union([
    z.object({ balance: z.string(), currency: z.string(), checkedAt: z.string() }),
    z.object({ error: z.string(), checkedAt: z.string() }),
  ]),
});

export const adminDashboardApi: FastifyPluginAsyncZod<AdminDashboardApiOptions> = async (app, options) => {
  const { dashboard, failedMail, supplier } = options;
  const now = options.now ?? (() => new Date());
  app.addHook('onRequest', requireAdmin(options.authenticate, OWNER_ONLY));

  // The reason goes to the log (the client's errors never carry the key); the page gets a sentence.
  const supplierBalance = createSupplierBalance({
    supplier,
    now,
    onError: (error) => app.log.warn({ err: error }, 'supplier balance request failed'),
  });

  app.get(
    '/admin/dashboard',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The owner dashboard: revenue, payments, refunds and checkouts per day (7, 30 or 90 days, per currency), order statuses, average delivery time per service, orders flagged for review, failed mail and the supplier balance',
        querystring: DaysQuerySchema,
        response: { 200: envelopeOf(DashboardSchema), 400: FailureSchema, 401: FailureSchema },
      },
    },
    async (request) => {
      const [figures, failed, supplierAnswer] = await Promise.all([
        dashboard.figures(request.query.days),
        failedMail.count(),
        supplierBalance(),
      ]);
      return ok({ ...figures, failedMail: failed, supplierBalance: supplierAnswer });
    },
  );
};
