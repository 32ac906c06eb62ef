/**
 * Boot sequence shared by the server, the CLI and the tests: open the database, migrate it,
 * seed the catalogue when it is empty, and assemble the domain services and the outside world
 * they talk to (payment provider, target checks, mail). Background loops (jobs worker,
 * payment reconciler) start only when the server asks, so tests drive them by hand.
 */
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { StoreServices } from '../app/context.ts';
import { type Catalog, createCatalog } from '../core/catalog/catalog.ts';
import { flashSaleEnd } from '../core/catalog/flash-sale.ts';
import { type JobWorker, createJobWorker } from '../core/jobs/worker.ts';
import { type Mailer, createMailer } from '../core/mail/mailer.ts';
import { MAIL_JOB, createSendMailHandler } from '../core/mail/send-mail-job.ts';
import { type OrderService, createOrderService } from '../core/orders/orders.ts';
import type { PaymentProvider } from '../core/payments/provider.ts';
import { createRazorpayProvider } from '../core/payments/razorpay.ts';
import { createSandboxProvider, loadSandboxSecret } from '../core/payments/sandbox.ts';
import { type TargetVerifier, createTargetVerifier } from '../core/verification/verifier.ts';
import { type DatabaseHandle, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { catalogueSeed } from '../db/seed/catalogue-data.ts';
import type { Config } from './config.ts';

export interface Store {
  database: DatabaseHandle;
  catalog: Catalog;
  provider: PaymentProvider;
  verifier: TargetVerifier;
  orders: OrderService;
  mailer: Mailer;
  worker: JobWorker;
  services: StoreServices;
  /** Starts the jobs worker and the payment reconciler (the server does; tests do not). */
  startBackground(): void;
  close(): Promise<void>;
}

export interface StoreOverrides {
  /** Where background work logs (the server passes its pino logger; tests a silent one). */
  logger?: FastifyBaseLogger;
  /** The fetch used for target checks (tests point it at a fake oEmbed server). */
  verifier?: TargetVerifier;
}

/** How often unpaid orders are checked with the provider. */
const RECONCILE_EVERY_MS = 60_000;

export async function openStore(config: Config, database?: DatabaseHandle, overrides: StoreOverrides = {}): Promise<Store> {
  const handle = database ?? openDatabase({ url: config.DATABASE_URL, sqlitePath: config.sqlitePath });
  const { db } = handle;
  await migrateToLatest(db);
  const catalog = createCatalog(db);
  if (await catalog.isEmpty()) await catalog.replaceCatalogue(catalogueSeed);

  const provider: PaymentProvider =
    config.RAZORPAY_KEY_ID && config.RAZORPAY_KEY_SECRET
      ? createRazorpayProvider({
          keyId: config.RAZORPAY_KEY_ID,
          keySecret: config.RAZORPAY_KEY_SECRET,
          webhookSecret: config.RAZORPAY_WEBHOOK_SECRET,
          apiUrl: config.RAZORPAY_API_URL,
        })
      : createSandboxProvider(db, await loadSandboxSecret(db));
  const verifier = overrides.verifier ?? createTargetVerifier({ fetch: globalThis.fetch });
  const orders = createOrderService({
    db,
    catalog,
    provider,
    checkTarget: (kind, input) => verifier.verify(kind, input),
    publicUrl: config.PUBLIC_URL,
  });
  const logger = overrides.logger;
  const mailer = createMailer({ smtpUrl: config.SMTP_URL, dir: path.join(config.dataDir, 'mail'), from: config.MAIL_FROM, logger });
  const worker = createJobWorker({ db, handlers: { [MAIL_JOB]: createSendMailHandler(mailer) }, logger });

  const fixedEnd = config.FLASH_SALE_ENDS_AT ? Date.parse(config.FLASH_SALE_ENDS_AT) : null;
  const services: StoreServices = {
    catalog,
    flashSaleEndsAt: () => flashSaleEnd(Date.now(), fixedEnd),
  };

  let reconcileTimer: NodeJS.Timeout | undefined;
  return {
    database: handle,
    catalog,
    provider,
    verifier,
    orders,
    mailer,
    worker,
    services,
    startBackground() {
      worker.start();
      reconcileTimer = setInterval(() => {
        orders.reconcile().then(
          (result) => {
            if (result.paid || result.expired) logger?.info(result, 'payments reconciled');
          },
          (error: unknown) => logger?.error({ err: error }, 'payment reconciliation failed'),
        );
      }, RECONCILE_EVERY_MS);
      reconcileTimer.unref();
    },
    async close() {
      clearInterval(reconcileTimer);
      await worker.stop();
      await mailer.close();
      await handle.close();
    },
  };
}
