/**
 * Stored supplier panels' API keys at rest (decision 045): AES-256-GCM under
 * SUPPLIER_KEY_ENCRYPTION_KEY from the environment, the same key format and sealing as the
 * admins' TOTP secrets (decision 022, core/auth/totp.ts), bound to the panel's id so a sealed
 * key copied onto another panel's row does not open. A copy of the database alone opens nothing.
 * Without the variable no stored panel can be added (the suppliers page says what to set).
 *
 * Rotation, like TOTP's: with SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS set next to a new key, both
 * open and only the new one seals; at boot `resealPanelKeys` moves every key under the old one to
 * the new one (compare-and-set per row), so the old key can be dropped at the next restart.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { TOTP_KEY_HINT, createEnvironmentSealer, parseTotpKey } from '../auth/totp.ts';

export const SUPPLIER_KEY_VARIABLE = 'SUPPLIER_KEY_ENCRYPTION_KEY';
export const SUPPLIER_KEY_PREVIOUS_VARIABLE = 'SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS';

/** What the suppliers page and API say when the variable is missing. */
export const SUPPLIER_KEY_MISSING_MESSAGE = `Adding a supplier panel needs ${SUPPLIER_KEY_VARIABLE} in the store's environment: its API key is stored encrypted with it. Set it (${TOTP_KEY_HINT}) and restart the store.`;

export const SUPPLIER_KEY_UNREADABLE_MESSAGE = `This panel's API key was saved under another ${SUPPLIER_KEY_VARIABLE}. Set the key it was saved with (as ${SUPPLIER_KEY_PREVIOUS_VARIABLE} while rotating), or enter the panel's API key again.`;

/** A stored panel's key while the variable is unset: nothing can open it. */
export const SUPPLIER_KEY_NOT_SET_MESSAGE = `This panel's API key is stored encrypted with ${SUPPLIER_KEY_VARIABLE}, which is not set: set it again (the same key) and restart the store.`;

/** A sealed key that the current SUPPLIER_KEY_ENCRYPTION_KEY cannot open. */
export class PanelKeyUnreadableError extends Error {
  override name = 'PanelKeyUnreadableError';
  /** The suppliers API answers it as it is: the owner can enter the key again. */
  readonly expose = true;
  readonly statusCode = 409;
  readonly field = 'apiKey';
  constructor(options?: { cause?: unknown }) {
    super(SUPPLIER_KEY_UNREADABLE_MESSAGE, options);
  }
}

export interface PanelKeySealer {
  seal(panelId: number, apiKey: string): string;
  /** Throws PanelKeyUnreadableError when the value was sealed under another key (or another panel). */
  open(panelId: number, sealed: string): string;
  /** Whether `sealed` is under the current key already (nothing to re-seal). */
  isCurrent(sealed: string): boolean;
}

const associated = (panelId: number) => `supplier-panel-key:${panelId}`;

/**
 * The sealer for SUPPLIER_KEY_ENCRYPTION_KEY (and SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS, which
 * only opens), or null when the variable is unset (or unreadable: the config has refused that).
 */
export function createPanelKeySealer(keyText: string | undefined, previousKeyText?: string): PanelKeySealer | null {
  const current = keyText ? parseTotpKey(keyText) : null;
  if (!current) return null;
  const previous = previousKeyText ? parseTotpKey(previousKeyText) : null;
  const sealer = createEnvironmentSealer({ current, previous });
  return {
    seal: (panelId, apiKey) => sealer.seal(associated(panelId), Buffer.from(apiKey, 'utf8')),
    open(panelId, sealed) {
      try {
        return sealer.open(associated(panelId), sealed).toString('utf8');
      } catch (error) {
        // Another key (UnknownTotpKeyError) or another panel's ciphertext (a GCM tag mismatch):
        // the same answer, never the detail.
        throw new PanelKeyUnreadableError({ cause: error });
      }
    },
    isCurrent: (sealed) => sealer.isCurrent(sealed),
  };
}

export interface PanelKeyRotationReport {
  /** Stored panels whose key this call sealed again under the current key. */
  resealed: number;
  /** Stored panels whose key opens under neither key (the suppliers page says so on each). */
  unreadable: number[];
}

/**
 * Boot (decision 045): seals every stored panel key that is not under the current
 * SUPPLIER_KEY_ENCRYPTION_KEY yet (it was sealed under SUPPLIER_KEY_ENCRYPTION_KEY_PREVIOUS) again
 * under the current one. Row by row with a compare-and-set on the sealed value, so instances
 * booting together re-seal each key once and an owner's edit made meanwhile is never overwritten.
 * A key neither opens is left as it is and reported; the store still starts (unlike TOTP
 * secrets, one panel's key is not a reason to stop selling through the others).
 */
export async function resealPanelKeys(
  db: Kysely<Database>,
  sealer: PanelKeySealer | null,
): Promise<PanelKeyRotationReport> {
  const report: PanelKeyRotationReport = { resealed: 0, unreadable: [] };
  if (!sealer) return report;
  const rows = await db
    .selectFrom('supplier_panels')
    .select(['id', 'key_sealed'])
    .where('kind', '=', 'stored')
    .where('key_sealed', 'is not', null)
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const sealed = row.key_sealed;
    if (sealed === null || sealer.isCurrent(sealed)) continue;
    let apiKey: string;
    try {
      apiKey = sealer.open(row.id, sealed);
    } catch {
      report.unreadable.push(row.id);
      continue;
    }
    // `updated_at` stays: the owner changed nothing, and the registry's cache stamp holds the
    // sealed value itself, so every instance rebuilds its client from the new one.
    const result = await db
      .updateTable('supplier_panels')
      .set({ key_sealed: sealer.seal(row.id, apiKey) })
      .where('id', '=', row.id)
      .where('key_sealed', '=', sealed)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) report.resealed += 1;
  }
  return report;
}
