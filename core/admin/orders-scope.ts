/**
 * The all-orders list's scopes (a status, a provider, or both) and how many orders each holds,
 * beside the text helpers of the keyword search (orders-search.ts).
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { OrderStatus } from '../orders/status.ts';
import type { ProviderId } from '../payments/provider.ts';

export interface StatusScope {
  /** Disjoint conditions, each walkable newest-first through one index; their union is the scope. */
  branches: [RawBuilder<unknown>, ...RawBuilder<unknown>[]];
  /** The same as one condition, for filters; null for every order. */
  condition: RawBuilder<unknown> | null;
  status: OrderStatus | null;
  provider: ProviderId | null;
}

export interface ScopeCount {
  count: number;
  /** False when `count` is an estimate. */
  exact: boolean;
}

interface ScopeCounterOptions {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  /** A provider's orders are counted one by one up to this many; beyond, estimated. */
  exactUpTo: number;
  /** The trigger-kept exact count of a status (or all orders). */
  statusCount(status: OrderStatus | null): Promise<number>;
  /** PostgreSQL: the planner's estimate of the orders matching a predicate. */
  pgEstimate(predicate: RawBuilder<unknown>): Promise<number>;
}

/**
 * How many orders a scope holds. A status alone (or none) is exact from the counters. The
 * counters know nothing of providers, so a provider's orders are counted through its index up
 * to `exactUpTo` (the newest ones), and a larger number is estimated: by the planner on
 * PostgreSQL; on SQLite by the density of those newest matches among the ids they span, spread
 * over every id, as the keyword search estimates its matches.
 */
export function scopeCounter(options: ScopeCounterOptions) {
  const { db, dialect, exactUpTo } = options;
  return async function scopeCount(scope: StatusScope): Promise<ScopeCount> {
    if (!scope.provider || !scope.condition) return { count: await options.statusCount(scope.status), exact: true };
    const { rows } = await sql<{ n: number | string; lo: number | null; hi: number | null }>`
      select count(*) as n, min(id) as lo, max(id) as hi from (
        select id from orders where ${scope.condition} order by created_at desc, id desc limit ${exactUpTo + 1}
      ) newest`.execute(db);
    const { n, lo, hi } = rows[0] ?? { n: 0, lo: null, hi: null };
    const seen = Number(n);
    if (seen <= exactUpTo) return { count: seen, exact: true };
    if (dialect === 'postgres') {
      return { count: Math.max(seen, await options.pgEstimate(scope.condition)), exact: false };
    }
    const span = (
      await sql<{
        lo: number | null;
        hi: number | null;
      }>`select (select min(id) from orders) as lo, (select max(id) from orders) as hi`.execute(db)
    ).rows[0];
    const density = seen / Math.max(1, Number(hi ?? 0) - Number(lo ?? 0) + 1);
    const estimate = Math.round(density * Math.max(1, Number(span?.hi ?? 0) - Number(span?.lo ?? 0) + 1));
    return { count: Math.max(seen, estimate), exact: false };
  };
}

/** LIKE pattern text for a literal (backslash is the escape character in both dialects here). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The smallest string greater than every string starting with `prefix` (binary order). */
export function prefixUpperBound(prefix: string): string {
  const chars = [...prefix];
  const last = chars.pop() as string;
  return chars.join('') + String.fromCodePoint((last.codePointAt(0) as number) + 1);
}

/** Every upper/lower-case spelling of a short text (at most 2 characters: 4 spellings). */
export function caseVariants(text: string): string[] {
  let variants = [''];
  for (const ch of text) {
    const options = [...new Set([ch.toLowerCase(), ch.toUpperCase()])];
    variants = variants.flatMap((v) => options.map((o) => v + o));
  }
  return variants;
}

/** Merges lists each ordered by (created_at, id), descending unless `ascending`. */
export function mergeOrdered<T extends { created_at: string; id: number }>(lists: T[][], ascending: boolean): T[] {
  const [first, ...rest] = lists;
  if (first && rest.length === 0) return first;
  const sign = ascending ? 1 : -1;
  const compare = (a: T, b: T) =>
    sign * (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : Number(a.id) - Number(b.id));
  return lists.flat().sort(compare);
}
