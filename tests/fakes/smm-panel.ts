/**
 * A local stand-in for a supplier panel speaking "SMM panel API v2" over real HTTP on
 * 127.0.0.1: form-encoded (or JSON) POSTs to /api/v2, `{ error }` with HTTP 200. What it answers
 * is the protocol the store ships in its simulated panel (core/fulfilment/simulated-panel-protocol.ts),
 * run over orders, refills and services kept in memory, which the test reads and sets directly
 * (numbers sent as strings, or not, as the test sets them). What only tests need is added here:
 * modes that simulate an outage (503), a panel that never answers and a 200 that is not JSON, the
 * log of every request, a refused next `add`, refused refills and cancels, a cancel that does
 * not take effect at once, and the panel's own moves on drip-feeds and subscriptions (runs
 * delivered, new posts served, a subscription the panel ends by itself).
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  PANEL_STATUSES,
  type PanelServiceEntry,
  type PanelStore,
  SUBSCRIPTIONS_TYPE,
  createPanelProtocol,
  panelForm,
} from '../../core/fulfilment/simulated-panel-protocol.ts';

/**
 * What `status` replies for an order: set any field, with strings or numbers, as a panel would.
 * A drip-feed's `quantity` is per run (`remains` counts against quantity × runs); a subscription's
 * `link` is the account's username and `quantity` its `max` per post.
 */
export interface FakeSmmOrder {
  id: string;
  service: string;
  link: string;
  quantity: number;
  comments?: string;
  status: string;
  charge: string | number;
  start_count: string | number;
  remains: string | number;
  currency: string;
  /** A subscription's posts served so far, as `status` reports it. */
  posts?: string | number;
  /** A drip-feed's runs done so far, as `status` reports it. */
  runs?: string | number;
  /** A drip-feed as it was asked for. */
  dripFeed?: { runs: number; interval: number };
  /** A subscription as it was asked for (`expiry` as sent, d/m/Y; null fields were left out). */
  subscription?: {
    username: string;
    min: number;
    max: number;
    posts: number | null;
    oldPosts: number | null;
    delay: number;
    expiry: string | null;
  };
}

/** A refill as the fake panel keeps it; `status` is what `refill_status` answers (set by the test). */
export interface FakeSmmRefill {
  id: string;
  order: string;
  status: string;
}

/** An entry of the `services` reply, as the test sets it. */
export type FakeSmmService = PanelServiceEntry;

export interface FakeSmmRequest {
  method: string;
  path: string;
  contentType: string;
  form: Record<string, string>;
}

export type FakeSmmMode = 'normal' | 'down' | 'slow' | 'garbage';

/**
 * The panel's entry for the catalogue's Instagram followers package (the service most suites
 * buy): refill and cancel supported; `overrides` changes what a suite needs (e.g. `min`).
 */
export function followersService(service: string, overrides: Partial<FakeSmmService> = {}): FakeSmmService {
  return {
    service,
    name: 'Instagram Followers',
    type: 'Default',
    category: 'Instagram',
    rate: '0.90',
    min: '10',
    max: '100000',
    refill: true,
    cancel: true,
    ...overrides,
  };
}

/** A Subscriptions service for automatic likes (min/max per post): cancel yes, refill no. */
export function autoLikesService(service: string | number, overrides: Partial<FakeSmmService> = {}): FakeSmmService {
  return {
    service,
    name: 'Instagram Auto Likes',
    type: SUBSCRIPTIONS_TYPE,
    category: 'Instagram',
    rate: '0.45',
    min: '50',
    max: '5000',
    refill: false,
    cancel: true,
    ...overrides,
  };
}

/** A followers service that takes drip-feed (`runs`, `interval`), for daily followers. */
export function dripFeedFollowersService(
  service: string | number,
  overrides: Partial<FakeSmmService> = {},
): FakeSmmService {
  return {
    service,
    name: 'Instagram Followers (drip-feed)',
    type: 'Default',
    category: 'Instagram',
    rate: '1.10',
    min: '10',
    max: '5000',
    refill: true,
    cancel: true,
    dripfeed: true,
    ...overrides,
  };
}

/** The id of defaultFakeServices()'s Subscriptions service (automatic Instagram likes). */
export const FAKE_AUTO_LIKES_SERVICE = '4';
/** The id of defaultFakeServices()'s drip-feed followers service (daily Instagram followers). */
export const FAKE_DRIP_FEED_FOLLOWERS_SERVICE = '5';

export const defaultFakeServices = (): FakeSmmService[] => [
  {
    service: 1,
    name: 'Instagram Followers',
    type: 'Default',
    category: 'Instagram',
    rate: '0.90',
    min: '50',
    max: '10000',
    refill: true,
    cancel: true,
  },
  {
    service: '2',
    name: 'YouTube Views',
    type: 'Default',
    category: 'YouTube',
    rate: 1.5,
    min: 100,
    max: 1000000,
    refill: false,
    cancel: '1',
  },
  {
    service: 3,
    name: 'Instagram Custom Comments',
    type: 'Custom Comments',
    category: 'Instagram',
    rate: '12.34567',
    min: '10',
    max: '500',
    refill: 0,
    cancel: false,
  },
  autoLikesService(Number(FAKE_AUTO_LIKES_SERVICE)),
  dripFeedFollowersService(FAKE_DRIP_FEED_FOLLOWERS_SERVICE),
];

export interface FakeSmmPanelOptions {
  key: string;
  /** What `balance` answers (default "100.84" USD); change it later with setBalance. */
  balance?: string;
  currency?: string;
  /** The first order id it hands out (default 23501): two vendors may well hand out the same ids. */
  firstOrderId?: number;
  /** The first refill id (default 24501). */
  firstRefillId?: number;
  /** The panel's clock, which a subscription's expiry must lie after (default: the real time). */
  now?: () => Date;
}

/**
 * One fake vendor per call: each has its own key, orders, services and balance, so a suite can run
 * two panels side by side (decision 045) and check which one was asked.
 */
export async function startFakeSmmPanel(options: FakeSmmPanelOptions) {
  const orders = new Map<string, FakeSmmOrder>();
  const refills = new Map<string, FakeSmmRefill>();
  let nextRefillId = options.firstRefillId ?? 24_501;
  let balance = { balance: options.balance ?? '100.84', currency: options.currency ?? 'USD' };
  let refillRefusal: string | null = null;
  const services = defaultFakeServices();
  const requests: FakeSmmRequest[] = [];
  let mode: FakeSmmMode = 'normal';
  let nextId = options.firstOrderId ?? 23_501;
  let nextAddError: string | null = null;
  let cancelRefusal: string | null = null;
  let cancelTakesEffect = true;
  const held: ServerResponse[] = [];

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const readForm = async (req: IncomingMessage): Promise<Record<string, string>> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    if ((req.headers['content-type'] ?? '').includes('application/json')) {
      return text ? panelForm(JSON.parse(text)) : {};
    }
    return Object.fromEntries(new URLSearchParams(text));
  };

  /** The entries of `map` (keyed by id as text) that `ids` name. */
  const known = <T>(map: Map<string, T>, ids: number[]) =>
    new Map(
      ids.flatMap((id) => {
        const entry = map.get(String(id));
        return entry === undefined ? [] : [[id, entry] as const];
      }),
    );

  // Tests read and change these maps and the services list directly: the store holds no copies.
  const store: PanelStore<FakeSmmOrder> = {
    services: () => services,
    balance: () => balance,
    addOrder(order) {
      if (nextAddError !== null) {
        const error = nextAddError;
        nextAddError = null;
        return { error };
      }
      const id = nextId++;
      const common = {
        id: String(id),
        service: String(order.service.service),
        status: PANEL_STATUSES.pending,
        charge: '0.2782',
        start_count: '0',
        currency: 'USD',
      };
      if (order.kind === 'one-off') {
        const { link, quantity, comments } = order;
        orders.set(String(id), {
          ...common,
          link,
          quantity,
          ...(comments === null ? {} : { comments }),
          remains: String(quantity),
        });
      } else if (order.kind === 'drip-feed') {
        const { link, quantity, runs, interval } = order;
        orders.set(String(id), {
          ...common,
          link,
          quantity,
          remains: String(quantity * runs),
          runs: '0',
          dripFeed: { runs, interval },
        });
      } else {
        const { username, min, max, posts, oldPosts, delay, expiry } = order;
        orders.set(String(id), {
          ...common,
          link: username,
          quantity: max,
          remains: '0',
          posts: '0',
          subscription: { username, min, max, posts, oldPosts, delay, expiry: expiry?.text ?? null },
        });
      }
      return id;
    },
    orders: (ids) => known(orders, ids),
    cancelOrder(_id, order) {
      if (cancelRefusal !== null) return { error: cancelRefusal };
      if (cancelTakesEffect) order.status = PANEL_STATUSES.canceled;
      return null;
    },
    latestRefill(orderId) {
      return [...refills.values()].findLast((refill) => refill.order === String(orderId));
    },
    addRefill(orderId) {
      if (refillRefusal !== null) return { error: refillRefusal };
      const id = nextRefillId++;
      refills.set(String(id), { id: String(id), order: String(orderId), status: PANEL_STATUSES.pending });
      return id;
    },
    refills: (ids) => known(refills, ids),
  };
  const protocol = createPanelProtocol(options.key, store, options.now ? { now: options.now } : {});

  const orderOf = (id: string | number, kind: 'dripFeed' | 'subscription') => {
    const order = orders.get(String(id));
    if (!order?.[kind])
      throw new Error(`No ${kind === 'dripFeed' ? 'drip-feed' : 'subscription'} ${id} at the fake panel`);
    return order;
  };
  /** The requests for one API action (`add`, `status`, `cancel`, …), oldest first. */
  const requestsFor = (action: string) => requests.filter((r) => r.form.action === action);
  const countOf = (value: string | number | undefined) => Number(value ?? 0) || 0;
  const running = (status: string) => status === PANEL_STATUSES.pending || status === PANEL_STATUSES.inProgress;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const form = await readForm(req).catch((): Record<string, string> => ({}));
    requests.push({
      method: req.method ?? '',
      path: url.pathname,
      contentType: req.headers['content-type'] ?? '',
      form,
    });
    if (mode === 'down') return json(res, 503, { error: 'Service Unavailable' });
    if (mode === 'slow') {
      held.push(res); // never answered; released on close
      return;
    }
    if (mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>502 Bad Gateway (cloudflare)</body></html>');
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/api/v2') return json(res, 404, { error: 'Not found' });
    return json(res, 200, await protocol.handle(form));
  };
  // Node ignores the promise a request listener returns: without the catch, a throw in the fake
  // would be an unhandled rejection and leave the request hanging.
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/api/v2`,
    orders,
    /** Refills made through `refill`, by refill id; each starts Pending. */
    refills,
    /** Sets what `refill_status` answers for a refill ("In progress", "Completed", "Rejected", …). */
    setRefillStatus(id: string | number, status: string) {
      const refill = refills.get(String(id));
      if (!refill) throw new Error(`No refill ${id} at the fake panel`);
      refill.status = status;
    },
    /**
     * Every `refill` the protocol would grant (a Completed order, refill offered, none running) is
     * refused with this reason until called again with null.
     */
    refuseRefill(reason: string | null) {
      refillRefusal = reason;
    },
    services,
    requests,
    setMode(next: FakeSmmMode) {
      mode = next;
    },
    /** What `balance` answers from now on. */
    setBalance(amount: string, currency = balance.currency) {
      balance = { balance: amount, currency };
    },
    /** The requests for one API action (`add`, `status`, `cancel`, …), oldest first. */
    requestsFor,
    /** The next `add` answers `{ error }` (HTTP 200) without creating an order. */
    failNextAdd(error: string) {
      nextAddError = error;
    },
    /**
     * Every `cancel` the protocol would grant (a Pending or In progress order) is refused with this
     * reason (as panels do for orders already being delivered) until called again with null.
     */
    refuseCancel(reason: string | null) {
      cancelRefusal = reason;
    },
    /**
     * With false, `cancel` is accepted but the order keeps its status until the test sets it (a
     * panel that stops delivery later), as some panels do; true (the default) cancels at once.
     */
    cancelAtOnce(atOnce: boolean) {
      cancelTakesEffect = atOnce;
    },
    /** The fields of every `add` received (accepted or refused), oldest first, without the key. */
    addRequests() {
      return requestsFor('add').map(({ form: { key: _key, ...fields } }) => fields);
    },
    /**
     * A running subscription serves `posts` more new posts: In progress, and Completed once it has
     * served the posts it was bought for. Returns the order as `status` now reports it.
     */
    publishPosts(id: string | number, posts = 1) {
      const order = orderOf(id, 'subscription');
      if (!running(order.status)) throw new Error(`Subscription ${id} is ${order.status}: it serves no more posts`);
      const limit = order.subscription?.posts ?? Number.POSITIVE_INFINITY;
      const served = Math.min(limit, countOf(order.posts) + posts);
      order.posts = String(served);
      order.status = served >= limit ? PANEL_STATUSES.completed : PANEL_STATUSES.inProgress;
      return order;
    },
    /**
     * A running drip-feed delivers `runs` more runs: `remains` falls by quantity per run, In
     * progress, and Completed after its last run. Returns the order as `status` now reports it.
     */
    runDripFeed(id: string | number, runs = 1) {
      const order = orderOf(id, 'dripFeed');
      if (!running(order.status)) throw new Error(`Drip-feed ${id} is ${order.status}: it runs no more`);
      const total = order.dripFeed?.runs ?? 0;
      const done = Math.min(total, countOf(order.runs) + runs);
      order.runs = String(done);
      order.remains = String(order.quantity * (total - done));
      order.status = done >= total ? PANEL_STATUSES.completed : PANEL_STATUSES.inProgress;
      return order;
    },
    /**
     * The panel ends a subscription by itself: Canceled (as panels do after about 30 days without a
     * new post) or Completed (its expiry came). The posts served stay as they were.
     */
    endSubscription(id: string | number, status: 'Canceled' | 'Completed' = PANEL_STATUSES.canceled) {
      const order = orderOf(id, 'subscription');
      order.status = status;
      return order;
    },
    /** Adds or updates an order as the panel would report it. */
    setOrder(id: string | number, fields: Partial<Omit<FakeSmmOrder, 'id'>>) {
      const key = String(id);
      const current = orders.get(key) ?? {
        id: key,
        service: '1',
        link: 'https://instagram.com/someone',
        quantity: 1000,
        status: 'Pending',
        charge: '0.9',
        start_count: '0',
        remains: '1000',
        currency: 'USD',
      };
      const order = { ...current, ...fields, id: key };
      orders.set(key, order);
      return order;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held.splice(0)) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeSmmPanel = Awaited<ReturnType<typeof startFakeSmmPanel>>;
