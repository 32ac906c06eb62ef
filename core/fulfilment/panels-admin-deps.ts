/**
 * What the owner's supplier-panel use cases work with (./panel-listing.ts, ./panel-edits.ts,
 * ./panel-import.ts, ./panel-balances.ts), built once by `createSupplierAdmin`
 * (./panels-admin.ts), and the pieces they share: the refusal they throw, the panel's row, and
 * the sentence that says why a panel could not be asked.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { formatAmountE4 } from '../money/money.ts';
import type { PanelKeySealer } from './panel-keys.ts';
import type { PanelRegistry } from './panels.ts';
import { SmmPanelError } from './smm-panel-client.ts';
import type { BalanceReading } from './supplier-balance.ts';
import { SUPPLIER_MESSAGES } from './supplier-contracts.ts';

/** A refusal the API answers with its status and message (`field` names the form field at fault). */
export class SupplierAdminError extends Error {
  readonly expose = true;
  constructor(
    message: string,
    readonly statusCode: 400 | 404 | 409,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'SupplierAdminError';
  }
}

export interface SupplierAdminOptions {
  db: Kysely<Database>;
  panels: PanelRegistry;
  /** Null without SUPPLIER_KEY_ENCRYPTION_KEY: adding or re-keying a stored panel is refused. */
  sealer: PanelKeySealer | null;
  /** Where panel 1 comes from: SMM_PANEL_URL, or the built-in simulated panel. */
  environmentSource: 'url' | 'simulated';
  /** The store's public origin, for the e-mail's link to /admin/suppliers. */
  publicUrl: string;
  now: Clock;
  /** Where failed balance requests are logged (the reading carries a plain sentence). */
  onBalanceError?: ((panelId: number, error: unknown) => void) | undefined;
}

export interface SupplierAdminDeps extends SupplierAdminOptions {
  /**
   * Each panel's balance reader (asks at most once a minute), kept for the life of the instance;
   * a panel's entry goes when its URL or key changes or it is removed, so the next read asks anew.
   */
  balanceReaders: Map<number, () => Promise<BalanceReading>>;
}

export function createSupplierAdminDeps(options: SupplierAdminOptions): SupplierAdminDeps {
  return { ...options, balanceReaders: new Map() };
}

/** A panel's reason, without anything that could carry the key (the client never puts it in messages). */
export function reasonOf(error: unknown): string {
  if (error instanceof SmmPanelError) {
    switch (error.kind) {
      case 'api':
        return `it answered "${error.message}"`;
      case 'http':
        return `it answered HTTP ${error.status ?? 'error'}${error.status === 404 ? ' (is the URL the API address, e.g. …/api/v2?)' : ''}`;
      case 'timeout':
        return 'it did not answer in time';
      case 'network':
        return 'it could not be reached (check the URL)';
      case 'bad-response':
        return 'its reply was not an SMM panel API v2 reply (check the URL)';
    }
  }
  return 'it could not be asked';
}

/** A stored threshold as the page shows it (two decimals), or null for none. */
export function thresholdText(e4: number | null): string | null {
  return e4 === null ? null : formatAmountE4(Number(e4), 2);
}

/** The panel's row; a 404 refusal when there is none. */
export async function panelRow({ db }: Pick<SupplierAdminDeps, 'db'>, panelId: number) {
  const row = await db.selectFrom('supplier_panels').selectAll().where('id', '=', panelId).executeTakeFirst();
  if (!row) throw new SupplierAdminError(SUPPLIER_MESSAGES.notFound, 404);
  return row;
}
