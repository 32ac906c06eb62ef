/**
 * Stored supplier panels' API keys at rest (decision 045): AES-256-GCM under
 * SUPPLIER_KEY_ENCRYPTION_KEY from the environment, the same key format and sealing as the
 * admins' TOTP secrets (decision 022, core/auth/totp.ts), bound to the panel's id so a sealed
 * key copied onto another panel's row does not open. A copy of the database alone opens nothing.
 * Without the variable no stored panel can be added (the suppliers page says what to set).
 */
import { TOTP_KEY_HINT, createEnvironmentSealer, parseTotpKey } from '../auth/totp.ts';

export const SUPPLIER_KEY_VARIABLE = 'SUPPLIER_KEY_ENCRYPTION_KEY';

/** What the suppliers page and API say when the variable is missing. */
export const SUPPLIER_KEY_MISSING_MESSAGE = `Adding a supplier panel needs ${SUPPLIER_KEY_VARIABLE} in the store's environment: its API key is stored encrypted with it. Set it (${TOTP_KEY_HINT}) and restart the store.`;

export const SUPPLIER_KEY_UNREADABLE_MESSAGE = `This panel's API key was saved under another ${SUPPLIER_KEY_VARIABLE}. Set the key it was saved with, or enter the panel's API key again.`;

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
}

const associated = (panelId: number) => `supplier-panel-key:${panelId}`;

/** The sealer for SUPPLIER_KEY_ENCRYPTION_KEY, or null when the variable is unset (or unreadable). */
export function createPanelKeySealer(keyText: string | undefined): PanelKeySealer | null {
  const current = keyText ? parseTotpKey(keyText) : null;
  if (!current) return null;
  const sealer = createEnvironmentSealer({ current, previous: null });
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
  };
}
