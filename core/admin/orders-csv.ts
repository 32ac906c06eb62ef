/**
 * The all-orders list as CSV: the same filter and order as the list, streamed in batches, safe
 * to open in a spreadsheet.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { LIST_COLUMNS, type ListRow, rowsByIds, toRows } from './console-rows.ts';
import { viewPage } from './orders-views.ts';
import type { ConsoleRow, OrdersFilter } from './contracts.ts';
import { customerCondition, customerPage } from './orders-customer.ts';
import { type OrdersSearch, mergeOrdered, normaliseKeyword, normaliseStatus } from './orders-search.ts';

/** Rows per query when exporting. */
const EXPORT_BATCH = 1000;

export const CSV_HEADER = [
  'Order ID',
  'Provider order ID',
  'Order date',
  'Email',
  'Service',
  'Target',
  'Quantity',
  'Price',
  'Currency',
  'Payment status',
  'Order status',
  'Supplier order ID',
  'Error message',
  'Needs review',
  'Review reason',
  'Fulfilment state',
  'Payment provider',
  'Payment method',
  'Method adjustment',
  'Kind',
];

function csvCells(row: ConsoleRow): (string | number)[] {
  return [
    row.orderId,
    row.razorPayOrderId,
    row.orderDate,
    row.email,
    row.serviceName,
    row.name,
    row.quantity,
    row.price,
    row.currency,
    row.paymentStatus,
    row.orderStatus,
    row.supplierOrderId ?? '',
    row.errorMessage ?? '',
    row.needsReview ? 'yes' : 'no',
    row.reviewReason ?? '',
    row.fulfilmentText,
    row.paymentProvider,
    row.paymentMethod,
    row.methodAdjustment,
    row.kindLabel,
  ];
}

/**
 * Text a spreadsheet may run as a formula: starting with = + - @, a tab or a carriage return,
 * also after leading spaces (some spreadsheets skip them), and the full-width = + - @ some
 * spreadsheets read as their ASCII twins.
 */
const FORMULA_START = /^[\s]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]|^[\t\r]/;

/**
 * One CSV cell, the same way for every cell of every row: text a spreadsheet could run as a
 * formula gets a leading single quote, then the cell is always quoted (RFC 4180, quotes
 * doubled), so no cell's content can end the cell, the row or start a formula. Numbers are
 * written as they are (a negative number is a number, not a formula), quoted too.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '""';
  const text = typeof value === 'number' ? String(value) : FORMULA_START.test(value) ? `'${value}` : value;
  return `"${text.replaceAll('"', '""')}"`;
}

export function csvLine(cells: (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

interface CsvExportOptions {
  db: Kysely<Database>;
  search: OrdersSearch;
  /** Rows per query (tests use tiny batches). */
  batch?: number | undefined;
  now?: (() => Date) | undefined;
}

/**
 * The list as CSV lines (header first, CRLF-terminated), for the same filter and in the same
 * order, fetched in batches with keyset pagination on (created_at, id), so memory stays flat
 * however many orders match.
 */
export async function* exportOrdersCsv(options: CsvExportOptions, query: OrdersFilter = {}): AsyncGenerator<string> {
  const { db, search } = options;
  const exportBatch = options.batch ?? EXPORT_BATCH;
  const status = normaliseStatus(query.status);
  const keyword = normaliseKeyword(query.keyword);
  const scope = search.scopeOf(status, query.provider ?? null);
  const now = options.now ?? (() => new Date());
  yield csvLine(CSV_HEADER);

  const email = query.email ?? '';
  if (query.view) {
    // A view is a small slice, paged in its own order (orders-views.ts).
    const condition = email
      ? customerCondition(db, { email, condition: scope.condition, keyword: '' })
      : scope.condition;
    for (let offset = 0; ; offset += exportBatch) {
      const view = { view: query.view, condition, keyword, now: now() };
      const { ids } = await viewPage(db, view, exportBatch, offset);
      for (const row of await rowsByIds(db, ids, now())) yield csvLine(csvCells(row));
      if (ids.length < exportBatch) return;
    }
  }

  if (email) {
    // One customer's orders (orders-customer.ts), newest first, in batches.
    for (let offset = 0; ; offset += exportBatch) {
      const { ids } = await customerPage(db, { email, condition: scope.condition, keyword }, exportBatch, offset);
      for (const row of await rowsByIds(db, ids, now())) yield csvLine(csvCells(row));
      if (ids.length < exportBatch) return;
    }
  }

  const plan = keyword ? await search.planKeyword(keyword) : null;
  if (plan?.indexed) {
    // Few matches: their ids (at most SMALL_RESULT) in order, then the rows in batches.
    const ids = await search.smallMatches(plan.indexed, scope);
    for (let i = 0; i < ids.length; i += exportBatch) {
      for (const row of await rowsByIds(db, ids.slice(i, i + exportBatch), now())) yield csvLine(csvCells(row));
    }
    return;
  }

  const columns = sql.raw(LIST_COLUMNS.join(', '));
  let before: { created_at: string; id: number } | undefined;
  for (;;) {
    const lists = await Promise.all(
      scope.branches.map((branch) =>
        search.branchRows<ListRow>(columns, branch, plan?.walk ?? null, exportBatch, { before }),
      ),
    );
    const batch = mergeOrdered(
      lists.map((l) => l.rows),
      false,
    ).slice(0, exportBatch);
    for (const row of await toRows(db, batch, now())) yield csvLine(csvCells(row));
    const last = batch.at(-1);
    if (batch.length < exportBatch || !last) return;
    before = { created_at: last.created_at, id: Number(last.id) };
  }
}
