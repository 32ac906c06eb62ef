import { type Migration, type MigrationProvider, type MigrationResultSet, Migrator, sql } from 'kysely';
import { isPostgres } from './dialect.ts';
import type { MigrationDb } from './migrations/helpers.ts';
import * as catalogue from './migrations/001-catalogue.ts';
import * as orders from './migrations/002-orders-payments-jobs.ts';
import * as fulfilment from './migrations/003-fulfilment.ts';
import * as oneTimeCodes from './migrations/004-one-time-codes.ts';
import * as refunds from './migrations/005-refunds.ts';
import * as admins from './migrations/006-admins.ts';
import * as orderSearch from './migrations/007-order-search.ts';
import * as supplierOrders from './migrations/008-supplier-orders.ts';
import * as adminLoginHardening from './migrations/010-admin-login-hardening.ts';
import * as reconcileRotation from './migrations/009-reconcile-rotation.ts';
import * as blog from './migrations/011-blog.ts';
import * as contactMessages from './migrations/012-contact-messages.ts';
import * as contactInbox from './migrations/013-contact-inbox.ts';
import * as reviews from './migrations/014-reviews.ts';
import * as refills from './migrations/015-refills.ts';
import * as adminRolesAudit from './migrations/016-admin-roles-audit.ts';
import * as orderListPrice from './migrations/017-order-list-price.ts';
import * as dashboardTotals from './migrations/018-dashboard-totals.ts';
import * as supplierPanels from './migrations/019-supplier-panels.ts';
import * as catalogueEditing from './migrations/020-catalogue-editing.ts';
import * as ordersKeywordWalk from './migrations/021-orders-keyword-walk.ts';
import * as paymentMethods from './migrations/022-payment-methods.ts';
import * as moneyByProvider from './migrations/023-money-by-provider.ts';
import * as subscriptions from './migrations/024-subscriptions.ts';
import * as simulatedSubscriptions from './migrations/025-simulated-subscriptions.ts';
import * as queuedOrders from './migrations/026-queued-orders.ts';
import * as secondFactorGuesses from './migrations/027-second-factor-guesses.ts';
import * as orderEventKeys from './migrations/031-order-event-keys.ts';
import * as blogDrafts from './migrations/032-blog-drafts.ts';
import * as orderNotes from './migrations/033-order-notes.ts';

/** Listed here, not read from disk, so the same code runs from source and from a bundle. */
const migrations: Record<string, Migration> = {
  '001-catalogue': catalogue,
  '002-orders-payments-jobs': orders,
  '003-fulfilment': fulfilment,
  '004-one-time-codes': oneTimeCodes,
  '005-refunds': refunds,
  '006-admins': admins,
  '007-order-search': orderSearch,
  '008-supplier-orders': supplierOrders,
  '009-reconcile-rotation': reconcileRotation,
  '010-admin-login-hardening': adminLoginHardening,
  '011-blog': blog,
  '012-contact-messages': contactMessages,
  '013-contact-inbox': contactInbox,
  '014-reviews': reviews,
  '015-refills': refills,
  '016-admin-roles-audit': adminRolesAudit,
  '017-order-list-price': orderListPrice,
  '018-dashboard-totals': dashboardTotals,
  '019-supplier-panels': supplierPanels,
  '020-catalogue-editing': catalogueEditing,
  '021-orders-keyword-walk': ordersKeywordWalk,
  '022-payment-methods': paymentMethods,
  '023-money-by-provider': moneyByProvider,
  '024-subscriptions': subscriptions,
  '025-simulated-subscriptions': simulatedSubscriptions,
  '026-queued-orders': queuedOrders,
  '027-second-factor-guesses': secondFactorGuesses,
  '031-order-event-keys': orderEventKeys,
  '032-blog-drafts': blogDrafts,
  '033-order-notes': orderNotes,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

/**
 * PostgreSQL's "does not exist" errors (a schema, a table, a column) that Kysely's look for its
 * bookkeeping tables meets when another database on the same server drops its objects while the
 * catalog is read: the listing walks every schema's tables and columns.
 */
const CATALOG_RACE_CODES = new Set(['3F000', '42P01', '42703']);

/** A failure of that look, before any migration ran, that names something that is not ours. */
export function isCatalogRaceWithAnotherDatabase(outcome: MigrationResultSet, ownSchema: string | undefined): boolean {
  const { error, results } = outcome;
  if (!(error instanceof Error) || ownSchema === undefined || (results?.length ?? 0) > 0) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !CATALOG_RACE_CODES.has(code)) return false;
  return !error.message.includes(`"${ownSchema}"`);
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: MigrationDb): Promise<string[]> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one: pin it to
  // the connection's own, so databases that share a PostgreSQL server never see each other's.
  const migrationTableSchema = isPostgres(db)
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
    : undefined;
  const migrator = new Migrator(
    migrationTableSchema === undefined ? { db, provider } : { db, provider, migrationTableSchema },
  );
  let outcome = await migrator.migrateToLatest();
  // Kysely checks for its bookkeeping tables by listing the tables of every schema with
  // has_schema_privilege() and their columns: a schema, table or column dropped meanwhile (another
  // database on the same server going away, as parallel test suites' schemas do) fails the whole
  // check with "… does not exist". Nothing was migrated then; asking again is safe.
  for (let retry = 0; retry < 3 && isCatalogRaceWithAnotherDatabase(outcome, migrationTableSchema); retry += 1)
    outcome = await migrator.migrateToLatest();
  const { error, results = [] } = outcome;
  const failed = results.find((r) => r.status === 'Error');
  if (error) {
    const reason = error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`, { cause: error });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
