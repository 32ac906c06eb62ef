/**
 * A client for supplier panels speaking "SMM panel API v2": one endpoint, POST form-encoded,
 * `key` and `action` in every request, errors as `{ error }` with HTTP 200, numbers often sent
 * as strings. Replies are normalised (ids and decimals to strings, counts to numbers, statuses
 * to ORDER_STATUSES) and every failure is an SmmPanelError with a `kind`.
 *
 * IMPORTANT: for `add`, a timeout or network failure (and a 5xx or garbled reply) is AMBIGUOUS:
 * the panel may have created, and will charge for, the order. This client never retries; callers
 * must not resend automatically either, but mark the order for review or look it up first
 * (see isAmbiguousAddError).
 */
import { numberToE4, parseAmountE4 } from '../money/money.ts';
import { count, decimalText, flag, idText } from './panel-values.ts';
import { normalizeRefillStatus, normalizeSupplierStatus } from './statuses.ts';
import type {
  NewSupplierOrder,
  SupplierBalance,
  SupplierCancelResult,
  SupplierOrderStatus,
  SupplierPanel,
  SupplierRefillStatus,
  SupplierRefillStatusResult,
  SupplierService,
  SupplierStatusResult,
} from './supplier.ts';
import { readCappedText } from '../outside-reply.ts';

export type SmmPanelErrorKind = 'api' | 'http' | 'timeout' | 'network' | 'bad-response';

export class SmmPanelError extends Error {
  override name = 'SmmPanelError';
  constructor(
    readonly kind: SmmPanelErrorKind,
    message: string,
    /** The HTTP status, for kind 'http'. */
    readonly status?: number,
    /** The API action that failed ('add', 'status', …). */
    readonly action?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const RETRYABLE_API_MESSAGE = /try again|temporar|busy|too many/i;

/**
 * Whether trying the same request again later may succeed: timeouts, network failures, HTTP
 * 5xx and 429, and API errors that say so ("try again", "temporarily", "busy", "too many").
 * Says nothing about whether resending is SAFE: see isAmbiguousAddError for `add`.
 */
export function isRetryableSupplierError(error: unknown): boolean {
  if (!(error instanceof SmmPanelError)) return false;
  switch (error.kind) {
    case 'timeout':
    case 'network':
      return true;
    case 'http':
      return error.status === 429 || (error.status !== undefined && error.status >= 500);
    case 'api':
      return RETRYABLE_API_MESSAGE.test(error.message);
    case 'bad-response':
      return false;
  }
}

/**
 * An `add` that failed this way may still have created the order at the panel (the request may
 * have arrived; the answer was lost): do not resend automatically.
 */
export function isAmbiguousAddError(error: unknown): boolean {
  if (!(error instanceof SmmPanelError) || error.action !== 'add') return false;
  return (
    error.kind === 'timeout' ||
    error.kind === 'network' ||
    error.kind === 'bad-response' ||
    (error.kind === 'http' && error.status !== undefined && error.status >= 500)
  );
}

/** A panel subscription's `expiry`: the day it ends in PHP's d/m/Y (27/12/2026), in UTC. */
export function panelExpiry(at: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(at.getUTCDate())}/${two(at.getUTCMonth() + 1)}/${at.getUTCFullYear()}`;
}

/** The `add` request's fields for each kind of new order (integrations.md). */
export function addFields(order: NewSupplierOrder): Record<string, string> {
  switch (order.kind) {
    case 'drip-feed':
      return {
        service: order.service,
        link: order.link,
        quantity: String(order.quantity),
        runs: String(order.runs),
        interval: String(order.interval),
      };
    case 'subscription':
      return {
        service: order.service,
        username: order.username,
        min: String(order.min),
        max: String(order.max),
        posts: String(order.posts),
        delay: String(order.delay),
        expiry: panelExpiry(order.expiry),
      };
    default: {
      const fields: Record<string, string> = {
        service: order.service,
        link: order.link,
        quantity: String(order.quantity),
      };
      if (order.comments && order.comments.length > 0) fields.comments = order.comments.join('\n');
      return fields;
    }
  }
}

export interface SmmPanelClientOptions {
  /** The full API URL, e.g. https://panel.example/api/v2. */
  url: string;
  key: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  /** The largest reply read; a bigger one fails as a bad reply. */
  maxReplyBytes?: number;
  /** Told of every call when it ends, and whether it failed (the metrics count both). */
  onCall?: ((failed: boolean) => void) | undefined;
}

/**
 * Big enough for a services list of many thousands of services (each a few hundred bytes), far
 * below what would strain the server's memory.
 */
export const PANEL_REPLY_MAX_BYTES = 8 * 1024 * 1024;

/** The most ids one multi-id request (status, refill_status, cancel) may carry, as panels allow. */
export const MAX_STATUS_IDS = 100;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A label as text: strings as sent, numbers and booleans spelled out, absent → `fallback`. */
function labelText(value: unknown, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  // An object or array where a label belongs: keep what the panel sent, readably.
  return JSON.stringify(value);
}

function errorText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (isObject(value) && typeof value.error === 'string') return value.error;
  return null;
}

export function createSmmPanelClient(options: SmmPanelClientOptions): SupplierPanel {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxReplyBytes = options.maxReplyBytes ?? PANEL_REPLY_MAX_BYTES;

  const bad = (action: string, message: string) => new SmmPanelError('bad-response', message, undefined, action);

  async function call(action: string, fields: Record<string, string> = {}): Promise<unknown> {
    if (!options.onCall) return callPanel(action, fields);
    try {
      const reply = await callPanel(action, fields);
      options.onCall(false);
      return reply;
    } catch (error) {
      options.onCall(true);
      throw error;
    }
  }

  async function callPanel(action: string, fields: Record<string, string>): Promise<unknown> {
    const body = new URLSearchParams({ key: options.key, action, ...fields });
    let text: string | null;
    let response: Response;
    try {
      response = await doFetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: body.toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
      // The timeout's signal also ends a body that keeps trickling in.
      text = await readCappedText(response, maxReplyBytes);
    } catch (error) {
      const name = error instanceof Error ? error.name : '';
      if (name === 'TimeoutError' || name === 'AbortError') {
        throw new SmmPanelError(
          'timeout',
          `Supplier panel did not answer ${action} within ${timeoutMs} ms`,
          undefined,
          action,
          { cause: error },
        );
      }
      const detail =
        error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
      throw new SmmPanelError('network', `Supplier panel is unreachable (${action}): ${detail}`, undefined, action, {
        cause: error,
      });
    }

    if (text === null) throw bad(action, `Supplier panel's reply to ${action} was too large`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const message = isObject(json) && typeof json.error === 'string' ? `: ${json.error}` : '';
      throw new SmmPanelError(
        'http',
        `Supplier panel answered ${action} with HTTP ${response.status}${message}`,
        response.status,
        action,
      );
    }
    if (json === undefined) {
      // Never the reply itself: whatever answered at that URL stays out of messages and logs.
      throw bad(action, `Supplier panel answered ${action} with something other than JSON`);
    }
    if (isObject(json) && json.error !== undefined && json.error !== null) {
      throw new SmmPanelError('api', String(errorText(json.error) ?? JSON.stringify(json.error)), undefined, action);
    }
    return json;
  }

  function parseStatus(action: string, entry: Json): SupplierOrderStatus {
    if (typeof entry.status !== 'string') throw bad(action, 'Supplier panel sent a status reply without a status');
    return {
      status: normalizeSupplierStatus(entry.status),
      rawStatus: entry.status,
      charge: decimalText(entry.charge),
      startCount: count(entry.start_count),
      remains: count(entry.remains),
      currency: typeof entry.currency === 'string' && entry.currency !== '' ? entry.currency : null,
      posts: count(entry.posts ?? entry.posts_used),
      runs: count(entry.runs),
    };
  }

  function parseRefillStatus(status: unknown): SupplierRefillStatus {
    if (typeof status !== 'string')
      throw bad('refill_status', 'Supplier panel sent a refill status reply without a status');
    return { status: normalizeRefillStatus(status), rawStatus: status };
  }

  function parseService(entry: unknown): SupplierService {
    if (!isObject(entry)) throw bad('services', 'Supplier panel sent a service that is not an object');
    const service = idText(entry.service);
    const rateText = decimalText(entry.rate);
    const rate = rateText === null ? Number.NaN : Number(rateText);
    const min = count(entry.min);
    const max = count(entry.max);
    if (service === null || !Number.isFinite(rate) || rate < 0 || min === null || max === null) {
      throw bad('services', `Supplier panel sent a malformed service: ${JSON.stringify(entry).slice(0, 200)}`);
    }
    let rateE4: number;
    try {
      rateE4 = parseAmountE4(rateText as string);
    } catch {
      rateE4 = numberToE4(rate); // more than 4 decimals or exponent notation: rounded
    }
    return {
      service,
      name: labelText(entry.name, ''),
      type: labelText(entry.type, 'Default'),
      category: labelText(entry.category, ''),
      rate,
      rateE4,
      min,
      max,
      refill: flag(entry.refill),
      cancel: flag(entry.cancel),
    };
  }

  return {
    async services() {
      const reply = await call('services');
      if (!Array.isArray(reply)) throw bad('services', 'Supplier panel sent a services reply that is not a list');
      return reply.map(parseService);
    },

    async add(order: NewSupplierOrder) {
      const reply = await call('add', addFields(order));
      const created = isObject(reply) ? idText(reply.order) : null;
      // The order may exist at the panel even so: the caller treats this as ambiguous.
      if (created === null) throw bad('add', 'Supplier panel accepted the order without an order id');
      return { order: created };
    },

    async status(order: string) {
      const reply = await call('status', { order });
      if (!isObject(reply)) throw bad('status', 'Supplier panel sent a status reply that is not an object');
      return parseStatus('status', reply);
    },

    async statuses(orders: string[]) {
      if (orders.length < 1 || orders.length > MAX_STATUS_IDS) {
        throw new RangeError(`statuses takes 1 to ${MAX_STATUS_IDS} order ids, got ${orders.length}`);
      }
      const ids = [...new Set(orders.map(String))];
      const reply = await call('status', { orders: ids.join(',') });
      if (!isObject(reply)) throw bad('status', 'Supplier panel sent a multi-status reply that is not an object');
      const result = new Map<string, SupplierStatusResult>();
      for (const id of ids) {
        const entry = reply[id];
        if (entry === undefined) {
          result.set(id, { error: 'Missing from the supplier reply' });
        } else if (!isObject(entry)) {
          result.set(id, { error: errorText(entry) ?? 'Malformed entry in the supplier reply' });
        } else if (entry.error !== undefined && entry.error !== null) {
          result.set(id, { error: errorText(entry.error) ?? JSON.stringify(entry.error) });
        } else if (typeof entry.status !== 'string') {
          result.set(id, { error: 'Malformed entry in the supplier reply' });
        } else {
          result.set(id, parseStatus('status', entry));
        }
      }
      return result;
    },

    async refill(order: string) {
      const reply = await call('refill', { order });
      if (!isObject(reply)) throw bad('refill', 'Supplier panel sent a refill reply that is not an object');
      const refillError = isObject(reply.refill) ? errorText(reply.refill) : null;
      if (refillError) throw new SmmPanelError('api', refillError, undefined, 'refill');
      const refill = idText(reply.refill);
      if (refill === null) throw bad('refill', 'Supplier panel accepted the refill without a refill id');
      return { refill };
    },

    async refillStatus(refill: string) {
      const reply = await call('refill_status', { refill });
      if (!isObject(reply)) throw bad('refill_status', 'Supplier panel sent a refill status that is not an object');
      const statusError = isObject(reply.status) ? errorText(reply.status) : null;
      if (statusError) throw new SmmPanelError('api', statusError, undefined, 'refill_status');
      return parseRefillStatus(reply.status);
    },

    async refillStatuses(refills: string[]) {
      if (refills.length < 1 || refills.length > MAX_STATUS_IDS) {
        throw new RangeError(`refillStatuses takes 1 to ${MAX_STATUS_IDS} refill ids, got ${refills.length}`);
      }
      const ids = [...new Set(refills.map(String))];
      const reply = await call('refill_status', { refills: ids.join(',') });
      // `[{ refill: 1, status: "Completed" }, { refill: 2, status: { error: "Refill not found" } }]`
      if (!Array.isArray(reply))
        throw bad('refill_status', 'Supplier panel sent a multi refill-status reply that is not a list');
      const byId = new Map<string, unknown>();
      for (const entry of reply) {
        const id = isObject(entry) ? idText(entry.refill) : null;
        if (id !== null && isObject(entry)) byId.set(id, entry.status ?? entry.error);
      }
      const result = new Map<string, SupplierRefillStatusResult>();
      for (const id of ids) {
        const status = byId.get(id);
        if (status === undefined) result.set(id, { error: 'Missing from the supplier reply' });
        else if (typeof status === 'string') result.set(id, parseRefillStatus(status));
        else result.set(id, { error: errorText(status) ?? 'Malformed entry in the supplier reply' });
      }
      return result;
    },

    async cancel(orders: string[]) {
      if (orders.length < 1 || orders.length > MAX_STATUS_IDS) {
        throw new RangeError(`cancel takes 1 to ${MAX_STATUS_IDS} order ids, got ${orders.length}`);
      }
      const reply = await call('cancel', { orders: orders.join(',') });
      if (!Array.isArray(reply)) throw bad('cancel', 'Supplier panel sent a cancel reply that is not a list');
      return reply.map((entry): SupplierCancelResult => {
        const order = isObject(entry) ? idText(entry.order) : null;
        if (!isObject(entry) || order === null)
          throw bad('cancel', 'Supplier panel sent a cancel entry without an order id');
        const outcome = entry.cancel;
        if (isObject(outcome) || (typeof outcome === 'string' && !/^(1|true)$/i.test(outcome.trim()))) {
          return { order, cancelled: false, error: errorText(outcome) ?? 'Not cancelled' };
        }
        if (entry.error !== undefined)
          return { order, cancelled: false, error: errorText(entry.error) ?? 'Not cancelled' };
        return flag(outcome) ? { order, cancelled: true } : { order, cancelled: false, error: 'Not cancelled' };
      });
    },

    async balance(): Promise<SupplierBalance> {
      const reply = await call('balance');
      const balance = isObject(reply) ? decimalText(reply.balance) : null;
      if (!isObject(reply) || balance === null)
        throw bad('balance', 'Supplier panel sent a balance reply without a balance');
      return { balance, currency: typeof reply.currency === 'string' ? reply.currency : '' };
    },
  };
}
