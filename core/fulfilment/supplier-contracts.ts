/**
 * The suppliers admin API's requests and replies (decision 045), once: server/api/admin-suppliers.ts
 * declares them (validation, OpenAPI) and /admin/suppliers imports the types. Browser-safe: no
 * database, no Node APIs. API keys go in (`apiKey`) and never come out: replies only say whether
 * a key is saved.
 */
import { z } from 'zod';
import { idParam } from '../integer-columns.ts';

export const SUPPLIER_MESSAGES = {
  notFound: 'Supplier panel not found',
  nameTaken: 'Another panel already has this name',
  environmentFixed:
    "The main panel's URL and key come from the environment (SMM_PANEL_URL and SMM_PANEL_KEY); only its name and low-balance threshold can be changed here.",
  environmentNotRemovable: 'The main panel comes from the environment and cannot be removed.',
  keyRequired: 'Enter the API key the panel gave you',
  added: 'Panel added: it answered the balance request.',
  saved: 'Panel saved',
  removed: 'Panel removed',
  probeFailed: (reason: string) => `The panel did not accept the URL and key: ${reason}`,
  inUseByTiers: (count: number) =>
    `This panel cannot be removed: ${count} price tier${count === 1 ? ' is' : 's are'} mapped to it. Map ${count === 1 ? 'it' : 'them'} to another panel first.`,
  inUseByOrders: (count: number) =>
    `This panel cannot be removed: ${count} unfinished order${count === 1 ? ' was' : 's were'} placed with it. Remove it once ${count === 1 ? 'it is' : 'they are'} finished.`,
  importFailed: (reason: string) => `The panel did not send its services: ${reason}`,
  imported: (count: number) => `Imported ${count} service${count === 1 ? '' : 's'}`,
} as const;

const DECIMAL_AMOUNT = /^\d{1,9}(\.\d{1,4})?$/;

export const PanelIdParamsSchema = z.object({
  id: idParam('must be a panel id'),
});

const name = z
  .string({ error: 'Enter a name' })
  .trim()
  .min(1, 'Enter a name')
  .max(80, 'The name is too long (at most 80 characters)');
const url = z
  .string({ error: 'Enter the panel’s API URL' })
  .trim()
  .max(500, 'The URL is too long')
  .refine((value) => /^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value), {
    error: 'Enter the panel’s API URL, e.g. https://panel.example/api/v2',
  });
const apiKey = z
  .string({ error: SUPPLIER_MESSAGES.keyRequired })
  .trim()
  .min(1, SUPPLIER_MESSAGES.keyRequired)
  .max(500, 'The API key is too long');
/** "25" or "25.50": the panel's currency; empty or null: no alert. */
const threshold = z
  .union([z.string(), z.null()], { error: 'Enter an amount such as 25 or 25.50, or leave it empty' })
  .transform((value) => (value === null ? null : value.trim() === '' ? null : value.trim()))
  .refine((value) => value === null || DECIMAL_AMOUNT.test(value), {
    error: 'Enter an amount such as 25 or 25.50, or leave it empty',
  });

export const AddPanelSchema = z.object({
  name,
  url,
  apiKey,
  lowBalanceThreshold: threshold.optional(),
});
export type AddPanelInput = z.output<typeof AddPanelSchema>;

export const EditPanelSchema = z.object({
  name: name.optional(),
  url: url.optional(),
  /** A new key replaces the saved one; absent keeps it. */
  apiKey: apiKey.optional(),
  lowBalanceThreshold: threshold.optional(),
});
export type EditPanelInput = z.output<typeof EditPanelSchema>;

export const ServiceListQuerySchema = z.object({
  q: z.string().trim().max(100, 'The search is too long').optional(),
  category: z.string().trim().max(200, 'The category is too long').optional(),
});

export const TierWarningSchema = z.object({
  tierId: z.number().int(),
  serviceName: z.string(),
  /** For the link to the service's editor (/admin/catalogue/services/:slug). */
  serviceSlug: z.string(),
  planType: z.string(),
  qty: z.number().int(),
  supplierServiceId: z.string(),
  /** 'vanished': the panel stopped offering it; 'unknown': the panel never listed it. */
  reason: z.enum(['vanished', 'unknown']),
});
export type TierWarning = z.infer<typeof TierWarningSchema>;

export const PanelViewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(['environment', 'stored']),
  /** The stored panel's URL; for the environment panel a description of where it comes from. */
  source: z.string(),
  url: z.string().nullable(),
  keySaved: z.boolean(),
  /** Why the saved key cannot be used now (saved under another key, or the variable is unset); null when it can. */
  keyProblem: z.string().nullable(),
  currency: z.string().nullable(),
  /** In the panel's currency, e.g. "25.00"; null: no low-balance alert. */
  lowBalanceThreshold: z.string().nullable(),
  lowBalanceAlertedAt: z.string().nullable(),
  services: z.number().int(),
  vanishedServices: z.number().int(),
  importedAt: z.string().nullable(),
  tiers: z.number().int(),
  /** Why the panel cannot be removed now; null when it can. */
  removeBlockedBy: z.string().nullable(),
  /**
   * The tiers mapped to a service this panel no longer offers or never listed, computed on every
   * read; empty until the panel's services have been imported once.
   */
  warnings: z.array(TierWarningSchema),
});
export type PanelView = z.infer<typeof PanelViewSchema>;

export const BalanceReadingSchema = z.union([
  z.object({ balance: z.string(), currency: z.string(), checkedAt: z.string() }),
  z.object({ error: z.string(), checkedAt: z.string() }),
]);

export const PanelBalanceSchema = z.object({
  panelId: z.number().int(),
  name: z.string(),
  lowBalanceThreshold: z.string().nullable(),
  reading: BalanceReadingSchema,
});
export type PanelBalance = z.infer<typeof PanelBalanceSchema>;

export const SuppliersPageSchema = z.object({
  panels: z.array(PanelViewSchema),
  /** Null when stored panels can be added; otherwise what to set (SUPPLIER_KEY_ENCRYPTION_KEY). */
  addBlockedBy: z.string().nullable(),
});
export type SuppliersPage = z.infer<typeof SuppliersPageSchema>;

export const ImportedServiceSchema = z.object({
  service: z.string(),
  name: z.string(),
  type: z.string(),
  category: z.string(),
  /** Per 1000, in the panel's currency, e.g. "0.9000". */
  rate: z.string(),
  min: z.number().int(),
  max: z.number().int(),
  refill: z.boolean(),
  cancel: z.boolean(),
  vanished: z.boolean(),
});
export type ImportedServiceView = z.infer<typeof ImportedServiceSchema>;

export const ServiceListSchema = z.object({
  panelId: z.number().int(),
  services: z.array(ImportedServiceSchema),
  /** Services matching the filters; `services` holds at most SERVICE_LIST_LIMIT of them. */
  total: z.number().int(),
  categories: z.array(z.string()),
  importedAt: z.string().nullable(),
});
export type ServiceList = z.infer<typeof ServiceListSchema>;
export const SERVICE_LIST_LIMIT = 200;

export const ImportResultSchema = z.object({
  imported: z.number().int(),
  added: z.number().int(),
  vanished: z.number().int(),
  warnings: z.array(TierWarningSchema),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;
