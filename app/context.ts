/**
 * What loaders get from the server: the domain services, created once at boot by the Fastify
 * server and handed to React Router per request (see entry.server.tsx, `createLoadContext`).
 */
import { createContext, RouterContextProvider } from 'react-router';
import type { Blog } from '../core/blog/blog.ts';
import type { Catalogue } from '../core/catalogue/catalogue.ts';
import type { SaleBanner, SaleBannerGroup } from '../core/catalogue/sale.ts';
import type { OrderFormLookup } from '../core/orders/form-detail.ts';
import type { OrderStatusView } from '../core/orders/contracts.ts';
import type { RefundLinks } from '../core/orders/refund-links.ts';
import type { Reviews } from '../core/reviews/reviews.ts';
import type { Renewals } from '../core/renewals/renewals.ts';
import type { StoreInfo } from '../core/settings/store-info.ts';

export interface StoreServices {
  catalogue: Catalogue;
  /** Blog posts, categories and search (core/blog/blog.ts). */
  blog: Blog;
  /**
   * The sale running now, for the top bar (decision 031); null: no sale, no banner. Given the
   * catalogue's groups, a sale on some services names them and covers their groups' pages (038).
   */
  saleBanner: (groups?: SaleBannerGroup[]) => SaleBanner | null;
  /** Orders really paid in the last 24 hours: the order page's activity line (decision 031). */
  ordersPaidRecently: () => Promise<number>;
  /** The order page's form for the package an order URL names, or the spec's message why there is none. */
  orderForm: (params: { slug: string; qty: string; type: string }) => Promise<OrderFormLookup>;
  /**
   * One order's status for its confirmation page (e-mail masked). An unknown order is a refusal
   * meant for the buyer: an error with `statusCode` 404 and the spec's message (see `isRefusal`).
   */
  orderStatus: (orderId: string) => Promise<OrderStatusView>;
  /** Payments go through the sandbox (no Razorpay keys): every page carries the test-mode notice. */
  paymentsSimulated: boolean;
  /** PUBLIC_URL without a trailing slash: canonical links, Open Graph, the feed and the sitemap. */
  publicUrl: string;
  /** Support contacts and the refund window quoted by the contact, FAQ and legal pages (server/config.ts). */
  storeInfo: StoreInfo;
  /** Customers' reviews: the review page, the home carousel, the services' AggregateRating (decision 039). */
  reviews: Reviews;
  /** A crypto refund's e-mailed link: what it refunds, and the wallet address the customer gives. */
  refundLinks: RefundLinks;
  /** A subscription's e-mailed renewal link and its "stop reminders" page (core/renewals/renewals.ts). */
  renewals: Renewals;
}

/** A domain refusal (OrderError and its kind): a status and a message written for the buyer. */
export function isRefusal(error: unknown): error is { statusCode: number; message: string } {
  return (
    error instanceof Error &&
    (error as { expose?: unknown }).expose === true &&
    typeof (error as { statusCode?: unknown }).statusCode === 'number'
  );
}

export interface RequestContext {
  services: StoreServices;
  /** CSP nonce for this response's inline scripts. */
  nonce: string;
}

export const requestContext = createContext<RequestContext>();

export function buildLoadContext(value: RequestContext): RouterContextProvider {
  const provider = new RouterContextProvider();
  provider.set(requestContext, value);
  return provider;
}
