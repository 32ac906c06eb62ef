/**
 * Configuration from the environment, checked once at boot. A bad value stops the server with
 * a message naming the variable (see `loadConfig`).
 */
import path from 'node:path';
import { z } from 'zod';

const optionalUrl = z.url().optional();

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
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** When the flash sale ends (ISO-8601). Unset: the sale runs to each next midnight UTC. */
  FLASH_SALE_ENDS_AT: z.iso.datetime({ offset: true }).optional(),
  /** Seconds a public page may be served from the in-process page cache; 0 turns it off. */
  PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  RAZORPAY_KEY_ID: z.string().optional(),
  RAZORPAY_KEY_SECRET: z.string().optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().optional(),
  RAZORPAY_API_URL: z.url().default('https://api.razorpay.com'),
  SMM_PANEL_URL: optionalUrl,
  SMM_PANEL_KEY: z.string().optional(),
  SUPPLIER_SYNC_SECONDS: z.coerce.number().int().min(5).max(86_400).default(60),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().default('Boostly <orders@boostly.local>'),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'must be a redis:// URL').optional(),
});

export type Env = z.infer<typeof EnvSchema>;

export interface Config extends Env {
  dataDir: string;
  sqlitePath: string;
  isProduction: boolean;
}

export class ConfigError extends Error {}

/** Empty strings count as unset, the way `.env` files and CI variables are usually written. */
function withoutEmpty(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => !!entry[1]));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(withoutEmpty(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  if (!!values.RAZORPAY_KEY_ID !== !!values.RAZORPAY_KEY_SECRET) {
    throw new ConfigError('Invalid configuration:\n  RAZORPAY_KEY_SECRET: RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET go together');
  }
  const dataDir = path.resolve(values.DATA_DIR);
  return {
    ...values,
    dataDir,
    sqlitePath: path.join(dataDir, 'store.db'),
    isProduction: values.NODE_ENV === 'production',
  };
}
