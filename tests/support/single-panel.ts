import type { SupplierPanels } from '../../core/fulfilment/panels.ts';
import type { SupplierPanel } from '../../core/fulfilment/supplier.ts';

/** One panel for every panel id: a use case run by hand against one fake panel. */
export function singlePanel(panel: SupplierPanel): SupplierPanels {
  return { get: () => Promise.resolve(panel) };
}
