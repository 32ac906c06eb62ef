import { describe, expect, it } from 'vitest';
import { selectDialects } from '../support/databases.ts';

describe('which dialects the integration suites run on', () => {
  it('is SQLite alone without a PostgreSQL URL, both with one', () => {
    expect(selectDialects(undefined, undefined)).toEqual(['sqlite']);
    expect(selectDialects('postgres://u:p@127.0.0.1/db', undefined)).toEqual(['sqlite', 'postgres']);
  });

  it('narrows to the dialects TEST_DIALECTS names', () => {
    expect(selectDialects('postgres://u:p@127.0.0.1/db', 'postgres')).toEqual(['postgres']);
    expect(selectDialects('postgres://u:p@127.0.0.1/db', ' sqlite ')).toEqual(['sqlite']);
    expect(selectDialects('postgres://u:p@127.0.0.1/db', 'postgres,sqlite')).toEqual(['sqlite', 'postgres']);
  });

  it('refuses a name it does not know, or PostgreSQL without a URL, instead of running nothing', () => {
    expect(() => selectDialects(undefined, 'mysql')).toThrow(/unknown dialect "mysql"/);
    expect(() => selectDialects(undefined, 'postgres')).toThrow(/TEST_DATABASE_URL is not set/);
  });
});
