/** The shapes the catalogue editor reads and answers with, shared by its use cases and the admin pages. */
import type { ServiceKind } from '../subscriptions/terms.ts';
import type { RiskyPrice } from './risky-prices.ts';
import type { FieldError, NewGroupInput, ServiceDocument, ServiceStatus, TierWarning } from './service-document.ts';

export interface AdminServiceRow {
  slug: string;
  name: string;
  status: ServiceStatus;
  /** What it sells: a one-off package, automatic likes or daily followers (decision 057). */
  kind: ServiceKind;
  revision: number;
  plans: { type: string; currency: string; minPrice: number; maxPrice: number; tiers: number }[];
}

export interface AdminGroupRow {
  slug: string;
  title: string;
  image: string;
  services: AdminServiceRow[];
}

/** A supplier panel as the tier editor offers it (core/fulfilment/supplier-catalogue.ts's `listPanels`). */
export type PanelKind = 'environment' | 'stored';

export interface PanelSummary {
  id: number;
  name: string;
  kind: PanelKind;
  /** From the panel's last `balance` reply; null until it has answered once. */
  currency: string | null;
}

/** A panel's imported service (`listImportedServices`): rate per 1000 in ten-thousandths. */
export interface ImportedService {
  service: string;
  name: string;
  category: string;
  /**
   * The panel's type ("Default", "Subscriptions", "Custom Comments"…): automatic likes need a
   * Subscriptions service, and nothing else may use one.
   */
  type: string;
  /** Price per 1000 in ten-thousandths of the panel's currency (core/money). */
  rateE4: number;
  min: number;
  max: number;
  refill: boolean;
  cancel: boolean;
}

/**
 * The supplier side the editor reads (core/fulfilment/supplier-catalogue.ts, wired by the
 * server): passed in, so core/catalogue does not import core/fulfilment (which imports orders, which
 * imports the catalogue).
 */
export interface SupplierDirectory {
  panels(): Promise<PanelSummary[]>;
  importedServices(panelId: number): Promise<ImportedService[]>;
  /** Vanished services too (`vanishedAt` set), for the "no longer offered" warning. */
  findService(panelId: number, service: string): Promise<(ImportedService & { vanishedAt: string | null }) | null>;
}

export type EditorFailure = {
  ok: false;
  status: 400 | 404 | 409;
  message: string;
  errors?: FieldError[];
  /** A save refused until the owner confirms these prices (./risky-prices.ts). */
  riskyPrices?: RiskyPrice[];
};

export type ServiceSaveResult =
  | {
      ok: true;
      document: ServiceDocument;
      /** Null when the service was created. */
      before: ServiceDocument | null;
      /** Per tier: sells below cost, quantity outside the supplier's limits… Never blocks a save. */
      warnings: TierWarning[];
    }
  | EditorFailure;

export type GroupSaveResult =
  { ok: true; before: { title: string; image: string }; after: { title: string; image: string } } | EditorFailure;

export type MoveResult = { ok: true; order: string[] } | EditorFailure;

export type GroupCreateResult = { ok: true; group: NewGroupInput } | EditorFailure;

export type GroupDeleteResult = { ok: true; before: { title: string; image: string } } | EditorFailure;
