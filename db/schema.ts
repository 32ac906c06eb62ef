/** Kysely table types. Column names are snake_case in SQL; amounts are integers (see core/money). */
import type { Generated } from 'kysely';

export interface ServiceGroupsTable {
  id: Generated<number>;
  slug: string;
  title: string;
  image: string;
  position: number;
}

export interface ServicesTable {
  id: Generated<number>;
  group_id: number;
  slug: string;
  name: string;
  title_html: string;
  description: string;
  image: string;
  target_kind: string;
  /** 0 or 1: SQLite has no boolean type, so both dialects store an integer. */
  comment_required: number;
  position: number;
}

export interface PlansTable {
  id: Generated<number>;
  service_id: number;
  type: string;
  title: string;
  icon: string;
  currency: string;
  /** JSON array of option names. */
  options_json: string;
  position: number;
}

export interface PriceTiersTable {
  id: Generated<number>;
  plan_id: number;
  qty: number;
  text: string;
  price_e4: number;
  discount_percent: number;
  supplier_service_id: string;
  position: number;
}

export interface Database {
  service_groups: ServiceGroupsTable;
  services: ServicesTable;
  plans: PlansTable;
  price_tiers: PriceTiersTable;
}
