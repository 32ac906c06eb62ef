/**
 * The panel's side of "SMM panel API v2" (see docs: integrations.md), written once for both
 * simulations of a supplier: the simulated panel the store ships (core/fulfilment/simulated-panel.ts,
 * kept in the database and moved on by the clock) and the test suites' fake panel
 * (tests/fakes/smm-panel.ts, kept in memory and moved on by the test). Two copies of the protocol
 * drift apart, and then the tests prove the client against a panel the store never ships.
 *
 * This file decides what a panel answers: the key check, every action in its single and multi
 * forms, which kind of new order an `add` is (one-off, drip-feed or subscription; their fields are
 * checked in simulated-panel-add.ts), which orders may be refilled or cancelled, and the error
 * replies in the words panels use. A PanelStore keeps the orders and refills and says where each
 * stands; it may refuse a write in its own words (a panel out of funds, a provider that will not
 * stop), which is answered as the protocol answers any refusal.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { flag } from './panel-values.ts';
import { MAX_STATUS_IDS } from './smm-panel-client.ts';
import {
  ADD_ERRORS,
  type NewPanelOrder,
  type PanelServiceEntry,
  isSubscriptionsService,
  linkOrder,
  subscriptionOrder,
} from './simulated-panel-add.ts';
import { normalizeRefillStatus, normalizeSupplierStatus } from './statuses.ts';

export type {
  DripFeedPanelOrder,
  NewPanelOrder,
  OneOffPanelOrder,
  PanelServiceEntry,
  SubscriptionPanelOrder,
} from './simulated-panel-add.ts';
export { SUBSCRIPTIONS_TYPE, isSubscriptionsService, parsePanelExpiry } from './simulated-panel-add.ts';

/** A request's fields (form-encoded or JSON, flattened to strings); the reply is the JSON to send. */
export type SimulatedPanelForm = Record<string, string | undefined>;

export interface SimulatedPanel {
  handle(form: SimulatedPanelForm): Promise<unknown>;
}

/** Order status strings exactly as real panels send them. */
export const PANEL_STATUSES = {
  pending: 'Pending',
  inProgress: 'In progress',
  completed: 'Completed',
  partial: 'Partial',
  canceled: 'Canceled',
} as const;

/** The error replies, in the words real panels use. */
export const PANEL_ERRORS = {
  key: 'Invalid API key',
  request: 'Incorrect request',
  service: 'Incorrect service ID',
  ...ADD_ERRORS,
  order: 'Incorrect order ID',
  refill: 'Refill not found',
  refillUnavailable: 'Refill is not available for this order',
  refillDisabled: 'Refill is disabled for this service',
  refillRunning: 'Refill is already in progress for this order',
  cancelImpossible: 'Order cannot be canceled',
  cancelDisabled: 'Cancel is disabled for this service',
} as const;

/** What `status` reports for an order, as the panel sends it, and the service it was bought from. */
export interface PanelOrder {
  service: string;
  status: string;
  charge: string | number;
  start_count: string | number;
  remains: string | number;
  currency: string;
  /** A subscription's posts served so far (reported beside the rest; absent for other orders). */
  posts?: string | number;
  /** A drip-feed's runs done so far, as some panels report it; absent for other orders. */
  runs?: string | number;
}

export interface PanelRefill {
  /** What `refill_status` answers: Pending, In progress, Completed, Rejected, … */
  status: string;
}

/** A store's or the protocol's refusal, sent as `{ error }` with HTTP 200. */
export interface PanelRefusal {
  error: string;
}

export interface PanelBalance {
  balance: string;
  currency: string;
}

/** A store kept in memory answers at once, one in a database later. */
type Awaitable<T> = T | Promise<T>;

/** Where a simulated panel keeps its orders and refills; ids are positive integers. */
export interface PanelStore<Order extends PanelOrder> {
  /** The `services` reply; `add`, `refill` and `cancel` follow its min, max, refill and cancel. */
  services(): readonly PanelServiceEntry[];
  balance(): PanelBalance;
  /** Creates the order (of any kind `add` takes) and returns its id. */
  addOrder(order: NewPanelOrder): Awaitable<number | PanelRefusal>;
  /** The orders among `ids` (1 to MAX_STATUS_IDS of them) that exist, as they stand now. */
  orders(ids: number[]): Awaitable<Map<number, Order>>;
  /** Stops an order that is Pending or In progress (as `orders` last saw it): a one-off, a drip-feed or a subscription. */
  cancelOrder(id: number, order: Order): Awaitable<PanelRefusal | null>;
  /** The order's most recent refill. */
  latestRefill(orderId: number): Awaitable<PanelRefill | undefined>;
  /** Starts a refill of a Completed order and returns the refill's id. */
  addRefill(orderId: number, order: Order): Awaitable<number | PanelRefusal>;
  /** The refills among `ids` (1 to MAX_STATUS_IDS of them) that exist, as they stand now. */
  refills(ids: number[]): Awaitable<Map<number, PanelRefill>>;
}

const MAX_ID = 2_147_483_647;
const CANCELABLE = new Set<string | null>([
  normalizeSupplierStatus(PANEL_STATUSES.pending),
  normalizeSupplierStatus(PANEL_STATUSES.inProgress),
]);
const REFILL_RUNNING = new Set<string | null>(['Pending', 'In progress']);

function sameKey(given: string | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** "1, 2,3" → ['1','2','3']. */
function idList(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
}

/** A positive integer id, or null for anything a panel would not have handed out. */
function panelId(text: string | undefined): number | null {
  const trimmed = (text ?? '').trim();
  if (!/^\d{1,10}$/.test(trimmed)) return null;
  const id = Number(trimmed);
  return id >= 1 && id <= MAX_ID ? id : null;
}

/** JSON bodies flattened to the strings a form would carry; lists joined as panels expect. */
export function panelForm(body: unknown): Record<string, string> {
  const form: Record<string, string> = {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return form;
  for (const [name, value] of Object.entries(body)) {
    if (Array.isArray(value)) form[name] = value.map(String).join(name === 'comments' ? '\n' : ',');
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      form[name] = String(value);
  }
  return form;
}

const refusal = (error: string): PanelRefusal => ({ error });

/**
 * Each id of a comma-separated list (in the order asked) with what `find` knows of it; null for a
 * list a panel refuses (empty, or over MAX_STATUS_IDS). A store is never asked about no ids.
 */
async function listed<T>(text: string | undefined, find: (ids: number[]) => Awaitable<Map<number, T>>) {
  const texts = idList(text);
  if (texts.length === 0 || texts.length > MAX_STATUS_IDS) return null;
  const ids = texts.map(panelId);
  const valid = ids.filter((id): id is number => id !== null);
  const found = valid.length === 0 ? new Map<number, T>() : await find(valid);
  return texts.map((text, i) => {
    const id = ids[i] ?? null;
    return { text, id, found: id === null ? undefined : found.get(id) };
  });
}

/** The one id of a single-id request with what `find` knows of it. */
async function single<T>(text: string | undefined, find: (ids: number[]) => Awaitable<Map<number, T>>) {
  const id = panelId(text);
  return { id, found: id === null ? undefined : (await find([id])).get(id) };
}

export interface PanelProtocolOptions {
  /** The panel's clock: a subscription's expiry must be a day still to come. */
  now?: () => Date;
}

/** A panel answering "SMM panel API v2" requests from `store`, for callers holding `key`. */
export function createPanelProtocol<Order extends PanelOrder>(
  key: string,
  store: PanelStore<Order>,
  options: PanelProtocolOptions = {},
): SimulatedPanel {
  const now = options.now ?? (() => new Date());
  const serviceOf = (id: string) => store.services().find((s) => String(s.service) === id);

  const findOrders = (ids: number[]) => store.orders(ids);
  const findRefills = (ids: number[]) => store.refills(ids);

  const statusReply = (order: Order) => ({
    charge: order.charge,
    start_count: order.start_count,
    status: order.status,
    remains: order.remains,
    currency: order.currency,
    ...(order.posts === undefined ? {} : { posts: order.posts }),
    ...(order.runs === undefined ? {} : { runs: order.runs }),
  });

  async function add(form: SimulatedPanelForm) {
    const service = serviceOf((form.service ?? '').trim());
    if (!service) return refusal(PANEL_ERRORS.service);
    // A subscription's fields name an account, not a link; each kind of service takes its own.
    const asSubscription = form.username !== undefined;
    if (asSubscription !== isSubscriptionsService(service)) {
      return refusal(asSubscription ? PANEL_ERRORS.service : PANEL_ERRORS.request);
    }
    const order = asSubscription ? subscriptionOrder(service, form, now()) : linkOrder(service, form);
    if ('error' in order) return order;
    const created = await store.addOrder(order);
    return typeof created === 'number' ? { order: created } : created;
  }

  async function status(form: SimulatedPanelForm) {
    if (form.orders !== undefined) {
      const list = await listed(form.orders, findOrders);
      if (!list) return refusal(PANEL_ERRORS.request);
      return Object.fromEntries(
        list.map(({ text, found }) => [text, found ? statusReply(found) : refusal(PANEL_ERRORS.order)]),
      );
    }
    const { found } = await single(form.order, findOrders);
    return found ? statusReply(found) : refusal(PANEL_ERRORS.order);
  }

  /** Refills only Completed orders of services with refill, one running refill per order. */
  async function refillOne(id: number | null, order: Order | undefined): Promise<{ refill: string } | PanelRefusal> {
    if (id === null || !order) return refusal(PANEL_ERRORS.order);
    const service = serviceOf(order.service);
    if (service && !flag(service.refill)) return refusal(PANEL_ERRORS.refillDisabled);
    if (normalizeSupplierStatus(order.status) !== 'Completed') return refusal(PANEL_ERRORS.refillUnavailable);
    const latest = await store.latestRefill(id);
    if (latest && REFILL_RUNNING.has(normalizeRefillStatus(latest.status))) {
      return refusal(PANEL_ERRORS.refillRunning);
    }
    const refill = await store.addRefill(id, order);
    return typeof refill === 'number' ? { refill: String(refill) } : refill;
  }

  async function refill(form: SimulatedPanelForm) {
    // One order is answered `{ refill }` / `{ error }`, several (`orders`) as a list.
    if (form.orders !== undefined) {
      const list = await listed(form.orders, findOrders);
      if (!list) return refusal(PANEL_ERRORS.request);
      const replies = [];
      for (const { text, id, found } of list) {
        const result = await refillOne(id, found);
        replies.push({ order: id ?? text, refill: 'error' in result ? result : result.refill });
      }
      return replies;
    }
    const { id, found } = await single(form.order, findOrders);
    return refillOne(id, found);
  }

  async function refillStatus(form: SimulatedPanelForm) {
    if (form.refills !== undefined) {
      const list = await listed(form.refills, findRefills);
      if (!list) return refusal(PANEL_ERRORS.request);
      return list.map(({ text, id, found }) => ({
        refill: id ?? text,
        status: found ? found.status : refusal(PANEL_ERRORS.refill),
      }));
    }
    const { found } = await single(form.refill, findRefills);
    return found ? { status: found.status } : refusal(PANEL_ERRORS.refill);
  }

  /** Why this order cannot be cancelled, before the store is asked; null when it can. */
  function cancelRefusal(order: Order): PanelRefusal | null {
    const service = serviceOf(order.service);
    if (service && !flag(service.cancel)) return refusal(PANEL_ERRORS.cancelDisabled);
    if (!CANCELABLE.has(normalizeSupplierStatus(order.status))) return refusal(PANEL_ERRORS.cancelImpossible);
    return null;
  }

  async function cancel(form: SimulatedPanelForm) {
    const list = await listed(form.orders ?? form.order, findOrders);
    if (!list) return refusal(PANEL_ERRORS.request);
    const replies = [];
    for (const { text, id, found } of list) {
      if (id === null || !found) {
        replies.push({ order: id ?? text, cancel: refusal(PANEL_ERRORS.order) });
        continue;
      }
      const refused = cancelRefusal(found) ?? (await store.cancelOrder(id, found));
      replies.push({ order: id, cancel: refused ?? 1 });
    }
    return replies;
  }

  return {
    async handle(form) {
      if (!sameKey(form.key, key)) return refusal(PANEL_ERRORS.key);
      switch (form.action) {
        case 'services':
          return store.services();
        case 'add':
          return add(form);
        case 'status':
          return status(form);
        case 'refill':
          return refill(form);
        case 'refill_status':
          return refillStatus(form);
        case 'cancel':
          return cancel(form);
        case 'balance':
          return store.balance();
        default:
          return refusal(PANEL_ERRORS.request);
      }
    },
  };
}
