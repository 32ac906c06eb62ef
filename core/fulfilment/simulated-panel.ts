/**
 * The built-in simulated supplier panel, used when SMM_PANEL_URL is unset: the protocol of
 * "SMM panel API v2" (see docs: integrations.md) over the simulated_panel_orders table, so the
 * store runs end to end without a real supplier. Served over HTTP by server/api/simulated-panel.ts;
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
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type { Database, SimulatedPanelOrdersTable } from '../../db/schema.ts';
import { formatAmountE4, parseAmountE4 } from '../money/money.ts';

export interface SimulatedPanelService {
  service: string;
  name: string;
  /** Price per 1000, a decimal string with at most 4 decimals, e.g. "0.90". */
  rate: string;
  type?: string;
  category?: string;
  min?: number;
  max?: number;
}

export interface SimulatedPanelOptions {
  db: Kysely<Database>;
  key: string;
  /** Seconds from creation to the end of delivery. */
  deliverySeconds?: number;
  /** Share of orders that end Partial or Canceled (half each), 0–1. */
  failureRate?: number;
  random?: () => number;
  now?: () => Date;
  services: SimulatedPanelService[];
  currency?: string;
}

/** A request's fields (form-encoded or JSON, flattened to strings); the reply is the JSON to send. */
export type SimulatedPanelForm = Record<string, string | undefined>;

export interface SimulatedPanel {
  handle(form: SimulatedPanelForm): Promise<unknown>;
}

export type SimulatedOutcome = 'complete' | 'partial' | 'cancel';

type Row = Selectable<SimulatedPanelOrdersTable>;

/** Status strings exactly as real panels send them. */
export const SIMULATED_STATUSES = {
  pending: 'Pending',
  inProgress: 'In progress',
  completed: 'Completed',
  partial: 'Partial',
  canceled: 'Canceled',
} as const;

const FINAL = new Set<string>([SIMULATED_STATUSES.completed, SIMULATED_STATUSES.partial, SIMULATED_STATUSES.canceled]);
const CANCELABLE: string[] = [SIMULATED_STATUSES.pending, SIMULATED_STATUSES.inProgress];

/** Share of deliverySeconds spent Pending, and at which an order with outcome 'cancel' stops. */
export const START_AT = 0.1;
export const CANCEL_AT = 0.3;
const MAX_IDS = 100;
const MAX_ID = 2_147_483_647;

const INCORRECT_ORDER = 'Incorrect order ID';
const INCORRECT_REFILL = 'Incorrect refill ID';
/** What panels answer when an order cannot be refilled (not completed, service without refill). */
export const REFILL_NOT_AVAILABLE = 'Refill is not available for this order';

/**
 * A simulated refill's status from its age: Pending for the first START_AT of deliverySeconds,
 * In progress until half of it, Completed after (refills top up a drop, shorter than an order).
 */
export function refillProgress(createdAt: string, nowMs: number, deliverySeconds: number): string {
  const f =
    deliverySeconds <= 0 ? Number.POSITIVE_INFINITY : (nowMs - Date.parse(createdAt)) / (deliverySeconds * 1000);
  if (f >= 0.5) return SIMULATED_STATUSES.completed;
  return f < START_AT ? SIMULATED_STATUSES.pending : SIMULATED_STATUSES.inProgress;
}

/** Units delivered at fraction f (START_AT ≤ f ≤ 1) of the delivery time, heading for `target`. */
function deliveredAt(target: number, f: number): number {
  const share = Math.min(1, Math.max(0, (f - START_AT) / (1 - START_AT)));
  // The epsilon keeps 900 × 2/9 at 200, not 199.99999999999997 → 199.
  return Math.floor(target * share + 1e-9);
}

export interface SimulatedProgress {
  status: string;
  remains: number;
  /** When the order reached its final status; null while it is still running. */
  deliveredAt: string | null;
}

/** Where an order stands at `nowMs`, from its creation time, outcome and fixed final remains. */
export function simulatedProgress(
  row: Pick<Row, 'quantity' | 'outcome' | 'final_remains' | 'created_at'>,
  nowMs: number,
  deliverySeconds: number,
): SimulatedProgress {
  const created = Date.parse(row.created_at);
  const deliveryMs = deliverySeconds * 1000;
  const f = deliveryMs <= 0 ? Number.POSITIVE_INFINITY : (nowMs - created) / deliveryMs;
  const endedAt = (fraction: number) => new Date(created + Math.max(0, deliveryMs) * fraction).toISOString();

  if (row.outcome === 'cancel' && f >= CANCEL_AT) {
    return { status: SIMULATED_STATUSES.canceled, remains: row.final_remains, deliveredAt: endedAt(CANCEL_AT) };
  }
  if (f >= 1) {
    return row.outcome === 'partial'
      ? { status: SIMULATED_STATUSES.partial, remains: row.final_remains, deliveredAt: endedAt(1) }
      : { status: SIMULATED_STATUSES.completed, remains: 0, deliveredAt: endedAt(1) };
  }
  if (f < START_AT) return { status: SIMULATED_STATUSES.pending, remains: row.quantity, deliveredAt: null };
  const target = row.outcome === 'partial' ? row.quantity - row.final_remains : row.quantity;
  return { status: SIMULATED_STATUSES.inProgress, remains: row.quantity - deliveredAt(target, f), deliveredAt: null };
}

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

function orderId(text: string): number | null {
  if (!/^\d{1,10}$/.test(text)) return null;
  const id = Number(text);
  return id >= 1 && id <= MAX_ID ? id : null;
}

export function createSimulatedPanel(options: SimulatedPanelOptions): SimulatedPanel {
  const { db, key } = options;
  const deliverySeconds = options.deliverySeconds ?? 120;
  const failureRate = Math.min(1, Math.max(0, options.failureRate ?? 0.1));
  const random = options.random ?? Math.random;
  const now = options.now ?? (() => new Date());
  const currency = options.currency ?? 'USD';

  const services = new Map(
    options.services.map((s) => {
      const rateE4 = parseAmountE4(s.rate); // throws on a misconfigured rate, at start-up
      return [s.service, { ...s, rateE4, min: s.min ?? 1, max: s.max ?? 1_000_000 }] as const;
    }),
  );

  /** Brings a row up to date with the clock and writes the change back. */
  async function refresh(row: Row): Promise<Row> {
    if (FINAL.has(row.status)) return row;
    const at = now();
    const progress = simulatedProgress(row, at.getTime(), deliverySeconds);
    if (progress.status === row.status && progress.remains === row.remains) return row;
    const changes = {
      status: progress.status,
      remains: progress.remains,
      delivered_at: progress.deliveredAt,
      updated_at: at.toISOString(),
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

  async function load(ids: number[]): Promise<Map<number, Row>> {
    if (ids.length === 0) return new Map();
    const rows = await db.selectFrom('simulated_panel_orders').selectAll().where('id', 'in', ids).execute();
    const fresh = await Promise.all(rows.map(refresh));
    return new Map(fresh.map((row) => [row.id, row]));
  }

  const statusReply = (row: Row) => ({
    charge: formatAmountE4(row.charge_e4, 4),
    start_count: String(row.start_count),
    status: row.status,
    remains: String(row.remains),
    currency,
  });

  async function add(form: SimulatedPanelForm) {
    const service = services.get((form.service ?? '').trim());
    if (!service) return { error: 'Incorrect service ID' };
    const link = (form.link ?? '').trim();
    if (link === '') return { error: 'Incorrect link' };
    const quantityText = (form.quantity ?? '').trim();
    const quantity = /^\d{1,9}$/.test(quantityText) ? Number(quantityText) : Number.NaN;
    if (!Number.isInteger(quantity) || quantity < 1) return { error: 'Incorrect quantity' };
    if (quantity < service.min) return { error: `Quantity less than minimal ${service.min}` };
    if (quantity > service.max) return { error: `Quantity greater than maximal ${service.max}` };

    const roll = random();
    const startCount = Math.min(5000, Math.floor(random() * 5001));
    const partialShare = 0.1 + random() * 0.5;
    let outcome: SimulatedOutcome = roll < failureRate ? (roll < failureRate / 2 ? 'partial' : 'cancel') : 'complete';
    // A partial of a single unit would deliver nothing: that is a cancellation.
    if (outcome === 'partial' && quantity < 2) outcome = 'cancel';
    const finalRemains =
      outcome === 'complete'
        ? 0
        : outcome === 'partial'
          ? Math.min(quantity - 1, Math.max(1, Math.round(quantity * partialShare)))
          : quantity - deliveredAt(quantity, CANCEL_AT);

    const at = now().toISOString();
    const comments = (form.comments ?? '').trim();
    const { id } = await db
      .insertInto('simulated_panel_orders')
      .values({
        service: service.service,
        link,
        quantity,
        comments: comments === '' ? null : comments,
        status: SIMULATED_STATUSES.pending,
        start_count: startCount,
        remains: quantity,
        final_remains: finalRemains,
        charge_e4: Math.round((service.rateE4 * quantity) / 1000),
        outcome,
        delivered_at: null,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { order: id };
  }

  async function status(form: SimulatedPanelForm) {
    if (form.orders !== undefined) {
      const ids = idList(form.orders);
      if (ids.length === 0 || ids.length > MAX_IDS) return { error: 'Incorrect request' };
      const rows = await load(ids.map(orderId).filter((id): id is number => id !== null));
      const reply: Record<string, unknown> = {};
      for (const text of ids) {
        const id = orderId(text);
        const row = id === null ? undefined : rows.get(id);
        reply[text] = row ? statusReply(row) : { error: INCORRECT_ORDER };
      }
      return reply;
    }
    const id = orderId((form.order ?? '').trim());
    const row = id === null ? undefined : (await load([id])).get(id);
    return row ? statusReply(row) : { error: INCORRECT_ORDER };
  }

  /**
   * A refill is a row of simulated_panel_refills; it is refused for an order that is not
   * Completed and while an earlier refill of the order is still running, as real panels do.
   */
  async function refillOne(row: Row | undefined): Promise<{ refill: string } | { error: string }> {
    if (!row) return { error: INCORRECT_ORDER };
    if (row.status !== SIMULATED_STATUSES.completed) return { error: REFILL_NOT_AVAILABLE };
    const latest = await db
      .selectFrom('simulated_panel_refills')
      .selectAll()
      .where('order_id', '=', row.id)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (latest && refillProgress(latest.created_at, now().getTime(), deliverySeconds) !== 'Completed') {
      return { error: 'Refill is already in progress for this order' };
    }
    const { id } = await db
      .insertInto('simulated_panel_refills')
      .values({ order_id: row.id, created_at: now().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { refill: String(id) };
  }

  async function refill(form: SimulatedPanelForm) {
    if (form.orders !== undefined) {
      const ids = idList(form.orders);
      if (ids.length === 0 || ids.length > MAX_IDS) return { error: 'Incorrect request' };
      const rows = await load(ids.map(orderId).filter((id): id is number => id !== null));
      const replies = [];
      for (const text of ids) {
        const id = orderId(text);
        const result = await refillOne(id === null ? undefined : rows.get(id));
        replies.push({ order: id ?? text, refill: 'error' in result ? { error: result.error } : result.refill });
      }
      return replies;
    }
    const id = orderId((form.order ?? '').trim());
    return refillOne(id === null ? undefined : (await load([id])).get(id));
  }

  async function refillStatus(form: SimulatedPanelForm) {
    const statusOf = (row: { created_at: string } | undefined) =>
      row ? refillProgress(row.created_at, now().getTime(), deliverySeconds) : null;
    const find = async (ids: number[]) =>
      ids.length === 0
        ? new Map<number, { created_at: string }>()
        : new Map(
            (await db.selectFrom('simulated_panel_refills').selectAll().where('id', 'in', ids).execute()).map(
              (row) => [row.id, row] as const,
            ),
          );
    if (form.refills !== undefined) {
      const ids = idList(form.refills);
      if (ids.length === 0 || ids.length > MAX_IDS) return { error: 'Incorrect request' };
      const rows = await find(ids.map(orderId).filter((id): id is number => id !== null));
      return ids.map((text) => {
        const id = orderId(text);
        const status = statusOf(id === null ? undefined : rows.get(id));
        return { refill: id ?? text, status: status ?? { error: INCORRECT_REFILL } };
      });
    }
    const id = orderId((form.refill ?? '').trim());
    const status = statusOf(id === null ? undefined : (await find([id])).get(id));
    return status ? { status } : { error: INCORRECT_REFILL };
  }

  async function cancel(form: SimulatedPanelForm) {
    const ids = idList(form.orders ?? form.order);
    if (ids.length === 0 || ids.length > MAX_IDS) return { error: 'Incorrect request' };
    const rows = await load(ids.map(orderId).filter((id): id is number => id !== null));
    const replies = [];
    for (const text of ids) {
      const id = orderId(text);
      const row = id === null ? undefined : rows.get(id);
      if (!row) {
        replies.push({ order: id ?? text, cancel: { error: INCORRECT_ORDER } });
        continue;
      }
      if (!CANCELABLE.includes(row.status)) {
        replies.push({ order: row.id, cancel: { error: 'Order cannot be canceled' } });
        continue;
      }
      const at = now().toISOString();
      // `remains` is what the refresh above found undelivered; the guard loses to a concurrent finish.
      const result = await db
        .updateTable('simulated_panel_orders')
        .set({ status: SIMULATED_STATUSES.canceled, remains: row.remains, delivered_at: at, updated_at: at })
        .where('id', '=', row.id)
        .where('status', 'in', CANCELABLE)
        .executeTakeFirst();
      replies.push(
        Number(result.numUpdatedRows) === 1
          ? { order: row.id, cancel: 1 }
          : { order: row.id, cancel: { error: 'Order cannot be canceled' } },
      );
    }
    return replies;
  }

  return {
    async handle(form) {
      if (!sameKey(form.key, key)) return { error: 'Invalid API key' };
      switch (form.action) {
        case 'services':
          return [...services.values()].map((s) => ({
            service: Number.isInteger(Number(s.service)) ? Number(s.service) : s.service,
            name: s.name,
            type: s.type ?? 'Default',
            category: s.category ?? 'Simulated',
            rate: s.rate,
            min: String(s.min),
            max: String(s.max),
            refill: true,
            cancel: true,
          }));
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
          return { balance: '1000.00', currency };
        default:
          return { error: 'Incorrect request' };
      }
    },
  };
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
