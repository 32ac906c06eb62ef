/**
 * The SQLite statement cache (db/sqlite-statements.ts) through Kysely, as the store uses it: a
 * reused statement still reads what was written after it was prepared, a text is compiled once,
 * a statement still being iterated is not handed out again, and the least recently used text is
 * dropped past the cache's size. SQLite only: PostgreSQL has no such cache.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { type Generated, Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.ts';
import { type CachingSqlite, cachingStatements } from '../../db/sqlite-statements.ts';

type Scratch = {
  note: { id: Generated<number>; body: string };
};

describe('SQLite prepared statements kept per SQL text', () => {
  let sqlite: CachingSqlite;
  let db: Kysely<Scratch>;
  const open = async (capacity?: number) => {
    sqlite = cachingStatements(new SQLite(':memory:'), capacity);
    db = new Kysely<Scratch>({ dialect: new SqliteDialect({ database: sqlite }) });
    await db.schema
      .createTable('note')
      .addColumn('id', 'integer', (column) => column.primaryKey())
      .addColumn('body', 'text', (column) => column.notNull())
      .execute();
  };
  const bodies = async () =>
    (await db.selectFrom('note').select('body').orderBy('id').execute()).map((row) => row.body);
  beforeEach(() => open());
  afterEach(() => db.destroy());

  it('returns rows written after the statement was prepared, and compiles each text once', async () => {
    expect(await bodies()).toEqual([]);
    const preparedAfterFirstRead = sqlite.prepared();
    await db.insertInto('note').values({ body: 'first' }).execute();
    expect(await bodies()).toEqual(['first']);
    await db.insertInto('note').values({ body: 'second' }).execute();
    await db.updateTable('note').set({ body: 'changed' }).where('body', '=', 'first').execute();
    expect(await bodies()).toEqual(['changed', 'second']);
    await db.deleteFrom('note').where('body', '=', 'second').execute();
    expect(await bodies()).toEqual(['changed']);
    // One new text each for the insert, the update and the delete; the select and the second insert reuse theirs.
    expect(sqlite.prepared()).toBe(preparedAfterFirstRead + 3);
  });

  it('binds each run its own parameters', async () => {
    await db
      .insertInto('note')
      .values([{ body: 'a' }, { body: 'b' }])
      .execute();
    const find = (body: string) => db.selectFrom('note').select('id').where('body', '=', body).executeTakeFirst();
    expect((await find('a'))?.id).toBe(1);
    expect((await find('b'))?.id).toBe(2);
    expect(await find('c')).toBeUndefined();
  });

  it('prepares a second statement while the cached one is still being iterated', async () => {
    await db
      .insertInto('note')
      .values([{ body: 'a' }, { body: 'b' }])
      .execute();
    const query = db.selectFrom('note').select('body').orderBy('id');
    await query.execute(); // caches the text
    const seen: string[] = [];
    for await (const row of query.stream()) {
      seen.push(row.body);
      // The same text again while the stream holds the cached statement: SQLite's single connection
      // is Kysely's, so run it on the raw database the way a second reader would.
      expect(sqlite.prepare(query.compile().sql).all([])).toEqual([{ body: 'a' }, { body: 'b' }]);
    }
    expect(seen).toEqual(['a', 'b']);
  });

  it('drops the least recently used text past its size', async () => {
    await db.destroy();
    await open(2);
    const one = sql`select 1 as n`;
    const two = sql`select 2 as n`;
    const three = sql`select 3 as n`;
    await one.execute(db);
    await two.execute(db);
    await one.execute(db); // `two` is now the least recently used
    await three.execute(db);
    expect(sqlite.held()).toBe(2);
    const before = sqlite.prepared();
    await one.execute(db);
    expect(sqlite.prepared()).toBe(before);
    await two.execute(db);
    expect(sqlite.prepared()).toBe(before + 1);
  });
});

describe("the store's SQLite database", () => {
  it('reads its own writes through kept statements, across a transaction', async () => {
    const handle = openDatabase({ sqlitePath: ':memory:' });
    try {
      const db = handle.db.withTables<Scratch>();
      await db.schema
        .createTable('note')
        .addColumn('id', 'integer', (column) => column.primaryKey())
        .addColumn('body', 'text', (column) => column.notNull())
        .execute();
      const count = async () =>
        (await db.selectFrom('note').select(db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n;
      expect(await count()).toBe(0);
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('note').values({ body: 'x' }).execute();
      });
      expect(await count()).toBe(1);
      await db
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('note').values({ body: 'y' }).execute();
          throw new Error('roll back');
        })
        .catch(() => undefined);
      expect(await count()).toBe(1);
    } finally {
      await handle.close();
    }
  });

  it('closes the file on close() even when it never ran a query', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'boostly-close-'));
    try {
      const handle = openDatabase({ sqlitePath: path.join(dir, 'store.db') });
      await handle.close();
      // Kysely never opened a connection, so it had nothing to close: the file must be shut anyway.
      await expect(sql`select 1`.execute(handle.db)).rejects.toThrow(/not open/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
