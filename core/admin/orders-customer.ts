/**
 * One customer's orders in the all-orders list (the `email` filter) and their totals. A customer
 * has few orders, so the list is a plain walk of the index orders_email_created_at (email,
 * created_at) with the other filters as row tests, paged and counted exactly; the totals add up
 * that customer's payments (order_payments_order) per currency.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';
import type { Database } from '../../db/schema.ts';
import { e4ToNumber } from '../money/money.ts';
import type { CustomerTotals } from './contracts.ts';

interface CustomerQuery {
  /** Trimmed and lowercased, as orders store it. */
  email: string;
  /** The status and provider scope's condition (orders-search.ts), null for all. */
  condition: RawBuilder<unknown> | null;
  /** Lowercased; a plain substring test on the search text within the customer's orders. */
  keyword: string;
}

/** The condition of a customer's orders with the other filters, for the list and its views. */
export function customerCondition(db: Kysely<Database>, query: CustomerQuery): RawBuilder<unknown> {
  const conditions: RawBuilder<unknown>[] = [sql`email = ${query.email}`];
  if (query.condition) conditions.push(query.condition);
  if (query.keyword)
    conditions.push(
      isPostgres(db) ? sql`strpos(search_text, ${query.keyword}) > 0` : sql`instr(search_text, ${query.keyword}) > 0`,
    );
  return sql`(${sql.join(conditions, sql` and `)})`;
}

/** The statements of one page and of the count, exported for the index checks in the tests. */
export function customerPageQueries(db: Kysely<Database>, query: CustomerQuery, limit: number, offset: number) {
  const where = customerCondition(db, query);
  return {
    page: sql<{ id: number }>`select id from orders where ${where}
      order by created_at desc, id desc limit ${limit} offset ${offset}`,
    count: sql<{ n: number | string }>`select count(*) as n from orders where ${where}`,
  };
}

/** One page of the customer's orders, newest first, and how many there are in all. */
export async function customerPage(
  db: Kysely<Database>,
  query: CustomerQuery,
  limit: number,
  offset: number,
): Promise<{ ids: number[]; count: number }> {
  const queries = customerPageQueries(db, query, limit, offset);
  const [page, counted] = await Promise.all([queries.page.execute(db), queries.count.execute(db)]);
  return { ids: page.rows.map((r) => Number(r.id)), count: Number(counted.rows[0]?.n ?? 0) };
}

/** The statements behind the totals, exported for the index checks in the tests. */
export function customerTotalsQueries(email: string) {
  return {
    orders: sql<{ n: number | string }>`select count(*) as n from orders where email = ${email}`,
    // Every payment received (a second payment too), and what went back of each.
    money: sql<{ currency: string; paid: number | string | null; refunded: number | string | null }>`
      select p.currency as currency, sum(p.amount_e4) as paid, sum(p.refunded_e4) as refunded
        from orders o join order_payments p on p.order_id = o.id
       where o.email = ${email}
       group by p.currency
       order by p.currency`,
  };
}

/** Every order of the address, whatever the list's other filters, and its money per currency. */
export async function customerTotals(db: Kysely<Database>, email: string): Promise<CustomerTotals> {
  const queries = customerTotalsQueries(email);
  const [orders, money] = await Promise.all([queries.orders.execute(db), queries.money.execute(db)]);
  return {
    email,
    orders: Number(orders.rows[0]?.n ?? 0),
    money: money.rows.map((row) => ({
      currency: row.currency,
      paid: e4ToNumber(Number(row.paid ?? 0)),
      refunded: e4ToNumber(Number(row.refunded ?? 0)),
    })),
  };
}
