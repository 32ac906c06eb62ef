/**
 * The owner's dashboard as the browser sees it: the ranges it offers and the figures the API
 * replies with. Apart from core/admin/dashboard.ts, which reads them with Kysely, because the
 * dashboard page bundles these values and must not bundle the query code with them.
 */
export const DASHBOARD_RANGES = [7, 30, 90] as const;
export type DashboardRange = (typeof DASHBOARD_RANGES)[number];

export interface DashboardDay {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** Checkouts started that day, and how many of them were paid (on any day since). */
  checkouts: number;
  paidCheckouts: number;
  /** Payments received that day and their amount. */
  payments: number;
  revenue: number;
  /** Refunds made that day and their amount. */
  refunds: number;
  refunded: number;
}

export interface CurrencySeries {
  currency: string;
  days: DashboardDay[];
  totals: Omit<DashboardDay, 'day'>;
}

export interface ServiceDelivery {
  serviceSlug: string;
  completed: number;
  /** Mean seconds from payment to Completed, over the orders completed in the range. */
  averageSeconds: number;
}

export interface StatusCount {
  orderStatus: string;
  paymentStatus: string;
  count: number;
}

export interface DashboardFigures {
  range: DashboardRange;
  from: string;
  to: string;
  /** One series per currency that had any activity in the range, by currency code. */
  series: CurrencySeries[];
  statuses: StatusCount[];
  delivery: ServiceDelivery[];
  flaggedForReview: number;
}
