/**
 * What the store needs from a supplier panel speaking "SMM panel API v2". Implemented by the
 * HTTP client (core/fulfilment/smm-panel-client.ts); the built-in simulated panel speaks the same
 * protocol and can be used in-process through the client with `simulatedPanelFetch`.
 */
import { REFILL_STATES, type RefillState } from '../orders/refill-contracts.ts';
import type { OrderStatus } from '../orders/status.ts';

export interface SupplierService {
  /** The panel's service id, always a string. */
  service: string;
  name: string;
  type: string;
  category: string;
  /** Price per 1000 as a number (e.g. 0.9), for display. */
  rate: number;
  /** Price per 1000 in ten-thousandths (see core/money): exact when the panel sends ≤ 4 decimals, rounded otherwise. */
  rateE4: number;
  min: number;
  max: number;
  refill: boolean;
  cancel: boolean;
}

/** A one-off order: `quantity` units to `link`. */
export interface OneOffSupplierOrder {
  kind?: 'default';
  service: string;
  link: string;
  quantity: number;
  /** Custom comments, one per line; sent joined by "\n". */
  comments?: string[] | undefined;
}

/**
 * A drip-feed order ("daily followers"): `quantity` per run, `runs` runs, `interval` minutes
 * apart. The panel's `status` reports the whole order (quantity × runs).
 */
export interface DripFeedSupplierOrder {
  kind: 'drip-feed';
  service: string;
  link: string;
  quantity: number;
  runs: number;
  interval: number;
}

/**
 * A subscription ("automatic likes"), on a service of type Subscriptions: `min` to `max` units on
 * each new post of `username`, for up to `posts` posts, `delay` minutes after each, until
 * `expiry` (sent as the panel's d/m/Y).
 */
export interface SubscriptionSupplierOrder {
  kind: 'subscription';
  service: string;
  username: string;
  min: number;
  max: number;
  posts: number;
  delay: number;
  expiry: Date;
}

export type NewSupplierOrder = OneOffSupplierOrder | DripFeedSupplierOrder | SubscriptionSupplierOrder;

export interface SupplierOrderStatus {
  /** Normalised; null when the panel sent a status the store does not know (see rawStatus). */
  status: OrderStatus | null;
  rawStatus: string;
  /** Decimal string as the panel sent it (e.g. "0.2782"); null when absent. */
  charge: string | null;
  startCount: number | null;
  /** What was not (yet) delivered; for Partial and Canceled the basis of a refund. */
  remains: number | null;
  currency: string | null;
  /**
   * A subscription's posts served so far, when the panel says (the shape of a subscription's
   * status is not standardised: `posts`, sometimes `posts_used`); null otherwise.
   */
  posts: number | null;
  /** A drip-feed's runs done so far, when the panel says (some do, as `runs`); absent otherwise. */
  runs?: number | null;
}

/** One entry of a multi-status reply: a status, or the panel's refusal for that id. */
export type SupplierStatusResult = SupplierOrderStatus | { error: string };

export function isSupplierStatusError(result: SupplierStatusResult): result is { error: string } {
  return 'error' in result;
}

export interface SupplierCancelResult {
  order: string;
  cancelled: boolean;
  error?: string;
}

/** A refill's state as the store shows it; panels spell these loosely (see normalizeRefillStatus). */
export { REFILL_STATES, type RefillState };

export interface SupplierRefillStatus {
  /** Normalised; null when the panel sent a status the store does not know (see rawStatus). */
  status: RefillState | null;
  rawStatus: string;
}

/** One entry of a multi refill-status reply: a status, or the panel's refusal for that refill id. */
export type SupplierRefillStatusResult = SupplierRefillStatus | { error: string };

export function isRefillStatusError(result: SupplierRefillStatusResult): result is { error: string } {
  return 'error' in result;
}

export interface SupplierBalance {
  balance: string;
  currency: string;
}

export interface SupplierPanel {
  services(): Promise<SupplierService[]>;
  /**
   * Creates an order. A timeout or network failure is ambiguous: the panel may have created the
   * order. Callers must not resend automatically (see isAmbiguousAddError).
   */
  add(order: NewSupplierOrder): Promise<{ order: string }>;
  status(order: string): Promise<SupplierOrderStatus>;
  /** 1–100 ids; every requested id is in the map, as a status or `{ error }`. */
  statuses(orders: string[]): Promise<Map<string, SupplierStatusResult>>;
  /** Asks the panel to refill one order; its refusal ("Refill is not available…") is an 'api' SmmPanelError. */
  refill(order: string): Promise<{ refill: string }>;
  refillStatus(refill: string): Promise<SupplierRefillStatus>;
  /** 1–100 refill ids; every requested id is in the map, as a status or `{ error }`. */
  refillStatuses(refills: string[]): Promise<Map<string, SupplierRefillStatusResult>>;
  cancel(orders: string[]): Promise<SupplierCancelResult[]>;
  balance(): Promise<SupplierBalance>;
}
