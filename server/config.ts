/**
 * Configuration from the environment, checked once at boot. A bad value stops the server with
 * a message naming the variable (see `loadConfig`).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { TOTP_KEY_HINT, parseTotpKey } from '../core/auth/totp.ts';
import { REFUND_JOB } from '../core/fulfilment/jobs.ts';
import { type SaleConfig, SaleConfigError, parseSaleEnv } from '../core/catalogue/sale.ts';
import {
  DEFAULT_REFUND_WINDOW_HOURS,
  REFILL_GUARANTEE_DAYS,
  type StoreInfo,
  defaultSupportEmail,
  shortestHonestRefundWindowHours,
} from '../core/settings/store-info.ts';
import { parseAllowedPrivateAddresses } from '../core/fulfilment/panel-address.ts';

const optionalUrl = z.url().optional();
const totpKey = z
  .string()
  .refine((value) => parseTotpKey(value) !== null, `must be 32 random bytes as base64 or hex: ${TOTP_KEY_HINT}`);

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url().default('http://localhost:3000'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave it unset for SQLite)')
    .optional(),
  /** PostgreSQL connections one instance may hold; instances × this must stay below max_connections. */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * Whether to believe X-Forwarded-For (client address for rate limits and logs): `false` (direct
   * traffic), `true` (any proxy), a hop count, or a comma-separated list of proxy addresses.
   */
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d+|[0-9a-fA-F.:/,\s]+)$/, 'must be true, false, a hop count or proxy addresses')
    .default('false')
    .transform((value): boolean | number | string =>
      value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value,
    ),
  /** Bearer token GET /metrics requires; unset, /metrics answers only loopback callers. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Seconds a public page may be served from the in-process page cache; 0 turns it off. */
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  RAZORPAY_KEY_ID: z.string().optional(),
  RAZORPAY_KEY_SECRET: z.string().optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().optional(),
  RAZORPAY_API_URL: z.url().default('https://api.razorpay.com'),
  /** Cryptomus (crypto): the merchant's uuid and payment API key (decision 055). */
  CRYPTOMUS_MERCHANT_ID: z.string().optional(),
  CRYPTOMUS_PAYMENT_KEY: z.string().optional(),
  CRYPTOMUS_API_URL: z.url().default('https://api.cryptomus.com'),
  /** Solidgate (cards, Apple Pay, Google Pay on its hosted page): API keys, and the webhook key pair. */
  SOLIDGATE_PUBLIC_KEY: z.string().optional(),
  SOLIDGATE_SECRET_KEY: z.string().optional(),
  SOLIDGATE_WEBHOOK_PUBLIC_KEY: z.string().optional(),
  SOLIDGATE_WEBHOOK_SECRET_KEY: z.string().optional(),
  SOLIDGATE_API_URL: z.url().default('https://pay.solidgate.com'),
  SOLIDGATE_PAYMENT_PAGE_URL: z.url().default('https://payment-page.solidgate.com'),
  /**
   * `allow`: take simulated (sandbox) payments even though a real supplier panel fulfils the
   * orders. Without Razorpay keys and with SMM_PANEL_URL set, the store refuses to start unless
   * this says so (decision 014): otherwise anyone could "pay" in the sandbox at the owner's cost.
   */
  SANDBOX_PAYMENTS: z.enum(['allow']).optional(),
  SMM_PANEL_URL: optionalUrl,
  SMM_PANEL_KEY: z.string().optional(),
  SUPPLIER_SYNC_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** How often unpaid orders are checked with the payment provider (the recurring reconcile job). */
  PAYMENT_RECONCILE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** The jobs worker's idle poll interval. */
  JOB_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
  /**
   * How long a claimed job stays with its worker before another instance may take it over (a
   * crashed instance's work waits this long). At least 3: a live handler renews it every second.
   */
  JOB_LEASE_SECONDS: z.coerce.number().int().min(3).max(3600).default(60),
  /** The simulated panel: seconds from order to full delivery, and the share ending Partial/Canceled. */
  SIMULATED_PANEL_DELIVERY_SECONDS: z.coerce.number().int().min(1).max(604_800).default(120),
  SIMULATED_PANEL_FAILURE_RATE: z.coerce.number().min(0).max(1).default(0.1),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Boostly <orders@boostly.local>'),
  /** Store settings quoted by the contact, FAQ and legal pages (core/settings/store-info.ts). Default: support@ + PUBLIC_URL's host. */
  SUPPORT_EMAIL: z.email().optional(),
  /** Unset: no phone number is shown anywhere. */
  SUPPORT_PHONE: z.string().trim().min(3).max(40).optional(),
  /** Unset: no office address is shown anywhere. */
  OFFICE_ADDRESS: z.string().trim().min(3).max(300).optional(),
  /** Hours within which an undelivered order is refunded; never less than the refund job can keep. */
  REFUND_WINDOW_HOURS: z.coerce.number().int().min(1).max(720).default(DEFAULT_REFUND_WINDOW_HOURS),
  /** Days after completion within which a customer can request a refill from /client (decision 040). */
  REFILL_WINDOW_DAYS: z.coerce.number().int().min(1).max(365).default(REFILL_GUARANTEE_DAYS),
  /** Largest image the admin may upload (blog images), in bytes; larger ones answer 413. */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024)
    .max(50 * 1024 * 1024)
    .default(5 * 1024 * 1024),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  /**
   * Encrypts the admins' authenticator-app (TOTP) secrets (decision 022). Unset in production:
   * TOTP enrolment is refused, and the store does not start while an admin uses TOTP.
   */
  TOTP_ENCRYPTION_KEY: totpKey.optional(),
  /** The key before a rotation: still decrypts, and secrets under it are re-encrypted at boot. */
  TOTP_ENCRYPTION_KEY_PREVIOUS: totpKey.optional(),
  /**
   * Encrypts the API keys of supplier panels added on /admin/suppliers (decision 045; same format
   * as TOTP_ENCRYPTION_KEY). Unset: only the environment panel (SMM_PANEL_URL) is used.
   */
  SUPPLIER_KEY_ENCRYPTION_KEY: totpKey.optional(),
  /** The key before a rotation: still opens, and panel keys under it are re-sealed at boot. */
  SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS: totpKey.optional(),
  /**
   * Private addresses a panel added on /admin/suppliers may use (a panel on the operator's own
   * network): comma-separated addresses or networks, e.g. "10.0.0.0/8, 192.168.1.5". Unset:
   * stored panels are reached only over https at public addresses.
   */
  SUPPLIER_PANEL_ALLOW_PRIVATE: z
    .string()
    .optional()
    // Parsed once here: a bad entry stops the start with its reason, the store gets the list.
    .transform((value, context) => {
      const parsed = value ? parseAllowedPrivateAddresses(value) : null;
      if (typeof parsed !== 'string') return parsed;
      context.addIssue({ code: 'custom', message: parsed });
      return z.NEVER;
    }),
  /** How often panels with a low-balance threshold are asked for their balance (decision 045). */
  LOW_BALANCE_CHECK_SECONDS: z.coerce.number().int().min(60).max(86_400).default(900),
});

type Env = z.infer<typeof EnvSchema>;

export interface Config extends Env {
  dataDir: string;
  sqlitePath: string;
  isProduction: boolean;
  /** No provider's keys at all: payments go through the sandbox and every page says so (decisions 014, 055). */
  paymentsSimulated: boolean;
  /** Support contacts and the refund window, as the pages quote them. */
  storeInfo: StoreInfo;
  /** The configured sale from SALE_* (decision 031), or null: no banner, list prices. */
  sale: SaleConfig | null;
}

export class ConfigError extends Error {}

/** Empty strings count as unset, the way `.env` files and CI variables are usually written. */
function withoutEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => !!entry[1]));
}

/** The project root, where `.env` lives: every entry point (server, CLIs, scripts) reads the same file. */
const projectRoot = path.resolve(import.meta.dirname, '..');

/**
 * The process environment over the project's `.env` file (see .env.example): real environment
 * variables win. Nothing is written to `process.env`, so what a command sees is exactly what it
 * passes to `loadConfig`.
 */
export function environmentWithDotEnv(
  env: NodeJS.ProcessEnv = process.env,
  envFile = path.join(projectRoot, '.env'),
): NodeJS.ProcessEnv {
  if (!existsSync(envFile)) return env;
  return { ...parseEnv(readFileSync(envFile, 'utf8')), ...env };
}

export function loadConfig(env: NodeJS.ProcessEnv = environmentWithDotEnv()): Config {
  const parsed = EnvSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  if (!!values.RAZORPAY_KEY_ID !== !!values.RAZORPAY_KEY_SECRET) {
    throw new ConfigError(
      'Invalid configuration:\n  RAZORPAY_KEY_SECRET: RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET go together',
    );
  }
  // A provider half configured would take orders it cannot charge or confirm: refuse to start.
  const pairs: [string, string | undefined][][] = [
    [
      ['CRYPTOMUS_MERCHANT_ID', values.CRYPTOMUS_MERCHANT_ID],
      ['CRYPTOMUS_PAYMENT_KEY', values.CRYPTOMUS_PAYMENT_KEY],
    ],
    [
      ['SOLIDGATE_PUBLIC_KEY', values.SOLIDGATE_PUBLIC_KEY],
      ['SOLIDGATE_SECRET_KEY', values.SOLIDGATE_SECRET_KEY],
      ['SOLIDGATE_WEBHOOK_PUBLIC_KEY', values.SOLIDGATE_WEBHOOK_PUBLIC_KEY],
      ['SOLIDGATE_WEBHOOK_SECRET_KEY', values.SOLIDGATE_WEBHOOK_SECRET_KEY],
    ],
  ];
  for (const group of pairs) {
    const missing = group.filter(([, value]) => !value).map(([name]) => name);
    if (missing.length > 0 && missing.length < group.length) {
      throw new ConfigError(
        `Invalid configuration:\n  ${missing[0]}: ${group.map(([name]) => name).join(', ')} go together`,
      );
    }
  }
  if (!!values.SMM_PANEL_URL !== !!values.SMM_PANEL_KEY) {
    throw new ConfigError('Invalid configuration:\n  SMM_PANEL_KEY: SMM_PANEL_URL and SMM_PANEL_KEY go together');
  }
  if (values.TOTP_ENCRYPTION_KEY_PREVIOUS && !values.TOTP_ENCRYPTION_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  TOTP_ENCRYPTION_KEY: TOTP_ENCRYPTION_KEY_PREVIOUS is only read next to a (new) TOTP_ENCRYPTION_KEY',
    );
  }
  if (values.SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS && !values.SUPPLIER_KEY_ENCRYPTION_KEY) {
    throw new ConfigError(
      'Invalid configuration:\n  SUPPLIER_KEY_ENCRYPTION_KEY: SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS is only read next to a (new) SUPPLIER_KEY_ENCRYPTION_KEY',
    );
  }
  const paymentsSimulated = !values.RAZORPAY_KEY_ID && !values.CRYPTOMUS_MERCHANT_ID && !values.SOLIDGATE_PUBLIC_KEY;
  // Fail closed (decision 014): simulated payments and a real supplier means anyone gets real
  // orders delivered for free, whatever NODE_ENV says. The simulated panel costs nothing, so the
  // keyless default (sandbox + simulated panel) needs no opt-in.
  if (paymentsSimulated && values.SMM_PANEL_URL && values.SANDBOX_PAYMENTS !== 'allow') {
    throw new ConfigError(
      "Refusing to start: SMM_PANEL_URL sends orders to a real supplier, but without the keys of a payment provider (RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET, CRYPTOMUS_MERCHANT_ID and CRYPTOMUS_PAYMENT_KEY, or the SOLIDGATE_* keys) payments are only simulated. Set a provider's keys, or SANDBOX_PAYMENTS=allow to accept simulated payments on purpose.",
    );
  }
  const refundHoursNeeded = shortestHonestRefundWindowHours({
    supplierSyncMs: values.SUPPLIER_SYNC_SECONDS * 1000,
    jobLeaseMs: values.JOB_LEASE_SECONDS * 1000,
    refundJobMaxAttempts: REFUND_JOB.maxAttempts,
  });
  if (values.REFUND_WINDOW_HOURS < refundHoursNeeded) {
    throw new ConfigError(
      `Invalid configuration:\n  REFUND_WINDOW_HOURS: the refund job may take up to ${refundHoursNeeded} hours with SUPPLIER_SYNC_SECONDS and JOB_LEASE_SECONDS as set; promise at least that`,
    );
  }
  let sale: SaleConfig | null;
  try {
    sale = parseSaleEnv(withoutEmpty(env));
  } catch (error) {
    if (error instanceof SaleConfigError) throw new ConfigError(`Invalid configuration:\n  ${error.message}`);
    throw error;
  }
  const dataDir = path.resolve(values.DATA_DIR);
  return {
    ...values,
    dataDir,
    sqlitePath: path.join(dataDir, 'store.db'),
    isProduction: values.NODE_ENV === 'production',
    paymentsSimulated,
    storeInfo: {
      supportEmail: values.SUPPORT_EMAIL ?? defaultSupportEmail(values.PUBLIC_URL),
      supportPhone: values.SUPPORT_PHONE ?? null,
      officeAddress: values.OFFICE_ADDRESS ?? null,
      refundWindowHours: values.REFUND_WINDOW_HOURS,
      refillWindowDays: values.REFILL_WINDOW_DAYS,
    },
    sale,
  };
}
