/**
 * Boot sequence shared by the server, the CLI and the tests: open the database, migrate it,
 * seed the catalogue when it is empty, and assemble the domain services and the outside world
 * they talk to (payment provider, target checks, mail). The jobs worker (which also runs the
 * recurring jobs: status sync, payment reconciliation, purge) starts only when the server asks,
 * so tests drive it by hand.
 */
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { StoreServices } from '../app/context.ts';
import { type Blog, createBlog } from '../core/blog/blog.ts';
import { readContentVersion } from '../core/content-version.ts';
import { type Catalogue, createCatalogue } from '../core/catalogue/catalogue.ts';
import { storeUploadedImage } from '../core/uploads/images.ts';
import { saleBanner, unknownSaleServices } from '../core/catalogue/sale.ts';
import { createPaidRecentlyCounter } from '../core/orders/paid-recently.ts';
import type { FulfilmentDeps } from '../core/fulfilment/deps.ts';
import { type Fulfilment, createFulfilment } from '../core/fulfilment/fulfilment.ts';
import { fulfilmentJobHandlers } from '../core/fulfilment/job-handlers.ts';
import { LOW_BALANCE_JOB, REFILL_SYNC_JOB, SUPPLIER_SYNC_JOB } from '../core/fulfilment/jobs.ts';
import { type Refills, bindRefills, refillsDepsFrom } from '../core/fulfilment/refills.ts';
import { type SubscriptionCancels, bindSubscriptionCancels } from '../core/fulfilment/subscription-cancel.ts';
import { createPanelKeySealer, resealPanelKeys } from '../core/fulfilment/panel-keys.ts';
import { type PanelRegistry, createPanelRegistry } from '../core/fulfilment/panels.ts';
import { ENVIRONMENT_PANEL_ID } from '../core/fulfilment/supplier-catalogue.ts';
import { type SupplierAdmin, createSupplierAdmin } from '../core/fulfilment/panels-admin.ts';
import { fulfilmentSubscriber } from '../core/fulfilment/subscribers.ts';
import { SUBSCRIPTIONS_TYPE } from '../core/fulfilment/simulated-panel-protocol.ts';
import {
  type SimulatedPanel,
  type SimulatedPanelService,
  createSimulatedPanel,
  simulatedPanelFetch,
} from '../core/fulfilment/simulated-panel.ts';
import { createSmmPanelClient } from '../core/fulfilment/smm-panel-client.ts';
import type { SupplierPanel } from '../core/fulfilment/supplier.ts';
import { type JobWorker, createJobWorker, handleJob } from '../core/jobs/worker.ts';
import { countedMailer } from '../core/mail/counted-mailer.ts';
import { type Mailer, createMailer } from '../core/mail/mailer.ts';
import { createSendMailHandler } from '../core/mail/send-mail-job.ts';
import { orderMailsSubscriber } from '../core/notifications/order-mails.ts';
import { createRefundLinks } from '../core/orders/refund-links.ts';
import { handleOrderEvents } from '../core/orders/events.ts';
import { handleLatePaymentRefund, latePaymentSubscriber } from '../core/orders/late-payment.ts';
import { type OrderService, createOrderService } from '../core/orders/orders.ts';
import { PAYMENT_RECONCILE_JOB } from '../core/orders/reconcile.ts';
import { type OrderHistory, createOrderHistory } from '../core/orders/history.ts';
import { issueRefillToken } from '../core/fulfilment/refills/tokens.ts';
import { type ContactDesk, createContactDesk } from '../core/contact/contact.ts';
import { type Reviews, createReviews } from '../core/reviews/reviews.ts';
import { lookUpOrderForm } from '../core/orders/form-detail.ts';
import { checkoutMethods } from '../core/orders/order-deps.ts';
import { paymentGatewaysFrom } from './payment-gateways.ts';
import { createOneTimeCodes, loadCodePepper } from '../core/auth/one-time-codes.ts';
import { type AdminAuth, createAdminAuth } from '../core/auth/admins.ts';
import { prepareTotpKeys, totpKeySource } from '../core/auth/totp-keys.ts';
import { type OrdersConsole, createOrdersConsole } from '../core/admin/orders-console.ts';
import {
  RENEWAL_REMINDER_EVERY_MS,
  RENEWAL_REMINDER_JOB,
  type Renewals,
  createRenewals,
  renewalSubscriber,
} from '../core/renewals/renewals.ts';
import type { PaymentGateways } from '../core/payments/methods.ts';
import { PURGE_EVERY_MS, RETENTION_PURGE_JOB, purgeExpiredData } from '../core/retention/purge.ts';
import { UPLOADS_CLEANUP_EVERY_MS, UPLOADS_CLEANUP_JOB, deleteUnreferencedUploads } from '../core/uploads/cleanup.ts';
import { loadInstallSecret } from '../core/settings/install-secret.ts';
import { type TargetVerifier, createTargetVerifier } from '../core/verification/verifier.ts';
import { type DatabaseHandle, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { catalogueSeed } from '../core/catalogue/seed/catalogue-seed.ts';
import { blogSeed } from '../core/blog/blog-seed.ts';
import { SIMULATED_PANEL_PATH } from './api/simulated-panel.ts';
import type { Config } from './config.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { formatAmountE4 } from '../core/money/money.ts';
import { type Clock, systemClock } from '../core/clock.ts';
import { type AppMetrics, createAppMetrics } from './metrics.ts';

/** Jobs one worker claims per round, and how many of them run at once (core/jobs/worker.ts). */
const JOB_BATCH = 32;
const JOB_CONCURRENCY = 32;

export interface Store {
  database: DatabaseHandle;
  /** The environment panel (panel 1): SMM_PANEL_URL's, or the built-in simulated panel. */
  supplier: SupplierPanel;
  /** Every supplier panel by id; orders use their own (decision 045). */
  panels: PanelRegistry;
  /** The owner's panels: add, edit, remove, import services, balances, low-balance alerts. */
  suppliers: SupplierAdmin;
  /** The built-in panel when no SMM_PANEL_URL is set (also served over HTTP). */
  simulatedPanel: SimulatedPanel | null;
  fulfilment: Fulfilment;
  /** Customer and admin refills, admin supplier cancels (decision 040). */
  refills: Refills;
  /** Cancelling a running subscription, by the customer or the store (decision 057). */
  subscriptionCancels: SubscriptionCancels;
  catalogue: Catalogue;
  /** Blog posts, categories, search and the blog's content version (core/blog/blog.ts). */
  blog: Blog;
  gateways: PaymentGateways;
  verifier: TargetVerifier;
  orders: OrderService;
  /** The customer's order history behind an e-mailed one-time code. */
  history: OrderHistory;
  /** Messages from the contact form: stored, mailed to support, acknowledged (core/contact). */
  contact: ContactDesk;
  /** Customers' reviews: invitations, submit, moderation, what public pages show (core/reviews). */
  reviews: Reviews;
  /** Admin accounts, login and bearer tokens (`requireAdmin(store.adminAuth.authenticate)`). */
  adminAuth: AdminAuth;
  /** The admin all-orders console: list, search, detail, reorder, apply-service, CSV. */
  ordersConsole: OrdersConsole;
  /** Subscriptions' renewal reminders, renewal links and the reminders switch (core/renewals/renewals.ts). */
  renewals: Renewals;
  mailer: Mailer;
  worker: JobWorker;
  /** This instance's Prometheus registry and the recorder its services report to (server/metrics.ts). */
  metrics: AppMetrics;
  services: StoreServices;
  /** Starts the jobs worker, which also runs the recurring jobs (the server does; most tests do not). */
  startBackground(): void;
  close(): Promise<void>;
}

export interface StoreOverrides {
  /** Where background work logs (the server passes its pino logger; tests a silent one). */
  logger?: FastifyBaseLogger;
  /** The fetch used for target checks (tests point it at a fake oEmbed server). */
  verifier?: TargetVerifier;
  /** The one clock every service reads (tests move it past lockouts, expiries and leases). */
  clock?: Clock;
}

export async function openStore(
  config: Config,
  database?: DatabaseHandle,
  overrides: StoreOverrides = {},
): Promise<Store> {
  const handle =
    database ??
    openDatabase({
      url: config.DATABASE_URL,
      sqlitePath: config.sqlitePath,
      poolSize: config.DATABASE_POOL_SIZE,
    });
  const { db } = handle;
  const metrics = createAppMetrics(handle);
  const clock = overrides.clock ?? systemClock;
  await migrateToLatest(db);
  // Decision 022: refuses to start (TotpKeyError) when admins' TOTP secrets cannot be read, and
  // moves secrets under an older key to TOTP_ENCRYPTION_KEY.
  const totpKeys = totpKeySource({
    key: config.TOTP_ENCRYPTION_KEY,
    previous: config.TOTP_ENCRYPTION_KEY_PREVIOUS,
    production: config.isProduction,
  });
  const totpReport = await prepareTotpKeys(db, totpKeys);
  if (totpReport.warning) overrides.logger?.warn(totpReport.warning);
  if (totpReport.reencrypted || totpReport.databaseKeyDeleted)
    overrides.logger?.info(totpReport, 'TOTP secrets moved to TOTP_ENCRYPTION_KEY');
  const catalogue = createCatalogue(db, { sale: config.sale, clock });
  await catalogue.seedIfEmpty(catalogueSeed);
  // Decision 031: a sale naming a service the catalogue lacks is a typo; refuse to start.
  const unknownSale = unknownSaleServices(config.sale, await catalogue.serviceSlugs());
  if (unknownSale.length > 0)
    throw new Error(`Invalid configuration:\n  SALE_SERVICES: no such service: ${unknownSale.join(', ')}`);
  const blog = createBlog({
    db,
    clock,
    publicUrl: config.PUBLIC_URL,
    images: (bytes) => storeUploadedImage(config.dataDir, bytes, { maxBytes: config.UPLOAD_MAX_BYTES }),
  });
  // Once per database, not whenever the blog is empty: posts the admin deleted stay deleted.
  await blog.seedOnce(blogSeed);

  const gateways = await paymentGatewaysFrom(config, db);
  const verifier = overrides.verifier ?? createTargetVerifier({ fetch: globalThis.fetch });
  const orders = createOrderService({
    db,
    catalogue,
    gateways,
    checkTarget: (kind, input) => verifier.verify(kind, input),
    publicUrl: config.PUBLIC_URL,
    now: clock,
    metrics: metrics.recorder,
  });
  // One codes service for every purpose ('order-history', 'admin-login').
  const codes = createOneTimeCodes({ db, pepper: await loadCodePepper(db), now: clock });
  const history = createOrderHistory({
    db,
    codes,
    publicUrl: config.PUBLIC_URL,
    // The /client order list carries each Completed order's refill section (created below).
    refills: { customerViews: (email, ids) => refills.customerViews(email, ids) },
    // A subscription's cancel and reminder buttons in /client send the refill token (decision 057).
    subscriptionToken: (id, email) => issueRefillToken(refillsDeps.tokenKey, clock().getTime(), id, email),
    now: clock,
  });
  const reviews = createReviews({ db, now: clock });
  // Page cache keys carry the content versions: read them once now, so the first pages cached
  // after a boot are not keyed under a version the database has already passed.
  await Promise.all([blog.contentVersion(), reviews.contentVersion()]);
  const contact = createContactDesk({
    db,
    publicUrl: config.PUBLIC_URL,
    supportEmail: config.storeInfo.supportEmail,
    now: clock,
  });
  const adminAuth = createAdminAuth({ db, codes, publicUrl: config.PUBLIC_URL, now: clock, totpKeys });
  const logger = overrides.logger;

  let simulatedPanel: SimulatedPanel | null = null;
  let supplier: SupplierPanel;
  const countEnvironmentPanelCall = (failed: boolean) =>
    metrics.recorder.recordSupplierCall(String(ENVIRONMENT_PANEL_ID), failed);
  if (config.SMM_PANEL_URL && config.SMM_PANEL_KEY) {
    supplier = createSmmPanelClient({
      url: config.SMM_PANEL_URL,
      key: config.SMM_PANEL_KEY,
      onCall: countEnvironmentPanelCall,
    });
  } else {
    const key = await loadInstallSecret(db, 'simulated-panel.key');
    // The simulated panel offers what the catalogue sells, as it stands: a service the owner maps
    // in the editor is on offer from the next request on (one version read per request).
    let offered = { version: await readContentVersion(db, 'catalogue_content'), services: await simulatedServices(db) };
    const followCatalogue = async () => {
      const version = await readContentVersion(db, 'catalogue_content');
      if (version !== offered.version) offered = { version, services: await simulatedServices(db) };
    };
    const panel = createSimulatedPanel({
      db,
      now: clock,
      key,
      deliverySeconds: config.SIMULATED_PANEL_DELIVERY_SECONDS,
      failureRate: config.SIMULATED_PANEL_FAILURE_RATE,
      services: () => offered.services,
    });
    simulatedPanel = {
      async handle(form) {
        await followCatalogue();
        return panel.handle(form);
      },
    };
    // The store talks to its own simulated panel through the same client and wire format as to a
    // real one, only without a network hop.
    supplier = createSmmPanelClient({
      url: `http://simulated-panel.internal${SIMULATED_PANEL_PATH}`,
      key,
      fetch: simulatedPanelFetch(simulatedPanel),
      onCall: countEnvironmentPanelCall,
    });
  }
  const panelKeys = createPanelKeySealer(
    config.SUPPLIER_KEY_ENCRYPTION_KEY,
    config.SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS,
  );
  // Decision 045: panel keys under SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS move to the current key;
  // the report carries counts and panel ids, never a key.
  const panelKeyReport = await resealPanelKeys(db, panelKeys);
  if (panelKeyReport.resealed > 0)
    logger?.info(panelKeyReport, 'supplier panel keys moved to SUPPLIER_KEY_ENCRYPTION_KEY');
  if (panelKeyReport.unreadable.length > 0)
    logger?.warn(
      panelKeyReport,
      'supplier panel keys that neither SUPPLIER_KEY_ENCRYPTION_KEY nor SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS opens: enter them again on /admin/suppliers',
    );
  const panels = createPanelRegistry({
    db,
    environment: supplier,
    sealer: panelKeys,
    addressPolicy: { allowedPrivate: config.SUPPLIER_PANEL_ALLOW_PRIVATE },
    onPanelCall: (panelId, failed) => metrics.recorder.recordSupplierCall(String(panelId), failed),
  });
  const suppliers = createSupplierAdmin({
    db,
    panels,
    sealer: panelKeys,
    environmentSource: simulatedPanel ? 'simulated' : 'url',
    publicUrl: config.PUBLIC_URL,
    now: clock,
    // The reason goes to the log (the client's errors never carry the key); pages get a sentence.
    onBalanceError: (panelId, error) => logger?.warn({ err: error, panelId }, 'supplier balance request failed'),
  });
  const fulfilmentDeps: FulfilmentDeps = { db, panels, gateways, now: clock };
  const fulfilment = createFulfilment(fulfilmentDeps);
  // The /client per-order proof: refills and the subscription reminders' switch check it.
  const customerTokenKey = await loadInstallSecret(db, 'refill-token.key');
  const refillsDeps = refillsDepsFrom({
    db,
    panels,
    tokenKey: customerTokenKey,
    windowDays: config.REFILL_WINDOW_DAYS,
    now: clock,
  });
  const refills = bindRefills(refillsDeps);
  const subscriptionCancels = bindSubscriptionCancels({ ...fulfilmentDeps, tokenKey: refillsDeps.tokenKey });
  const ordersConsole = createOrdersConsole({
    db,
    now: clock,
    gateways,
    configuredProviders: gateways.providers.map((provider) => provider.id),
  });
  const renewals = createRenewals({
    db,
    catalogue,
    publicUrl: config.PUBLIC_URL,
    tokenKey: customerTokenKey,
    now: clock,
  });
  const mailer = countedMailer(
    createMailer({ smtpUrl: config.SMTP_URL, dir: path.join(config.dataDir, 'mail'), from: config.MAIL_FROM, logger }),
    metrics.recorder,
  );
  // Periodic work is recurring jobs, one run per slot across every instance (core/jobs/recurring.ts).
  const recurring = [
    { job: PAYMENT_RECONCILE_JOB, everyMs: config.PAYMENT_RECONCILE_SECONDS * 1000 },
    { job: SUPPLIER_SYNC_JOB, everyMs: config.SUPPLIER_SYNC_SECONDS * 1000 },
    { job: REFILL_SYNC_JOB, everyMs: config.SUPPLIER_SYNC_SECONDS * 1000 },
    { job: LOW_BALANCE_JOB, everyMs: config.LOW_BALANCE_CHECK_SECONDS * 1000 },
    { job: RETENTION_PURGE_JOB, everyMs: PURGE_EVERY_MS },
    { job: UPLOADS_CLEANUP_JOB, everyMs: UPLOADS_CLEANUP_EVERY_MS },
    { job: RENEWAL_REMINDER_JOB, everyMs: RENEWAL_REMINDER_EVERY_MS },
  ];
  // Who hears about order events (core/orders/events.ts): payment and fulfilment only announce.
  const orderEventSubscribers = [
    orderMailsSubscriber({ publicUrl: config.PUBLIC_URL, now: clock }),
    fulfilmentSubscriber,
    renewalSubscriber,
    latePaymentSubscriber,
  ];
  const worker = createJobWorker({
    db,
    now: clock,
    metrics: metrics.recorder,
    handlers: [
      createSendMailHandler(mailer, { db, publicUrl: config.PUBLIC_URL, now: clock }),
      handleOrderEvents(db, orderEventSubscribers),
      handleLatePaymentRefund({ db, gateways, now: clock }),
      ...fulfilmentJobHandlers(fulfilmentDeps, refillsDeps, logger),
      handleJob(PAYMENT_RECONCILE_JOB, async () => {
        const { flagged, ...counts } = await orders.reconcile();
        if (counts.paid || counts.expired) logger?.info(counts, 'payments reconciled');
        if (counts.errors)
          logger?.warn(counts, 'payment reconciler: the provider could not be asked about some orders');
        for (const mismatch of flagged)
          logger?.warn(mismatch, 'captured payment does not match its order: flagged for review');
      }),
      handleJob(LOW_BALANCE_JOB, async () => {
        const result = await suppliers.checkLowBalances();
        if (result.alerted || result.rearmed || result.failed) logger?.info(result, 'supplier balances checked');
      }),
      handleJob(RENEWAL_REMINDER_JOB, async () => {
        const { sent } = await renewals.sendReminders();
        if (sent) logger?.info({ sent }, 'subscriptions: renewal reminders queued');
      }),
      handleJob(UPLOADS_CLEANUP_JOB, async () => {
        const result = await deleteUnreferencedUploads(db, config.dataDir, clock());
        if (result.deletedFiles) logger?.info(result, 'uploads: deleted images no blog post uses');
      }),
      handleJob(RETENTION_PURGE_JOB, async () => {
        const counts = await purgeExpiredData(
          db,
          clock(),
          recurring.map(({ job }) => job.kind),
        );
        logger?.info(counts, 'data retention: purged records older than 2 years');
      }),
    ],
    recurring,
    pollMs: config.JOB_POLL_MS,
    leaseMs: config.JOB_LEASE_SECONDS * 1000,
    // Jobs spend most of their time waiting (a PostgreSQL round trip per statement, the panel,
    // SMTP, a busy event loop): 32 in flight keep the worker level with what one instance accepts
    // at checkout (npm run bench:jobs).
    batch: JOB_BATCH,
    // On PostgreSQL a job may hold a pooled connection in its transaction while it asks the pool
    // for another: with more jobs in flight than connections they could all wait on each other
    // for good. Two connections stay free for requests.
    concurrency:
      handle.dialect === 'postgres'
        ? Math.max(1, Math.min(JOB_CONCURRENCY, config.DATABASE_POOL_SIZE - 2))
        : JOB_CONCURRENCY,
    logger,
  });

  const services: StoreServices = {
    catalogue,
    blog,
    saleBanner: (groups) => saleBanner(config.sale, clock().getTime(), groups),
    ordersPaidRecently: createPaidRecentlyCounter(db, clock),
    orderForm: (params) => lookUpOrderForm(catalogue, params, () => checkoutMethods({ db, gateways })),
    orderStatus: (orderId) => orders.status(orderId),
    paymentsSimulated: gateways.testMode,
    publicUrl: config.PUBLIC_URL.replace(/\/+$/, ''),
    storeInfo: config.storeInfo,
    reviews,
    refundLinks: createRefundLinks({ db, gateways, now: clock }),
    renewals,
  };

  return {
    database: handle,
    supplier,
    panels,
    suppliers,
    simulatedPanel,
    fulfilment,
    refills,
    subscriptionCancels,
    catalogue,
    blog,
    gateways,
    verifier,
    orders,
    history,
    contact,
    reviews,
    adminAuth,
    ordersConsole,
    renewals,
    mailer,
    worker,
    metrics,
    services,
    startBackground() {
      worker.start();
    },
    async close() {
      await worker.stop();
      await mailer.close();
      await handle.close();
    },
  };
}

/**
 * The simulated panel offers one service per supplier service id the catalogue uses, priced at
 * a wholesale rate (a third of our per-1000 price), so its charges look like a real panel's. A
 * subscription's tier is priced per period: its units are per post (automatic likes, served by a
 * Subscriptions service) or per day (daily followers, by drip-feed), hence the division.
 */
async function simulatedServices(db: Kysely<Database>) {
  const rows = await db
    .selectFrom('price_tiers')
    .innerJoin('plans', 'plans.id', 'price_tiers.plan_id')
    .innerJoin('services', 'services.id', 'plans.service_id')
    .select([
      'price_tiers.supplier_service_id as id',
      'price_tiers.price_e4',
      'price_tiers.qty',
      'services.name',
      'services.kind',
      'services.period_days',
      'services.posts_per_period',
      'plans.type',
    ])
    .execute();
  const byId = new Map<string, SimulatedPanelService>();
  for (const row of rows) {
    if (byId.has(row.id)) continue;
    const periods =
      row.kind === 'automatic_likes'
        ? (row.posts_per_period ?? 1)
        : row.kind === 'daily_followers'
          ? (row.period_days ?? 1)
          : 1;
    const ratePer1000E4 = Math.max(1, Math.round((row.price_e4 * 1000) / row.qty / Math.max(1, periods) / 3));
    byId.set(row.id, {
      service: row.id,
      name: `${row.name} (${row.type})`,
      rate: formatAmountE4(ratePer1000E4, 4),
      ...(row.kind === 'automatic_likes' ? { type: SUBSCRIPTIONS_TYPE, refill: false } : {}),
      ...(row.kind === 'daily_followers' ? { dripfeed: true } : {}),
    });
  }
  return [...byId.values()];
}
