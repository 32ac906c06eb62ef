/**
 * What fulfilment's use cases need from the outside world, passed in once at boot. Each use case
 * (submit, sync, admin actions, refund) is a plain function of these deps, so it can be named,
 * imported and tested on its own.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { PaymentGateways } from '../payments/methods.ts';
import type { SupplierPanels } from './panels.ts';

export interface FulfilmentDeps {
  db: Kysely<Database>;
  /** Each order is fulfilled on its own panel (`orders.supplier_panel_id`, decision 045). */
  panels: SupplierPanels;
  /** Refunds what was not delivered, through the provider that took the money. */
  gateways: PaymentGateways;
  now: () => Date;
}
