import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, environmentWithDotEnv, loadConfig } from '../../server/config.ts';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      PUBLIC_URL: 'http://localhost:3000',
      SUPPLIER_SYNC_SECONDS: 60,
      PAYMENT_RECONCILE_SECONDS: 60,
      DATABASE_POOL_SIZE: 10,
      JOB_POLL_MS: 1000,
      JOB_LEASE_SECONDS: 60,
    });
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
    [{ FLASH_SALE_ENDS_AT: '2026-12-31T23:59:59Z' }, 'FLASH_SALE_ENDS_AT'],
    [{ SALE_PERCENT: '20' }, 'SALE_STARTS_AT'],
    [
      { SALE_PERCENT: '95', SALE_STARTS_AT: '2026-12-01T00:00:00Z', SALE_ENDS_AT: '2026-12-02T00:00:00Z' },
      'SALE_PERCENT',
    ],
    [
      { SALE_PERCENT: '20', SALE_STARTS_AT: '2026-12-02T00:00:00Z', SALE_ENDS_AT: '2026-12-01T00:00:00Z' },
      'SALE_ENDS_AT',
    ],
    [{ SALE_PERCENT: '20', SALE_STARTS_AT: 'tomorrow', SALE_ENDS_AT: '2026-12-01T00:00:00Z' }, 'SALE_STARTS_AT'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ RAZORPAY_KEY_ID: 'rzp_test_x' }, 'RAZORPAY_KEY_SECRET'],
    [{ SMM_PANEL_URL: 'https://panel.example/api/v2' }, 'SMM_PANEL_KEY'],
    [{ TRUST_PROXY: 'yes please' }, 'TRUST_PROXY'],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE'],
    [{ JOB_POLL_MS: '10' }, 'JOB_POLL_MS'],
    // Shorter than the heartbeat that renews it every second: live jobs would be taken over.
    [{ JOB_LEASE_SECONDS: '1' }, 'JOB_LEASE_SECONDS'],
    [{ PAYMENT_RECONCILE_SECONDS: '0' }, 'PAYMENT_RECONCILE_SECONDS'],
  ])('rejects %j naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(variable));
  });
});

describe('payments fail closed (decision 014)', () => {
  const realPanel = { SMM_PANEL_URL: 'https://panel.example/api/v2', SMM_PANEL_KEY: 'panel-key' };
  const keys = { RAZORPAY_KEY_ID: 'rzp_live_x', RAZORPAY_KEY_SECRET: 'secret' };

  it('refuses simulated payments with a real supplier panel in every NODE_ENV unless SANDBOX_PAYMENTS=allow', () => {
    for (const NODE_ENV of ['production', 'development', 'test']) {
      expect(() => loadConfig({ NODE_ENV, ...realPanel })).toThrow(/^Refusing to start: .*SANDBOX_PAYMENTS=allow/);
    }
    expect(() => loadConfig({ ...realPanel, SANDBOX_PAYMENTS: 'true' })).toThrow(/SANDBOX_PAYMENTS/);
    expect(loadConfig({ ...realPanel, SANDBOX_PAYMENTS: 'allow' }).paymentsSimulated).toBe(true);
  });

  it('needs no opt-in for the keyless default (simulated panel) or with Razorpay keys', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).paymentsSimulated).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', ...realPanel, ...keys }).paymentsSimulated).toBe(false);
  });
});

describe('environmentWithDotEnv', () => {
  const withFile = (text: string) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'boostly-env-'));
    const file = path.join(dir, '.env');
    writeFileSync(file, text);
    return file;
  };

  it('reads .env values that the real environment does not set, so every entry point sees them', () => {
    const file = withFile('DATABASE_URL=postgres://from-file/db\nPORT=4000\n');
    const env = environmentWithDotEnv({ PORT: '5000' }, file);
    expect(env.DATABASE_URL).toBe('postgres://from-file/db');
    expect(env.PORT).toBe('5000'); // the real environment wins
    expect(loadConfig(env).DATABASE_URL).toBe('postgres://from-file/db');
  });

  it('is the real environment alone when there is no .env file', () => {
    const env = { PORT: '5000' };
    expect(environmentWithDotEnv(env, path.join(os.tmpdir(), 'no-such-dir', '.env'))).toBe(env);
  });
});
