/**
 * The built-in simulated supplier panel, used when SMM_PANEL_URL is unset, so the store runs end
 * to end without a real supplier. What it answers is the shared panel protocol
 * (simulated-panel-protocol.ts, which the tests' fake panel runs too); this file adds what only the
 * shipped panel has: orders and refills kept in the simulated_panel_orders and
 * simulated_panel_refills tables (they survive a restart and are seen by every instance), and
 * delivery driven by the clock. Served over HTTP by server/api/simulated-panel.ts;
 * `simulatedPanelFetch` lets the HTTP client talk to it in-process instead.
 *
 * Delivery is lazy, with no timers: every read computes an order's progress from the time since
 * it was created and writes it back.
 *
 *   0 – 10 % of deliverySeconds   Pending, remains = quantity
 *   10 – 100 %                    In progress, remains falling linearly
 *   100 %                         outcome 'complete' → Completed, remains 0
 *                                 outcome 'partial'  → Partial, remains = final_remains
 *   30 % (outcome 'cancel')       Canceled, remains = what was undelivered at that point
 *
 * The outcome is decided at creation: with probability failureRate the order fails, half of
 * those Partial and half Canceled. `random` is called exactly three times per `add`, in this
 * order: outcome, start count (0–5000), share left undelivered by a partial (10–60 %). What
 * will remain at the end is stored at creation in the `final_remains` column, so replies do not
 * depend on when they are asked. For a partial, delivery runs linearly towards
 * quantity − final_remains. `charge` is rate × quantity / 1000 and does not change afterwards.
 *
 * Drip-feed orders and subscriptions (the other two kinds of `add`) move as
 * simulated-panel-variants.ts describes; the panel lists the services they need
 * (SIMULATED_SUBSCRIPTION_SERVICES) beside the ones it is given. A drip-feed calls `random` once
 * (its start count) and always completes; a subscription calls it once (its outcome: with
 * probability failureRate / 2 the panel ends it by itself) and is charged rate × max per post
 * for each post served.
 */
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, SimulatedPanelOrdersTable } from '../../db/schema.ts';
import { formatAmountE4, parseAmountE4 } from '../money/money.ts';
import {
  PANEL_ERRORS,
  PANEL_STATUSES,
  type PanelOrder,
  type PanelRefill,
  type PanelServiceEntry,
  type PanelStore,
  type SimulatedPanel,
  createPanelProtocol,
} from './simulated-panel-protocol.ts';
import {
  CANCEL_AT,
  SIMULATED_SUBSCRIPTION_SERVICES,
  START_AT,
  type SimulatedPanelService,
  type VariantProgress,
  dripFeedProgress,
  subscriptionProgress,
} from './simulated-panel-variants.ts';

export type { SimulatedPanel, SimulatedPanelService };

export interface SimulatedPanelOptions {
  db: Kysely<Database>;
  key: string;
  /** Seconds from creation to the end of delivery. */
  deliverySeconds?: number;
  /** Share of orders that end Partial or Canceled (half each), 0–1. */
  failureRate?: number;
  random?: () => number;
  now?: () => Date;
  /**
   * Listed with SIMULATED_SUBSCRIPTION_SERVICES, whose entries win over one of the same id. A
   * function is asked at every request, so a panel that follows an edited catalogue offers its
   * new services at once.
   */
  services: SimulatedPanelService[] | (() => SimulatedPanelService[]);
  currency?: string;
  /** How often a subscription's account publishes a simulated new post (default 1200: 20 hours). */
  postEveryMinutes?: number;
}

type SimulatedOutcome = 'complete' | 'partial' | 'cancel';

type Row = Selectable<SimulatedPanelOrdersTable>;

/** An order as the protocol sees it, with the row it came from (a cancel keeps its remains). */
type SimulatedOrder = PanelOrder & { row: Row };

const FINAL = new Set<string>([PANEL_STATUSES.completed, PANEL_STATUSES.partial, PANEL_STATUSES.canceled]);
const CANCELABLE: string[] = [PANEL_STATUSES.pending, PANEL_STATUSES.inProgress];

/**
 * A simulated refill's status from its age: Pending for the first START_AT of deliverySeconds,
 * In progress until half of it, Completed after (refills top up a drop, shorter than an order).
 */
function refillProgress(createdAt: string, nowMs: number, deliverySeconds: number): string {
  const f =
    deliverySeconds <= 0 ? Number.POSITIVE_INFINITY : (nowMs - Date.parse(createdAt)) / (deliverySeconds * 1000);
  if (f >= 0.5) return PANEL_STATUSES.completed;
  return f < START_AT ? PANEL_STATUSES.pending : PANEL_STATUSES.inProgress;
}

/** Units delivered at fraction f (START_AT ≤ f ≤ 1) of the delivery time, heading for `target`. */
function deliveredAt(target: number, f: number): number {
  const share = Math.min(1, Math.max(0, (f - START_AT) / (1 - START_AT)));
  // The epsilon keeps 900 × 2/9 at 200, not 199.99999999999997 → 199.
  return Math.floor(target * share + 1e-9);
}

type SimulatedProgress = Omit<VariantProgress, 'runsDone' | 'postsServed'>;

/** Where a one-off order stands at `nowMs`, from its creation time, outcome and fixed final remains. */
function simulatedProgress(
  row: Pick<Row, 'quantity' | 'outcome' | 'final_remains' | 'created_at'>,
  nowMs: number,
  deliverySeconds: number,
): SimulatedProgress {
  const created = Date.parse(row.created_at);
  const deliveryMs = deliverySeconds * 1000;
  const f = deliveryMs <= 0 ? Number.POSITIVE_INFINITY : (nowMs - created) / deliveryMs;
  const endedAt = (fraction: number) => new Date(created + Math.max(0, deliveryMs) * fraction).toISOString();

  if (row.outcome === 'cancel' && f >= CANCEL_AT) {
    return { status: PANEL_STATUSES.canceled, remains: row.final_remains, deliveredAt: endedAt(CANCEL_AT) };
  }
  if (f >= 1) {
    return row.outcome === 'partial'
      ? { status: PANEL_STATUSES.partial, remains: row.final_remains, deliveredAt: endedAt(1) }
      : { status: PANEL_STATUSES.completed, remains: 0, deliveredAt: endedAt(1) };
  }
  if (f < START_AT) return { status: PANEL_STATUSES.pending, remains: row.quantity, deliveredAt: null };
  const target = row.outcome === 'partial' ? row.quantity - row.final_remains : row.quantity;
  return { status: PANEL_STATUSES.inProgress, remains: row.quantity - deliveredAt(target, f), deliveredAt: null };
}

export function createSimulatedPanel(options: SimulatedPanelOptions): SimulatedPanel {
  const { db, key } = options;
  const deliverySeconds = options.deliverySeconds ?? 120;
  const failureRate = Math.min(1, Math.max(0, options.failureRate ?? 0.1));
  const random = options.random ?? Math.random;
  const now = options.now ?? (() => new Date());
  const currency = options.currency ?? 'USD';
  const postEveryMinutes = options.postEveryMinutes ?? 1200;

  const builtIn = new Set(SIMULATED_SUBSCRIPTION_SERVICES.map((s) => s.service));
  const listOf =
    typeof options.services === 'function' ? options.services : () => options.services as SimulatedPanelService[];
  let listed: { from: SimulatedPanelService[]; entries: PanelServiceEntry[]; rates: Map<string, number> } | null = null;
  /** The `services` reply and the rates, made again only when the list given changes. */
  const offer = () => {
    const from = listOf();
    if (listed?.from === from) return listed;
    const offered = [...from.filter((s) => !builtIn.has(s.service)), ...SIMULATED_SUBSCRIPTION_SERVICES];
    const rates = new Map<string, number>();
    const entries: PanelServiceEntry[] = offered.map((s) => {
      rates.set(s.service, parseAmountE4(s.rate)); // throws on a misconfigured rate
      return {
        // Numeric ids go out as numbers, as most panels send them; `String(service)` is the id again.
        service: String(Number(s.service)) === s.service ? Number(s.service) : s.service,
        name: s.name,
        type: s.type ?? 'Default',
        category: s.category ?? 'Simulated',
        rate: s.rate,
        min: String(s.min ?? 1),
        max: String(s.max ?? 1_000_000),
        refill: s.refill ?? true,
        cancel: true,
        ...(s.dripfeed === undefined ? {} : { dripfeed: s.dripfeed }),
      };
    });
    listed = { from, entries, rates };
    return listed;
  };
  offer(); // a misconfigured rate fails at start-up
  /** rate × units / 1000, in e4. */
  const chargeE4 = (service: string, units: number) => Math.round(((offer().rates.get(service) ?? 0) * units) / 1000);

  /** An order as `status` reports it, numbers as strings as real panels send them. */
  const asOrder = (row: Row): SimulatedOrder => ({
    service: row.service,
    status: row.status,
    charge: formatAmountE4(row.charge_e4, 4),
    start_count: String(row.start_count),
    remains: String(row.remains),
    currency,
    ...(row.kind === 'subscription' ? { posts: String(row.posts_served ?? 0) } : {}),
    ...(row.kind === 'drip-feed' ? { runs: String(row.runs_done ?? 0) } : {}),
    row,
  });
  const refillStatus = (refill: { created_at: string }): PanelRefill => ({
    status: refillProgress(refill.created_at, now().getTime(), deliverySeconds),
  });

  const progressOf = (row: Row, nowMs: number): Partial<VariantProgress> & SimulatedProgress => {
    if (row.kind === 'drip-feed') return dripFeedProgress(row, nowMs, deliverySeconds);
    if (row.kind === 'subscription') return subscriptionProgress(row, nowMs, deliverySeconds, postEveryMinutes);
    return simulatedProgress(row, nowMs, deliverySeconds);
  };

  /** Brings a row up to date with the clock and writes the change back. */
  async function refresh(row: Row): Promise<Row> {
    if (FINAL.has(row.status)) return row;
    const at = now();
    const progress = progressOf(row, at.getTime());
    if (
      progress.status === row.status &&
      progress.remains === row.remains &&
      (progress.runsDone ?? null) === row.runs_done &&
      (progress.postsServed ?? null) === row.posts_served
    ) {
      return row;
    }
    const changes = {
      status: progress.status,
      remains: progress.remains,
      delivered_at: progress.deliveredAt,
      updated_at: at.toISOString(),
      ...(row.kind === 'drip-feed' ? { runs_done: progress.runsDone } : {}),
      ...(row.kind === 'subscription'
        ? {
            posts_served: progress.postsServed,
            charge_e4: chargeE4(row.service, (row.max_per_post ?? row.quantity) * (progress.postsServed ?? 0)),
          }
        : {}),
    };
    // Never overwrite a final status another request (a cancel) wrote in the meantime.
    const result = await db
      .updateTable('simulated_panel_orders')
      .set(changes)
      .where('id', '=', row.id)
      .where('status', 'not in', [...FINAL])
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      return db.selectFrom('simulated_panel_orders').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    }
    return { ...row, ...changes };
  }

  const store: PanelStore<SimulatedOrder> = {
    services: () => offer().entries,
    balance: () => ({ balance: '1000.00', currency }),

    async addOrder(order) {
      const at = now().toISOString();
      const serviceId = String(order.service.service);
      const base = {
        service: serviceId,
        status: PANEL_STATUSES.pending,
        delivered_at: null,
        created_at: at,
        updated_at: at,
      };
      let values: Insertable<SimulatedPanelOrdersTable>;
      if (order.kind === 'drip-feed') {
        const { link, quantity, runs, interval } = order;
        const whole = quantity * runs;
        values = {
          ...base,
          kind: order.kind,
          link,
          quantity,
          comments: null,
          start_count: Math.min(5000, Math.floor(random() * 5001)),
          remains: whole,
          final_remains: 0,
          charge_e4: chargeE4(serviceId, whole),
          outcome: 'complete',
          runs,
          run_interval_minutes: interval,
          runs_done: 0,
        };
      } else if (order.kind === 'subscription') {
        const outcome: SimulatedOutcome = random() < failureRate / 2 ? 'cancel' : 'complete';
        values = {
          ...base,
          kind: order.kind,
          link: order.username,
          quantity: order.max,
          comments: null,
          start_count: 0,
          remains: 0,
          final_remains: 0,
          charge_e4: 0,
          outcome,
          username: order.username,
          min_per_post: order.min,
          max_per_post: order.max,
          posts: order.posts,
          old_posts: order.oldPosts,
          delay_minutes: order.delay,
          expires_at: order.expiry?.endsAt.toISOString() ?? null,
          posts_served: 0,
        };
      } else {
        const { link, quantity, comments } = order;
        const roll = random();
        const startCount = Math.min(5000, Math.floor(random() * 5001));
        const partialShare = 0.1 + random() * 0.5;
        let outcome: SimulatedOutcome =
          roll < failureRate ? (roll < failureRate / 2 ? 'partial' : 'cancel') : 'complete';
        // A partial of a single unit would deliver nothing: that is a cancellation.
        if (outcome === 'partial' && quantity < 2) outcome = 'cancel';
        const finalRemains =
          outcome === 'complete'
            ? 0
            : outcome === 'partial'
              ? Math.min(quantity - 1, Math.max(1, Math.round(quantity * partialShare)))
              : quantity - deliveredAt(quantity, CANCEL_AT);
        values = {
          ...base,
          link,
          quantity,
          comments,
          start_count: startCount,
          remains: quantity,
          final_remains: finalRemains,
          charge_e4: chargeE4(serviceId, quantity),
          outcome,
        };
      }
      const { id } = await db
        .insertInto('simulated_panel_orders')
        .values(values)
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },

    async orders(ids) {
      const rows = await db.selectFrom('simulated_panel_orders').selectAll().where('id', 'in', ids).execute();
      const fresh = await Promise.all(rows.map(refresh));
      return new Map(fresh.map((row) => [row.id, asOrder(row)]));
    },

    async cancelOrder(id, { row }) {
      const at = now().toISOString();
      // `remains` is what the refresh found undelivered; the guard loses to a concurrent finish.
      const result = await db
        .updateTable('simulated_panel_orders')
        .set({ status: PANEL_STATUSES.canceled, remains: row.remains, delivered_at: at, updated_at: at })
        .where('id', '=', id)
        .where('status', 'in', CANCELABLE)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1 ? null : { error: PANEL_ERRORS.cancelImpossible };
    },

    async latestRefill(orderId) {
      const latest = await db
        .selectFrom('simulated_panel_refills')
        .selectAll()
        .where('order_id', '=', orderId)
        .orderBy('id', 'desc')
        .executeTakeFirst();
      return latest && refillStatus(latest);
    },

    async addRefill(orderId) {
      const { id } = await db
        .insertInto('simulated_panel_refills')
        .values({ order_id: orderId, created_at: now().toISOString() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },

    async refills(ids) {
      const rows = await db.selectFrom('simulated_panel_refills').selectAll().where('id', 'in', ids).execute();
      return new Map(rows.map((row) => [row.id, refillStatus(row)]));
    },
  };

  return createPanelProtocol(key, store, { now });
}

/**
 * A fetch that answers from the simulated panel in-process, for
 * `createSmmPanelClient({ url: 'http://simulated-panel/api/v2', key, fetch: simulatedPanelFetch(panel) })`.
 */
export function simulatedPanelFetch(panel: SimulatedPanel): typeof fetch {
  return async (_input: RequestInfo | URL, init?: RequestInit) => {
    init?.signal?.throwIfAborted();
    const form = Object.fromEntries(new URLSearchParams(typeof init?.body === 'string' ? init.body : ''));
    const reply = await panel.handle(form);
    return new Response(JSON.stringify(reply), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}
