/**
 * The all-orders list's views (decision 057): subscriptions, subscriptions ending this week, and
 * orders queued behind another on the same account. Each is a small slice of the orders, walked
 * through its own partial index, so a view pages and counts exactly with a plain count: the
 * subscriptions view through orders_subscriptions (kind <> 'package'), ending through
 * subscriptions_running_ends (ended_at is null, by ends_at; soonest first), queued through
 * orders_queued (fulfilment_state = 'queued'). The status and provider filters narrow a view;
 * a keyword is a plain substring filter on the search text there (the slice is small).
 *
 * The partial-index predicates are written out, not bound: SQLite uses a partial index only
 * for a WHERE it can match to the index's own.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';
import type { Database } from '../../db/schema.ts';
import { DAY_MS } from '../subscriptions/terms.ts';
import type { OrderView } from './contracts.ts';

/** "Ending this week": the running subscriptions whose period ends within this long. */
export const ENDING_WITHIN_MS = 7 * DAY_MS;

interface ViewQuery {
  view: OrderView;
  /** The status and provider scope's condition (orders-search.ts), null for all. */
  condition: RawBuilder<unknown> | null;
  keyword: string;
  now: Date;
}

function conditionsOf(db: Kysely<Database>, query: ViewQuery, column: (name: string) => RawBuilder<unknown>) {
  const conditions: RawBuilder<unknown>[] = [];
  if (query.condition) conditions.push(query.condition);
  if (query.keyword) {
    conditions.push(
      isPostgres(db)
        ? sql`strpos(${column('search_text')}, ${query.keyword}) > 0`
        : sql`instr(${column('search_text')}, ${query.keyword}) > 0`,
    );
  }
  return conditions;
}

/** The view's select (ids, in its order) and its count, as SQL over `orders`. */
function viewSql(db: Kysely<Database>, query: ViewQuery) {
  if (query.view === 'ending') {
    const until = new Date(query.now.getTime() + ENDING_WITHIN_MS).toISOString();
    // The status and provider conditions name orders' columns unqualified (order_status,
    // payment_status, provider, search_text): subscriptions has none of them, so they are the order's.
    const extra = conditionsOf(db, query, (name) => sql.ref(`o.${name}`));
    const filter = extra.length ? sql`and ${sql.join(extra, sql` and `)}` : sql``;
    return {
      from: sql`from subscriptions s join orders o on o.id = s.order_id
        where s.ended_at is null and s.ends_at <= ${until} ${filter}`,
      order: sql`order by s.ends_at asc, o.id asc`,
      id: sql`o.id`,
    };
  }
  const base = query.view === 'subscriptions' ? sql`kind <> 'package'` : sql`fulfilment_state = 'queued'`;
  const extra = conditionsOf(db, query, (name) => sql.ref(name));
  return {
    from: sql`from orders where ${sql.join([base, ...extra], sql` and `)}`,
    // Queued orders oldest first (the order they will be sent in); subscriptions newest first.
    order: query.view === 'queued' ? sql`order by id asc` : sql`order by id desc`,
    id: sql`id`,
  };
}

export async function viewPage(
  db: Kysely<Database>,
  query: ViewQuery,
  limit: number,
  offset: number,
): Promise<{ ids: number[]; count: number }> {
  const { from, order, id } = viewSql(db, query);
  const [page, counted] = await Promise.all([
    sql<{ id: number }>`select ${id} as id ${from} ${order} limit ${limit} offset ${offset}`.execute(db),
    sql<{ n: number | string }>`select count(*) as n ${from}`.execute(db),
  ]);
  return { ids: page.rows.map((r) => Number(r.id)), count: Number(counted.rows[0]?.n ?? 0) };
}
