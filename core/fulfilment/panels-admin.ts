/**
 * The owner's supplier panels (decision 045): add, edit and remove stored panels, import each
 * panel's `services`, read their balances, and the low-balance e-mail.
 *
 * The rules live in the use-case modules, plain functions over one deps object
 * (./panels-admin-deps.ts): the suppliers page's read model in ./panel-listing.ts, add / edit /
 * remove in ./panel-edits.ts, the import in ./panel-import.ts, balances and the low-balance check
 * in ./panel-balances.ts. `createSupplierAdmin` builds the deps once and binds those functions,
 * for the API handlers and the recurring job.
 */
import { type LowBalanceCheck, checkLowBalances, panelBalances } from './panel-balances.ts';
import { addPanel, editPanel, removePanel } from './panel-edits.ts';
import { importPanelServices } from './panel-import.ts';
import { panelServiceList, panelTierWarnings, panelView, suppliersPage } from './panel-listing.ts';
import { type SupplierAdminOptions, createSupplierAdminDeps } from './panels-admin-deps.ts';
import type {
  AddPanelInput,
  EditPanelInput,
  ImportResult,
  PanelBalance,
  PanelView,
  ServiceList,
  SuppliersPage,
  TierWarning,
} from './supplier-contracts.ts';

export { SupplierAdminError, type SupplierAdminOptions } from './panels-admin-deps.ts';

export interface SupplierAdmin {
  /** The suppliers page: every panel, and whether stored panels can be added. */
  page(): Promise<SuppliersPage>;
  add(input: AddPanelInput): Promise<PanelView>;
  view(panelId: number): Promise<PanelView>;
  edit(panelId: number, input: EditPanelInput): Promise<PanelView>;
  /** Refused for the environment panel, and while a tier or an unfinished order uses the panel. */
  remove(panelId: number): Promise<void>;
  /** Asks the panel for `services`, upserts them, marks the ones it no longer lists. */
  importServices(panelId: number): Promise<ImportResult>;
  tierWarnings(panelId: number): Promise<TierWarning[]>;
  services(panelId: number, filters: { q?: string | undefined; category?: string | undefined }): Promise<ServiceList>;
  /** Every panel's balance (each asked at most once a minute), for the dashboard and the suppliers page. */
  balances(): Promise<PanelBalance[]>;
  /** The low-balance job: e-mails the owners once per drop below a panel's threshold. */
  checkLowBalances(): Promise<LowBalanceCheck>;
}

export function createSupplierAdmin(options: SupplierAdminOptions): SupplierAdmin {
  const deps = createSupplierAdminDeps(options);
  return {
    page: () => suppliersPage(deps),
    add: (input) => addPanel(deps, input),
    view: (panelId) => panelView(deps, panelId),
    edit: (panelId, input) => editPanel(deps, panelId, input),
    remove: (panelId) => removePanel(deps, panelId),
    importServices: (panelId) => importPanelServices(deps, panelId),
    tierWarnings: (panelId) => panelTierWarnings(deps, panelId),
    services: (panelId, filters) => panelServiceList(deps, panelId, filters),
    balances: () => panelBalances(deps),
    checkLowBalances: () => checkLowBalances(deps),
  };
}
