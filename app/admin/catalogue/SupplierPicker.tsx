/**
 * A tier's supplier (decision 045): the panel, then the panel's imported service (with its rate and
 * limits), or a typed service id while nothing is imported from that panel.
 */
import { useEffect, useId, useState } from 'react';
import { formatE4 } from '../../../core/catalogue/markup.ts';
import { adminFieldClass } from '../list-parts.tsx';
import { type ImportedService, type PanelSummary, listImportedServices, listPanels } from './api.ts';
import { FieldMessage, ServiceTextField } from './ServiceFields.tsx';
import type { Tier } from './service-draft.ts';

export function SupplierPicker({
  tier,
  panels,
  services,
  onChange,
  errorOf,
  field,
}: {
  tier: Tier;
  panels: PanelSummary[];
  services: ImportedService[] | undefined;
  onChange: (change: Partial<Tier>) => void;
  errorOf: (field: string) => string | undefined;
  /** The tier's path ("plans.0.tiers.2"). */
  field: string;
}) {
  const panelId = useId();
  const serviceId = useId();
  const chosen = services?.find((service) => service.service === tier.supplierServiceId);
  const serviceField = `${field}.supplierServiceId`;
  const serviceError = errorOf(serviceField);
  return (
    <div className="flex min-w-0 flex-wrap items-start gap-2">
      <label htmlFor={panelId} className="flex flex-col text-sm font-semibold text-gray-900">
        Supplier panel
        <select
          id={panelId}
          name={`${field}.supplierPanelId`}
          value={tier.supplierPanelId}
          onChange={(event) => onChange({ supplierPanelId: Number(event.target.value) })}
          className={`${adminFieldClass} mt-1 font-normal`}
        >
          {panels.map((panel) => (
            <option key={panel.id} value={panel.id}>
              {panel.name}
            </option>
          ))}
        </select>
      </label>
      {services && services.length > 0 ? (
        <label htmlFor={serviceId} className="flex min-w-0 flex-col text-sm font-semibold text-gray-900">
          Supplier service
          <select
            id={serviceId}
            name={serviceField}
            value={tier.supplierServiceId}
            onChange={(event) => onChange({ supplierServiceId: event.target.value })}
            aria-invalid={serviceError !== undefined || undefined}
            aria-describedby={serviceError !== undefined ? `${serviceId}-error` : undefined}
            className={`${adminFieldClass} mt-1 max-w-xs font-normal`}
          >
            {chosen || !tier.supplierServiceId ? null : (
              <option value={tier.supplierServiceId}>{tier.supplierServiceId} (not imported)</option>
            )}
            {tier.supplierServiceId ? null : <option value="">Choose a service</option>}
            {services.map((service) => (
              <option key={service.service} value={service.service}>
                {service.service}: {service.name} · {service.type} · {formatE4(service.rateE4)}/1000 · {service.min}–
                {service.max}
              </option>
            ))}
          </select>
          <FieldMessage id={`${serviceId}-error`} message={serviceError} />
        </label>
      ) : (
        <ServiceTextField
          label="Supplier service id"
          field={serviceField}
          value={tier.supplierServiceId}
          error={serviceError}
          onChange={(value) => onChange({ supplierServiceId: value })}
          hint="Nothing imported from this panel yet: type the id."
        />
      )}
    </div>
  );
}

/** The panels to map tiers to, and each one's imported services (empty until they arrive). */
export function useSupplierLists() {
  const [panels, setPanels] = useState<PanelSummary[]>([
    { id: 1, name: 'Main panel', kind: 'environment', currency: null },
  ]);
  const [imported, setImported] = useState<Record<number, ImportedService[]>>({});
  useEffect(() => {
    const controller = new AbortController();
    void (async () => {
      try {
        const list = await listPanels(controller.signal);
        setPanels(list);
        const entries = await Promise.all(
          list.map(async (panel) => [panel.id, await listImportedServices(panel.id, controller.signal)] as const),
        );
        setImported(Object.fromEntries(entries));
      } catch {
        // Without the lists the tier editor takes typed ids (the server still checks the panel).
      }
    })();
    return () => controller.abort();
  }, []);
  return { panels, imported };
}
