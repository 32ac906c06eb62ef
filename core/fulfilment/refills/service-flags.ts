/**
 * Whether the panel refills and cancels an order's service, from the panel's `services` list,
 * cached per panel: a /client page view must not cost a panel call. After a failure the last good
 * list is kept, or "unknown" is answered, for a minute.
 */
import type { Selectable } from 'kysely';
import type { OrdersTable } from '../../../db/schema.ts';
import type { SupplierPanels } from '../panels.ts';
import type { SupplierService } from '../supplier.ts';

/** The panel's service list is asked at most this often (and after a failure, once a minute). */
const SERVICES_TTL_MS = 60 * 60 * 1000;
const SERVICES_RETRY_MS = 60 * 1000;

export type ServiceFlags = { refill: boolean; cancel: boolean };
/** The flags of an order's service; null when the panel's list cannot be read. */
export type ServiceFlagsLookup = (
  order: Pick<Selectable<OrdersTable>, 'supplier_panel_id' | 'supplier_service_id'>,
) => Promise<ServiceFlags | null>;

type ServiceList = { at: number; ok: boolean; byId: Map<string, SupplierService> };

export function createServiceFlagsCache(panels: SupplierPanels, now: () => Date): ServiceFlagsLookup {
  const servicesByPanel = new Map<number, ServiceList>();
  const loadingByPanel = new Map<number, Promise<void>>();

  function load(panelId: number): Promise<void> {
    // One request per panel at a time, however many lookups arrive while it runs.
    const running = loadingByPanel.get(panelId);
    if (running) return running;
    const loading = panels
      .get(panelId)
      .then((panel) => panel.services())
      .then(
        (list) => {
          servicesByPanel.set(panelId, {
            at: now().getTime(),
            ok: true,
            byId: new Map(list.map((s) => [s.service, s])),
          });
        },
        () => {
          const last = servicesByPanel.get(panelId);
          servicesByPanel.set(
            panelId,
            last?.ok
              ? { ...last, at: now().getTime() - SERVICES_TTL_MS + SERVICES_RETRY_MS }
              : { at: now().getTime(), ok: false, byId: new Map() },
          );
        },
      )
      .finally(() => {
        loadingByPanel.delete(panelId);
      });
    loadingByPanel.set(panelId, loading);
    return loading;
  }

  return async (order) => {
    const panelId = order.supplier_panel_id;
    const cached = servicesByPanel.get(panelId);
    const fresh = cached && now().getTime() - cached.at < (cached.ok ? SERVICES_TTL_MS : SERVICES_RETRY_MS);
    if (!fresh) await load(panelId);
    const services = servicesByPanel.get(panelId);
    if (!services?.ok) return null;
    const service = services.byId.get(order.supplier_service_id);
    return service ? { refill: service.refill, cancel: service.cancel } : { refill: false, cancel: false };
  };
}
