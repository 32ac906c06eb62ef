/**
 * Which supplier panel to talk to (decision 045). Panel 1 is the environment panel: the client
 * the store has always built from SMM_PANEL_URL / SMM_PANEL_KEY, or the built-in simulated panel
 * through the same client. Stored panels (added on /admin/suppliers) are built from their URL and
 * unsealed key on first use and cached; the cache entry is stamped with the row's `updated_at`,
 * so an edit made on any instance is picked up by the next call on every instance.
 *
 * Orders carry the panel they were sold with (`orders.supplier_panel_id`): fulfilment, the status
 * sync, refills and cancels ask `get(order.supplier_panel_id)`.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type PanelAddressPolicy, createGuardedPanelFetch, panelUrlProblem } from './panel-address.ts';
import { type PanelKeySealer, PanelKeyUnreadableError, SUPPLIER_KEY_MISSING_MESSAGE } from './panel-keys.ts';
import { createSmmPanelClient } from './smm-panel-client.ts';
import { ENVIRONMENT_PANEL_ID } from './supplier-catalogue.ts';
import type { SupplierPanel } from './supplier.ts';

export interface SupplierPanels {
  /** The panel with this id; throws UnknownPanelError or PanelKeyUnreadableError when it cannot be built. */
  get(panelId: number): Promise<SupplierPanel>;
}

/** A panel id that names no panel (removed, or never there). */
export class UnknownPanelError extends Error {
  override name = 'UnknownPanelError';
  constructor(readonly panelId: number) {
    super(`Supplier panel ${panelId} does not exist (any more).`);
  }
}

export interface PanelRegistryOptions {
  db: Kysely<Database>;
  /** Panel 1: SMM_PANEL_URL's client or the simulated panel's. */
  environment: SupplierPanel;
  /** Null without SUPPLIER_KEY_ENCRYPTION_KEY: stored panels then cannot be used. */
  sealer: PanelKeySealer | null;
  /** Where stored panels may be reached (./panel-address.ts). */
  addressPolicy: PanelAddressPolicy;
  /** The fetch stored panels' clients use; the address-checking one unless a test routes it. */
  fetch?: typeof fetch | undefined;
  /** Told of every call to a stored panel, by its id, and whether it failed. */
  onPanelCall?: ((panelId: number, failed: boolean) => void) | undefined;
}

export interface PanelRegistry extends SupplierPanels {
  /** Builds a client for a URL and key without storing anything (checking a panel before saving it). */
  probe(url: string, apiKey: string): SupplierPanel;
  /** Why a stored panel cannot use this URL (scheme, an address written in it), or null. */
  urlProblem(url: string): string | null;
}

export function createPanelRegistry(options: PanelRegistryOptions): PanelRegistry {
  const { db, environment, sealer } = options;
  const cache = new Map<number, { stamp: string; panel: SupplierPanel }>();
  const panelFetch = options.fetch ?? createGuardedPanelFetch(options.addressPolicy);
  const build = (url: string, key: string, panelId?: number) =>
    createSmmPanelClient({
      url,
      key,
      fetch: panelFetch,
      onCall: panelId === undefined ? undefined : (failed) => options.onPanelCall?.(panelId, failed),
    });

  return {
    async get(panelId) {
      if (panelId === ENVIRONMENT_PANEL_ID) return environment;
      const row = await db
        .selectFrom('supplier_panels')
        .select(['id', 'kind', 'url', 'key_sealed', 'updated_at'])
        .where('id', '=', panelId)
        .executeTakeFirst();
      if (!row || row.kind !== 'stored' || !row.url || !row.key_sealed) {
        cache.delete(panelId);
        throw new UnknownPanelError(panelId);
      }
      const stamp = `${row.updated_at}|${row.url}|${row.key_sealed}`;
      const cached = cache.get(panelId);
      if (cached?.stamp === stamp) return cached.panel;
      if (!sealer) throw new PanelKeyUnreadableError({ cause: new Error(SUPPLIER_KEY_MISSING_MESSAGE) });
      const panel = build(row.url, sealer.open(panelId, row.key_sealed), panelId);
      cache.set(panelId, { stamp, panel });
      return panel;
    },
    probe: (url, apiKey) => build(url, apiKey),
    urlProblem: (url) => panelUrlProblem(url, options.addressPolicy),
  };
}
