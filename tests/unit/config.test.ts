import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.ts';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, HOST: '127.0.0.1', PUBLIC_URL: 'http://localhost:3000', SUPPLIER_SYNC_SECONDS: 60 });
    expect(config.sqlitePath).toBe(path.resolve('./data/store.db'));
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('trusts no proxy unless told to', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.2' }).TRUST_PROXY).toBe('10.0.0.1, 10.0.0.2');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).PORT).toBe(3000);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ FLASH_SALE_ENDS_AT: 'tomorrow' }, 'FLASH_SALE_ENDS_AT'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ RAZORPAY_KEY_ID: 'rzp_test_x' }, 'RAZORPAY_KEY_SECRET'],
    [{ SMM_PANEL_URL: 'https://panel.example/api/v2' }, 'SMM_PANEL_KEY'],
    [{ TRUST_PROXY: 'yes please' }, 'TRUST_PROXY'],
  ])('rejects %j naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(variable));
  });
});
