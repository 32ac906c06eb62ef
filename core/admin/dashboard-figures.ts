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
  /** The service's name as the catalogue calls it (the slug when the service is gone). */
  serviceName: string;
  completed: number;
  /** Mean seconds from payment to Completed, over the orders completed in the range. */
  averageSeconds: number;
}

export interface StatusCount {
  orderStatus: string;
  paymentStatus: string;
  /** The payment state in the owner's words ("Awaiting payment", not `created`). */
  paymentWords: string;
  count: number;
}

/** What one payment method of a provider took in the range. */
export interface MethodMoney {
  /** The method's name for buyers ("Crypto"). */
  label: string;
  payments: number;
  revenue: number;
}

/**
 * One provider's money in one currency (core/admin/dashboard-money.ts). Payments, refunds and
 * chargebacks are those of the range; second payments to refund are all that wait now, whenever
 * they came.
 */
export interface ProviderMoney {
  /** The provider's id: a key for the page, never shown. */
  provider: string;
  /** Its name for the owner ("Cryptomus", "Test payments"). */
  label: string;
  currency: string;
  /** Payments that paid an order, and their amount. */
  payments: number;
  revenue: number;
  methods: MethodMoney[];
  /** Refunds made (the provider confirmed them), and their amount. */
  refunds: number;
  refunded: number;
  /** Chargebacks and disputes opened: money the owner may lose, and a fee besides. */
  disputes: number;
  disputed: number;
  /** Second payments and underpayments not refunded yet, and what is left of them to refund. */
  toRefund: number;
  toRefundAmount: number;
}

/** The dashboard's revenue split (decision 057): one-off packages, and subscriptions of either kind. */
export const REVENUE_KINDS = ['one_off', 'subscription'] as const;
export type RevenueKind = (typeof REVENUE_KINDS)[number];
export const REVENUE_KIND_LABELS: Readonly<Record<RevenueKind, string>> = {
  one_off: 'One-off packages',
  subscription: 'Subscriptions',
};

/** What one kind of order took in the range, in one currency. */
export interface KindMoney {
  kind: RevenueKind;
  label: string;
  currency: string;
  payments: number;
  revenue: number;
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
  /** Per provider and currency, by provider name, then currency. */
  byProvider: ProviderMoney[];
  /** Per currency, one-off then subscriptions: the range's payments by the kind of order they paid. */
  byKind: KindMoney[];
}
