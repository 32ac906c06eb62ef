/**
 * The catalogue editor (decision 044): one service at a time, each save a compare-and-set on the
 * service's revision, so a stale editor is refused (409) and never overwrites someone else's
 * change. Every write bumps the catalogue's content version in its own transaction (./catalogue.ts),
 * which is what makes the public pages show it. Reads here include drafts; the public reads
 * (./catalogue.ts) never do.
 *
 * The rules live in the use-case modules, plain functions over one deps object
 * (./editor-deps.ts): reads in ./editor-reads.ts, services in ./service-edits.ts, groups in
 * ./group-edits.ts, moves in ./editor-moves.ts. `createCatalogueEditor` builds the deps once
 * and binds those functions, for the API.
 */
import { moveGroup, moveService } from './editor-moves.ts';
import type { CatalogueEditorDeps } from './editor-deps.ts';
import { listEditorGroups, loadServiceDocument } from './editor-reads.ts';
import type {
  AdminGroupRow,
  GroupCreateResult,
  GroupDeleteResult,
  GroupSaveResult,
  ImportedService,
  MoveResult,
  PanelSummary,
  ServiceSaveResult,
} from './editor-types.ts';
import { createGroup, deleteGroup, updateGroup } from './group-edits.ts';
import { type PriceFloor, type PriceFloorBody, describePriceFloor, savePriceFloor } from './price-floor.ts';
import type { ServiceDocument } from './service-document.ts';
import { createService, saveService } from './service-edits.ts';

export { auditViewOf } from './editor-reads.ts';
export type * from './editor-types.ts';

export interface CatalogueEditor {
  listGroups(): Promise<AdminGroupRow[]>;
  getService(slug: string): Promise<ServiceDocument | null>;
  createService(groupSlug: string, input: unknown): Promise<ServiceSaveResult>;
  /** Saves only when the service is still at `revision` (the one the editor opened). */
  saveService(slug: string, revision: number, input: unknown): Promise<ServiceSaveResult>;
  updateGroup(slug: string, input: unknown): Promise<GroupSaveResult>;
  /** A new group, last in the order; hidden from the store until one of its services is published. */
  createGroup(input: unknown): Promise<GroupCreateResult>;
  moveGroup(slug: string, direction: 'up' | 'down'): Promise<MoveResult>;
  /** Only a group without any service (drafts count): deleting cascades to services in the schema. */
  deleteGroup(slug: string): Promise<GroupDeleteResult>;
  moveService(slug: string, direction: 'up' | 'down'): Promise<MoveResult>;
  panels(): Promise<PanelSummary[]>;
  importedServices(panelId: number): Promise<ImportedService[]>;
  /** The owner's price floor (./price-floor.ts): below it a save asks first. */
  priceFloor(): Promise<PriceFloor>;
  savePriceFloor(body: PriceFloorBody): Promise<{ before: PriceFloor; after: PriceFloor }>;
}

export function createCatalogueEditor(
  options: Omit<CatalogueEditorDeps, 'now'> & { now?: () => Date },
): CatalogueEditor {
  const deps: CatalogueEditorDeps = { ...options, now: options.now ?? (() => new Date()) };
  return {
    listGroups: () => listEditorGroups(deps),
    getService: (slug) => loadServiceDocument(deps.db, slug),
    createService: (groupSlug, input) => createService(deps, groupSlug, input),
    saveService: (slug, revision, input) => saveService(deps, slug, revision, input),
    updateGroup: (slug, input) => updateGroup(deps, slug, input),
    createGroup: (input) => createGroup(deps, input),
    moveGroup: (slug, direction) => moveGroup(deps, slug, direction),
    deleteGroup: (slug) => deleteGroup(deps, slug),
    moveService: (slug, direction) => moveService(deps, slug, direction),
    panels: () => deps.suppliers.panels(),
    importedServices: (panelId) => deps.suppliers.importedServices(panelId),
    priceFloor: () => describePriceFloor(deps.db),
    savePriceFloor: (body) => savePriceFloor(deps.db, body),
  };
}
