/**
 * Store settings (core/settings/store-info.ts, server/config.ts): the refund window the pages
 * promise agrees with the refund rule the code runs (the `order.refund` job, started by the
 * supplier status sync), and the contact defaults follow PUBLIC_URL.
 */
import { describe, expect, it } from 'vitest';
import { REFUND_JOB } from '../../core/fulfilment/jobs.ts';
import { DEFAULT_MAX_ATTEMPTS } from '../../core/jobs/job-definition.ts';
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS } from '../../core/jobs/retry.ts';
import {
  DEFAULT_REFUND_WINDOW_HOURS,
  defaultSupportEmail,
  refundIssuedWithinMs,
  shortestHonestRefundWindowHours,
} from '../../core/settings/store-info.ts';
import { ConfigError, loadConfig } from '../../server/config.ts';

const HOUR_MS = 3_600_000;

describe('the refund window', () => {
  it('defaults to the spec’s 48 hours', () => {
    expect(DEFAULT_REFUND_WINDOW_HOURS).toBe(48);
    expect(loadConfig({}).storeInfo.refundWindowHours).toBe(48);
  });

  it('covers the longest the refund job can take, even at the slowest sync and lease the configuration allows', () => {
    // The chain worked out by hand from the job queue's rules, independently of refundIssuedWithinMs.
    const attempts = REFUND_JOB.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    let backoffs = 0;
    for (let attempt = 1; attempt < attempts; attempt += 1) {
      backoffs += Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1) * 1.2);
    }
    const slowest = { supplierSyncMs: 86_400_000, jobLeaseMs: 3_600_000, refundJobMaxAttempts: REFUND_JOB.maxAttempts };
    expect(refundIssuedWithinMs(slowest)).toBeCloseTo(86_400_000 + backoffs + attempts * 3_600_000, -1);
    expect(refundIssuedWithinMs(slowest)).toBeLessThanOrEqual(DEFAULT_REFUND_WINDOW_HOURS * HOUR_MS);

    // Loading the slowest allowed configuration with the default window succeeds.
    expect(() => loadConfig({ SUPPLIER_SYNC_SECONDS: '86400', JOB_LEASE_SECONDS: '3600' })).not.toThrow();
  });

  it('with the default sync and lease, a refund is issued within the first hour', () => {
    expect(
      shortestHonestRefundWindowHours({
        supplierSyncMs: 60_000,
        jobLeaseMs: 60_000,
        refundJobMaxAttempts: REFUND_JOB.maxAttempts,
      }),
    ).toBe(1);
  });

  it('refuses a window shorter than the refund job can keep', () => {
    expect(() => loadConfig({ REFUND_WINDOW_HOURS: '2', SUPPLIER_SYNC_SECONDS: '7200' })).toThrow(ConfigError);
    expect(() => loadConfig({ REFUND_WINDOW_HOURS: '2', SUPPLIER_SYNC_SECONDS: '7200' })).toThrow(
      /REFUND_WINDOW_HOURS: the refund job may take up to 3 hours/,
    );
    expect(loadConfig({ REFUND_WINDOW_HOURS: '24' }).storeInfo.refundWindowHours).toBe(24);
    expect(() => loadConfig({ REFUND_WINDOW_HOURS: '0' })).toThrow(/REFUND_WINDOW_HOURS/);
    expect(() => loadConfig({ REFUND_WINDOW_HOURS: 'two days' })).toThrow(/REFUND_WINDOW_HOURS/);
  });
});

describe('support contacts', () => {
  it('default to support@ and PUBLIC_URL’s host, with no phone or office address', () => {
    expect(defaultSupportEmail('https://shop.example.com:8443/base')).toBe('support@shop.example.com');
    const { storeInfo } = loadConfig({ PUBLIC_URL: 'https://shop.example.com' });
    expect(storeInfo).toEqual({
      supportEmail: 'support@shop.example.com',
      supportPhone: null,
      officeAddress: null,
      refundWindowHours: 48,
      refillWindowDays: 30,
    });
  });

  it('take the configured values, trimmed, and refuse a malformed e-mail', () => {
    const { storeInfo } = loadConfig({
      SUPPORT_EMAIL: 'help@boostly.example',
      SUPPORT_PHONE: ' +1 555 0100 ',
      OFFICE_ADDRESS: '1 Main Street, Springfield',
    });
    expect(storeInfo).toMatchObject({
      supportEmail: 'help@boostly.example',
      supportPhone: '+1 555 0100',
      officeAddress: '1 Main Street, Springfield',
    });
    expect(() => loadConfig({ SUPPORT_EMAIL: 'not-an-address' })).toThrow(/SUPPORT_EMAIL/);
  });
});
