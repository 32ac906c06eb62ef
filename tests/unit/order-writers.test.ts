/**
 * One writer per order row: every change to `orders` goes through core/orders (its transitions
 * write the row, the timeline and the event together, by compare-and-set). This reads every
 * tracked source file outside core/orders and fails on any Kysely or SQL write to the table, so a
 * new module that "just updates the status" is caught before review.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** Kysely builders and SQL statements that write a table named `orders`. */
const KYSELY_WRITE = /\.(updateTable|insertInto|deleteFrom|replaceInto|mergeInto)\(\s*['"`]orders['"`]\s*\)/g;
const SQL_WRITE = /\b(update|insert\s+into|delete\s+from|replace\s+into)\s+"?orders"?[\s(;`]/gi;

/**
 * Benchmark tools that fill an empty database with synthetic orders in bulk, or empty it, and
 * never change a live order's state: they may insert and delete, never update.
 */
const BULK_DATA_TOOLS = new Set([
  'scripts/seed-orders.ts',
  'scripts/bench-admin.ts',
  'scripts/bench-subscription-sync.ts',
]);

interface Write {
  file: string;
  line: number;
  text: string;
  kind: 'update' | 'insert' | 'delete';
}

function orderWritesIn(file: string, source: string): Write[] {
  const writes: Write[] = [];
  const lineOf = (index: number) => source.slice(0, index).split('\n').length;
  const kindOf = (verb: string): Write['kind'] =>
    /^update|^merge/i.test(verb) ? 'update' : /^delete/i.test(verb) ? 'delete' : 'insert';
  for (const match of source.matchAll(KYSELY_WRITE)) {
    writes.push({ file, line: lineOf(match.index), text: match[0], kind: kindOf(match[1] ?? '') });
  }
  for (const match of source.matchAll(SQL_WRITE)) {
    writes.push({ file, line: lineOf(match.index), text: match[0].trim(), kind: kindOf(match[1] ?? '') });
  }
  return writes;
}

function trackedSources(): string[] {
  const listed = execFileSync(
    'git',
    ['ls-files', '-co', '--exclude-standard', 'app', 'core', 'db', 'server', 'scripts'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  return listed
    .split('\n')
    .filter((file) => /\.(ts|tsx|mjs|js)$/.test(file))
    .filter((file) => !file.startsWith('core/orders/') && !file.startsWith('db/migrations/'));
}

describe('the order row has one writer: core/orders', () => {
  it('finds the writes it looks for (so a pass means something)', () => {
    const sample = [
      "await trx.updateTable('orders').set({ order_status: 'Completed' })",
      'await db\n  .insertInto("orders")\n  .values(row)',
      "await trx.deleteFrom( 'orders' ).where('id', '=', 1)",
      'await sql`UPDATE orders SET needs_review = 1`.execute(db)',
      'const text = `insert into orders (id) values (1)`',
      "await trx.updateTable('order_events').set({})",
      "await trx.selectFrom('orders').selectAll()",
    ].join('\n');
    expect(orderWritesIn('sample.ts', sample).map((w) => w.kind)).toEqual([
      'update',
      'insert',
      'delete',
      'update',
      'insert',
    ]);
  });

  it('no file outside core/orders writes an order row', () => {
    const files = trackedSources();
    expect(files.length).toBeGreaterThan(100);
    const offending = files
      .flatMap((file) => orderWritesIn(file, readFileSync(path.join(root, file), 'utf8')))
      .filter((write) => !(BULK_DATA_TOOLS.has(write.file) && write.kind !== 'update'))
      .map((write) => `${write.file}:${write.line} ${write.text}`);
    expect(offending).toEqual([]);
  });
});
