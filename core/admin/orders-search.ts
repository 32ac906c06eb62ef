/**
 * The admin all-orders list (spec "Admin all-orders"): status filter, keyword search and pages,
 * built to stay fast at millions of orders (see `npm run bench:admin`). The CSV export walks the
 * same plans (orders-csv.ts).
 *
 * Order. Newest first: (created_at desc, id desc).
 *
 * Status filter. One of ORDER_STATUSES, case-insensitive. 'Pending' also matches orders whose
 * payment is still `created` (the spec shows that payment state as pending).
 *
 * Provider filter. The payment provider that took (or is to take) the order's money. It narrows
 * every walk below, served by the index orders_provider_created (provider, created_at) when it
 * is the only filter; its counts are exact up to STATUS_SCAN_LIMIT orders (counted through that
 * index) and estimated beyond (orders-scope.ts), as the counters know statuses only.
 *
 * Keyword. Trimmed and lowercased, it matches as a substring of the provider order id (so with
 * or without `order_`), the e-mail, the target or the service name. Keywords of one or two
 * characters are too short for a trigram index: they match as a prefix of the order id (with or
 * without `order_`) or of the e-mail.
 *
 * How a keyword search runs (migration 007 builds the column `orders.search_text`, kept by
 * triggers, and the indexes):
 * 1. A cheap probe sizes the match set. SQLite: the FTS5 trigram index counts up to
 *    SMALL_RESULT + 1 matches (incremental, it stops there). PostgreSQL: the planner's
 *    estimate for `search_text LIKE '%kw%'` (fine-grained statistics on the column).
 * 2. Few matches: all of them (ids only) are fetched through the trigram index, filtered by
 *    status and sorted; the count is exact and the page is a slice.
 * 3. Many matches: the newest-first index (or the status index) is walked with the keyword as a
 *    plain filter (instr / strpos, which the trigram index cannot serve, so the planner cannot
 *    switch to "collect every match, then sort") and LIMIT/OFFSET: matches are frequent, so the
 *    walk stops soon after the page.
 * The Pending filter is two index walks (order status Pending; payment created), merged here.
 * Without a keyword, a page past the middle is read from the oldest end (the count is exact).
 *
 * Counts (`count`, `totalPages`, `countExact`):
 * - No keyword: exact, read from `order_counts`, which triggers keep per (order status,
 *   payment status): never a count over the orders table.
 * - Keyword with few matches (step 2): exact.
 * - Keyword with many matches: exact when a status filter leaves at most STATUS_SCAN_LIMIT
 *   orders to check (they are all read through the status index); otherwise an estimate
 *   (SQLite: the density of matches among the newest ids the probe saw; PostgreSQL: the
 *   planner's row estimate), flagged `countExact: false`, so a page count in the hundreds of
 *   thousands never costs a scan of a million rows.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';
import type { Database } from '../../db/schema.ts';
import { ORDER_STATUSES, type OrderStatus } from '../orders/status.ts';
import type { ProviderId } from '../payments/provider.ts';
import { CONSOLE_MESSAGES, ConsoleError } from './console-errors.ts';
import { rowsByIds } from './console-rows.ts';
import { viewPage } from './orders-views.ts';
import { customerCondition, customerPage } from './orders-customer.ts';
import { MAX_KEYWORD_LENGTH, type OrdersListQuery, type OrdersPage } from './contracts.ts';
import {
  type StatusScope,
  caseVariants,
  likeLiteral,
  mergeOrdered,
  prefixUpperBound,
  scopeCounter,
} from './orders-scope.ts';

export { mergeOrdered };

const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;
/** Keywords shorter than this match as a prefix of the order id or e-mail. */
const MIN_SUBSTRING_KEYWORD = 3;
/** Up to this many keyword matches, searches go through the trigram index and count exactly. */
const SMALL_RESULT = { sqlite: 5000, postgres: 2000 } as const;
/** A status with at most this many orders is checked row by row for an exact keyword count. */
const STATUS_SCAN_LIMIT = { sqlite: 5000, postgres: 10_000 } as const;

interface OrdersSearchOptions {
  db: Kysely<Database>;
  /** Overrides of the size thresholds (tests use tiny ones to reach every code path). */
  limits?: { smallResult?: number; statusScanLimit?: number } | undefined;
  /** The store's clock: subscriptions' progress and "ending this week" are read against it. */
  now?: (() => Date) | undefined;
}

type Dialect = 'sqlite' | 'postgres';

/** 'in progress' → 'In Progress'; '' or undefined → null; anything else → ConsoleError 400. */
export function normaliseStatus(status: string | undefined | null): OrderStatus | null {
  const text = (status ?? '').trim().toLowerCase();
  if (!text || text === 'all') return null;
  const match = ORDER_STATUSES.find(
    (s) => s.toLowerCase() === text || s.toLowerCase().replace(' ', '') === text.replace(/[\s_-]+/g, ''),
  );
  if (!match) throw new ConsoleError(CONSOLE_MESSAGES.badStatus, 400);
  return match;
}

export function normaliseKeyword(keyword: string | undefined | null): string {
  return (keyword ?? '').trim().slice(0, MAX_KEYWORD_LENGTH).toLowerCase();
}

/** How a keyword search finds its rows. */
interface KeywordPlan {
  /**
   * True exactly for matching rows, in a form the trigram index cannot serve (instr / strpos /
   * column prefixes): for walks along the newest-first indexes, which must not turn into
   * "collect every match, then sort" plans.
   */
  walk: RawBuilder<unknown>;
  /** When there are at most SMALL_RESULT matches (any status): a condition the trigram index serves. */
  indexed?: RawBuilder<unknown>;
  /** For many matches: the estimated number of matches over all statuses. */
  estimate?: number;
  /** PostgreSQL: the predicate in the form the planner has statistics for (estimates). */
  estimable?: RawBuilder<unknown>;
}

export function createOrdersSearch(options: OrdersSearchOptions) {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  const dialect: Dialect = isPostgres(db) ? 'postgres' : 'sqlite';
  const smallResult = options.limits?.smallResult ?? SMALL_RESULT[dialect];
  const statusScanLimit = options.limits?.statusScanLimit ?? STATUS_SCAN_LIMIT[dialect];

  function statusScope(status: OrderStatus | null): StatusScope {
    if (!status) return { branches: [sql`1 = 1`], condition: null, status, provider: null };
    if (status === 'Pending') {
      return {
        branches: [sql`order_status = 'Pending'`, sql`payment_status = 'created' and order_status <> 'Pending'`],
        condition: sql`(order_status = 'Pending' or payment_status = 'created')`,
        status,
        provider: null,
      };
    }
    const condition = sql`order_status = ${status}`;
    return { branches: [condition], condition, status, provider: null };
  }

  /** The status's branches and condition, each narrowed to the provider's orders when one is asked for. */
  function scopeOf(status: OrderStatus | null, provider: ProviderId | null = null): StatusScope {
    const scope = statusScope(status);
    if (!provider) return scope;
    const only = sql`provider = ${provider}`;
    const [first, ...rest] = scope.branches;
    return {
      branches: [sql`${only} and ${first}`, ...rest.map((branch) => sql`${only} and ${branch}`)],
      condition: scope.condition ? sql`${only} and ${scope.condition}` : only,
      status,
      provider,
    };
  }

  /** Exact number of orders in a status (or all), from the trigger-maintained counters. */
  async function statusCount(status: OrderStatus | null): Promise<number> {
    // order_counts belongs to migration 007 alone (no Kysely table type): plain SQL.
    const where =
      status === 'Pending'
        ? sql`where order_status = 'Pending' or payment_status = 'created'`
        : status
          ? sql`where order_status = ${status}`
          : sql``;
    const { rows } = await sql<{ n: number | string | null }>`select sum(n) as n from order_counts ${where}`.execute(
      db,
    );
    return Number(rows[0]?.n ?? 0);
  }

  async function pgEstimate(predicate: RawBuilder<unknown>): Promise<number> {
    const { rows } = await sql<{
      'QUERY PLAN': { Plan: { 'Plan Rows': number } }[];
    }>`explain (format json) select 1 from orders where ${predicate}`.execute(db);
    return Math.round(rows[0]?.['QUERY PLAN']?.[0]?.Plan?.['Plan Rows'] ?? 0);
  }

  const scopeCount = scopeCounter({ db, dialect, exactUpTo: statusScanLimit, statusCount, pgEstimate });

  async function planKeyword(keyword: string): Promise<KeywordPlan> {
    const small = smallResult;
    if ([...keyword].length >= MIN_SUBSTRING_KEYWORD) {
      if (dialect === 'sqlite') {
        const walk = sql`instr(search_text, ${keyword}) > 0`;
        const phrase = `"${keyword.replaceAll('"', '""')}"`;
        // FTS5 walks its matches newest id first and stops at small + 1.
        const probe = await sql<{ n: number; lo: number | null; hi: number | null }>`
          select count(*) as n, min(rid) as lo, max(rid) as hi from (
            select rowid as rid from orders_search where orders_search match ${phrase} order by rowid desc limit ${small + 1}
          ) probe`.execute(db);
        const { n, lo, hi } = probe.rows[0] ?? { n: 0, lo: null, hi: null };
        if (n <= small)
          return { walk, indexed: sql`id in (select rowid from orders_search where orders_search match ${phrase})` };
        // The density of matches among the newest ids the probe saw, spread over all ids. Two
        // scalar subqueries: SQLite answers each from an end of the rowid b-tree (min() and max()
        // in one SELECT would scan the table).
        const span = (
          await sql<{
            lo: number | null;
            hi: number | null;
          }>`select (select min(id) from orders) as lo, (select max(id) from orders) as hi`.execute(db)
        ).rows[0];
        const density = n / Math.max(1, (hi ?? 0) - (lo ?? 0) + 1);
        const estimate = Math.round(density * Math.max(1, Number(span?.hi ?? 0) - Number(span?.lo ?? 0) + 1));
        return { walk, estimate: Math.max(small + 1, estimate) };
      }
      const indexed = sql`search_text like ${`%${likeLiteral(keyword)}%`}`;
      const walk = sql`strpos(search_text, ${keyword}) > 0`;
      const estimate = await pgEstimate(indexed);
      return estimate <= small ? { walk, indexed, estimable: indexed } : { walk, estimate, estimable: indexed };
    }

    // One or two characters: a prefix of the order id (with or without `order_`) or of the e-mail.
    // Binary ranges on the unique index on provider_order_id (ids are mixed-case: every spelling)
    // and on the (email, created_at) index (e-mails are stored lowercased) size the result.
    const ranges = [...caseVariants(keyword).flatMap((v) => [v, `order_${v}`])].map(
      (prefix) => sql`(provider_order_id >= ${prefix} and provider_order_id < ${prefixUpperBound(prefix)})`,
    );
    ranges.push(sql`(email >= ${keyword} and email < ${prefixUpperBound(keyword)})`);
    const inRanges = sql`(${sql.join(ranges, sql` or `)})`;
    const probe = await sql<{
      n: number | string;
    }>`select count(*) as n from (select id from orders where ${inRanges} limit ${small + 1}) probe`.execute(db);
    const few = Number(probe.rows[0]?.n ?? 0) <= small;
    if (dialect === 'sqlite') {
      // SQLite compares text as bytes: the ranges are the prefix test itself.
      if (few) return { walk: inRanges, indexed: inRanges };
      // Each range counted on its own index (an order in two ranges counts twice: an estimate).
      const { rows } = await sql<{ n: number }>`select ${sql.join(
        ranges.map((range) => sql`(select count(*) from orders where ${range})`),
        sql` + `,
      )} as n`.execute(db);
      return { walk: inRanges, estimate: Math.max(small + 1, Number(rows[0]?.n ?? 0)) };
    }
    // PostgreSQL orders text by the database's collation, where ranges only approximate a
    // prefix: they size the result; the matches come from exact LIKE tests, through the trigram
    // index when few (each arm of `superset` contains one arm of `walk`).
    const literal = likeLiteral(keyword);
    const walk = sql`(lower(provider_order_id) like ${`${literal}%`} or lower(provider_order_id) like ${`order\\_${literal}%`} or email like ${`${literal}%`})`;
    // pg_trgm treats '_' and the newline as word breaks, so every arm asks only for the trigrams
    // of a word starting with the keyword ('order\_kw%' would also ask for those of "order",
    // which every order has).
    const superset = sql`(search_text like ${`${literal}%`} or search_text like ${`%\\_${literal}%`} or search_text like ${`%\n${literal}%`})`;
    if (few) return { walk, indexed: sql`(${superset} and ${walk})`, estimable: inRanges };
    // Many: count the ranges up to a bound (index work only), beyond it ask the planner.
    const bound = 20 * small;
    const sized = await sql<{
      n: number | string;
    }>`select count(*) as n from (select id from orders where ${inRanges} limit ${bound + 1}) sized`.execute(db);
    const n = Number(sized.rows[0]?.n ?? 0);
    return { walk, estimate: Math.max(small + 1, n <= bound ? n : await pgEstimate(inRanges)), estimable: inRanges };
  }

  /**
   * The rows of one status branch, newest first (or oldest first), optionally after a keyset
   * position, each branch walking its own index with its own LIMIT.
   */
  function branchRows<T>(
    columns: RawBuilder<unknown>,
    branch: RawBuilder<unknown>,
    predicate: RawBuilder<unknown> | null,
    limit: number,
    options_: { ascending?: boolean; offset?: number; before?: { created_at: string; id: number } | undefined } = {},
  ) {
    const direction = options_.ascending ? sql.raw('asc') : sql.raw('desc');
    const conditions = [branch];
    if (predicate) conditions.push(predicate);
    if (options_.before) {
      conditions.push(
        sql`(created_at < ${options_.before.created_at} or (created_at = ${options_.before.created_at} and id < ${options_.before.id}))`,
      );
    }
    return sql<T>`select ${columns} from orders where ${sql.join(conditions, sql` and `)}
      order by created_at ${direction}, id ${direction} limit ${limit} offset ${options_.offset ?? 0}`.execute(db);
  }

  /**
   * Ids of one page, newest first. Two status branches (Pending) are walked separately, each up
   * to the page's end, and merged here: PostgreSQL would rather sort their whole union.
   */
  async function walkPage(
    scope: StatusScope,
    predicate: RawBuilder<unknown> | null,
    limit: number,
    offset: number,
    ascending = false,
  ) {
    if (limit <= 0) return [];
    let ids: number[];
    if (scope.branches.length === 1) {
      const { rows } = await branchRows<{ id: number }>(sql`id`, scope.branches[0], predicate, limit, {
        ascending,
        offset,
      });
      ids = rows.map((r) => Number(r.id));
    } else {
      const lists = await Promise.all(
        scope.branches.map((branch) =>
          branchRows<{ id: number; created_at: string }>(sql`id, created_at`, branch, predicate, offset + limit, {
            ascending,
          }),
        ),
      );
      ids = mergeOrdered(
        lists.map((l) => l.rows),
        ascending,
      )
        .slice(offset, offset + limit)
        .map((r) => Number(r.id));
    }
    return ascending ? ids.reverse() : ids;
  }

  /** Ids of every match of a small keyword result in the status, newest first. */
  async function smallMatches(indexed: RawBuilder<unknown>, scope: StatusScope): Promise<number[]> {
    const statusFilter = scope.condition ? sql`and ${scope.condition}` : sql``;
    const { rows } = await sql<{ id: number }>`select id from orders where ${indexed} ${statusFilter}
      order by created_at desc, id desc`.execute(db);
    return rows.map((r) => Number(r.id));
  }

  async function list(query: OrdersListQuery = {}): Promise<OrdersPage> {
    const status = normaliseStatus(query.status);
    const keyword = normaliseKeyword(query.keyword);
    const provider = query.provider ?? null;
    const size = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(Number(query.size) || DEFAULT_PAGE_SIZE)));
    const page = Math.max(1, Math.floor(Number(query.page) || 1));
    const offset = (page - 1) * size;
    const scope = scopeOf(status, provider);
    const result = (ids: number[], count: number, countExact: boolean) =>
      rowsByIds(db, ids, now()).then((rows) => ({
        rows,
        count,
        totalPages: Math.ceil(count / size),
        currentPage: page,
        countExact,
      }));

    const email = query.email ?? '';
    if (query.view) {
      // A view is a small slice through its own index (orders-views.ts): paged and counted exactly.
      const condition = email
        ? customerCondition(db, { email, condition: scope.condition, keyword: '' })
        : scope.condition;
      const { ids, count } = await viewPage(db, { view: query.view, condition, keyword, now: now() }, size, offset);
      return result(ids, count, true);
    }

    if (email) {
      // One customer's orders (orders-customer.ts): few, through the e-mail index, counted exactly.
      const { ids, count } = await customerPage(db, { email, condition: scope.condition, keyword }, size, offset);
      return result(ids, count, true);
    }

    if (!keyword) {
      const { count, exact } = await scopeCount(scope);
      if (!exact) {
        // Many orders of the provider: newest first, and the count bounded by what the page saw.
        const ids = await walkPage(scope, null, size, offset);
        if (ids.length > 0 && ids.length < size) return result(ids, offset + ids.length, true);
        return result(ids, ids.length === 0 ? Math.min(count, offset) : Math.max(count, offset + ids.length), false);
      }
      if (offset >= count) return result([], count, true);
      // Past the middle, walking from the oldest end is shorter; the exact count makes it the same page.
      if (offset > count / 2) {
        const limit = Math.min(size, count - offset);
        return result(await walkPage(scope, null, limit, count - offset - limit, true), count, true);
      }
      return result(await walkPage(scope, null, size, offset), count, true);
    }

    const plan = await planKeyword(keyword);
    if (plan.indexed) {
      const ids = await smallMatches(plan.indexed, scope);
      return result(ids.slice(offset, offset + size), ids.length, true);
    }

    const ids = await walkPage(scope, plan.walk, size, offset);
    // A partly filled page is the last one: its position gives the exact count.
    if (ids.length > 0 && ids.length < size) return result(ids, offset + ids.length, true);
    // Past the last match the count is at most the offset; within the matches, at least the page's end.
    const bounded = (estimate: number) =>
      ids.length === 0 ? Math.min(estimate, offset) : Math.max(estimate, offset + ids.length);
    if (!scope.condition) return result(ids, bounded(plan.estimate ?? 0), false);
    const population = await scopeCount(scope);
    if (population.exact && population.count <= statusScanLimit) {
      // Few orders in the status: check each (through the status index) for an exact count.
      const { rows } = await sql<{ n: number | string }>`select ${sql.join(
        scope.branches.map((branch) => sql`(select count(*) from orders where ${branch} and ${plan.walk})`),
        sql` + `,
      )} as n`.execute(db);
      return result(ids, Number(rows[0]?.n ?? 0), true);
    }
    const estimate =
      dialect === 'postgres' && plan.estimable
        ? await pgEstimate(sql`${scope.condition} and ${plan.estimable}`)
        : Math.round(((plan.estimate ?? 0) * population.count) / Math.max(1, await statusCount(null)));
    return result(ids, bounded(estimate), false);
  }

  return { list, scopeOf, planKeyword, smallMatches, branchRows };
}

export type OrdersSearch = ReturnType<typeof createOrdersSearch>;
