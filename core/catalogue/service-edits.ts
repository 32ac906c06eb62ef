/**
 * Creating and saving one service of the catalogue. Each save is a compare-and-set on the
 * service's revision, so a stale editor is refused (409) and never overwrites someone else's
 * change; the reply carries per-tier warnings (below cost, outside the supplier's limits) that
 * never block a save.
 */
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { sanitizeTitleHtml } from '../html/sanitize.ts';
import { parseAmountE4 } from '../money/money.ts';
import { isUploadPath } from '../uploads/names.ts';
import { insertPlans, serviceKindColumns } from './catalogue-writes.ts';
import {
  type CatalogueEditorDeps,
  type EditorDb,
  inCatalogueWrite,
  invalid,
  nextPosition,
  slugTaken,
} from './editor-deps.ts';
import { loadServiceDocument } from './editor-reads.ts';
import type { EditorFailure, ServiceSaveResult } from './editor-types.ts';
import { tierWarnings } from './markup.ts';
import { loadPriceFloorE4 } from './price-floor.ts';
import { riskyPrices, riskyPricesMessage } from './risky-prices.ts';
import {
  CATALOGUE_MESSAGES,
  type FieldError,
  type ServiceDocument,
  type ServiceInput,
  ServiceInputSchema,
  type TierWarning,
  fieldErrorsOf,
  termsOfInput,
} from './service-document.ts';
import { serviceKindErrors, supplierTypeErrors } from './service-kind-checks.ts';

function parseServiceInput(input: unknown): { ok: true; value: ServiceInput } | EditorFailure {
  const parsed = ServiceInputSchema.safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : invalid(fieldErrorsOf(parsed.error));
}

/**
 * Field errors the schema cannot see: a taken slug, an image not uploaded, an unknown panel, the
 * kind against the target and the running orders, and `mapping` (the tiers' supplier types).
 */
async function checkAgainstStore(
  trx: EditorDb,
  input: ServiceInput,
  current: { id: number; slug: string; image: string; publishedAt: string | null; kind: ServiceInput['kind'] } | null,
  mapping: FieldError[],
): Promise<FieldError[]> {
  const errors: FieldError[] = [...(await serviceKindErrors(trx, input, current))];
  if (current?.publishedAt && input.slug !== current.slug)
    errors.push({ field: 'slug', message: CATALOGUE_MESSAGES.slugLocked });
  else if (input.slug !== current?.slug && (await slugTaken(trx, input.slug)))
    errors.push({ field: 'slug', message: CATALOGUE_MESSAGES.slugTaken });
  if (input.image !== '' && input.image !== current?.image && !isUploadPath(input.image)) {
    // An image the catalogue already shows (a seeded one) may be reused; anything else is uploaded.
    const used = await trx.selectFrom('services').select('id').where('image', '=', input.image).executeTakeFirst();
    if (!used) errors.push({ field: 'image', message: CATALOGUE_MESSAGES.imageNotUploaded });
  }
  const panelIds = new Set((await trx.selectFrom('supplier_panels').select('id').execute()).map((p) => p.id));
  input.plans.forEach((plan, p) =>
    plan.tiers.forEach((tier, t) => {
      if (!panelIds.has(tier.supplierPanelId))
        errors.push({ field: `plans.${p}.tiers.${t}.supplierPanelId`, message: 'Choose a supplier panel.' });
    }),
  );
  return [...errors, ...mapping];
}

/** Per tier, what the supplier's imported service says about its price and quantity. */
async function warningsFor({ suppliers }: Pick<CatalogueEditorDeps, 'suppliers'>, input: ServiceInput) {
  const panels = new Map((await suppliers.panels()).map((panel) => [panel.id, panel]));
  const warnings: TierWarning[] = [];
  for (const [p, plan] of input.plans.entries()) {
    for (const [t, tier] of plan.tiers.entries()) {
      const imported = await suppliers.findService(tier.supplierPanelId, tier.supplierServiceId);
      const messages = tierWarnings({
        qty: tier.qty,
        priceE4: parseAmountE4(tier.price),
        planCurrency: plan.currency,
        supplier: imported
          ? { rateE4: imported.rateE4, min: imported.min, max: imported.max, vanished: imported.vanishedAt !== null }
          : null,
        panelCurrency: panels.get(tier.supplierPanelId)?.currency ?? null,
        kind: input.kind,
        terms: termsOfInput(input),
      });
      for (const message of messages) warnings.push({ field: `plans.${p}.tiers.${t}`, message });
    }
  }
  return warnings;
}

/** Replaces the service's plans and tiers with the input's. */
async function replacePlans(trx: Transaction<Database>, serviceId: number, input: ServiceInput): Promise<void> {
  await trx
    .deleteFrom('price_tiers')
    .where('plan_id', 'in', trx.selectFrom('plans').select('id').where('service_id', '=', serviceId))
    .execute();
  await trx.deleteFrom('plans').where('service_id', '=', serviceId).execute();
  await insertPlans(trx, serviceId, input.plans);
}

/**
 * The 409 that asks the owner first: prices below the floor or more than half off, unless the
 * save says the owner confirmed them. Null when the save may go ahead.
 */
async function unconfirmedRiskyPrices(
  trx: EditorDb,
  before: ServiceDocument | null,
  input: ServiceInput,
): Promise<EditorFailure | null> {
  if (input.confirmRiskyPrices === true) return null;
  const risky = riskyPrices(before?.plans ?? null, input.plans, await loadPriceFloorE4(trx));
  return risky.length === 0 ? null : { ok: false, status: 409, message: riskyPricesMessage(risky), riskyPrices: risky };
}

function serviceColumns(input: ServiceInput) {
  return {
    slug: input.slug,
    name: input.name,
    title_html: sanitizeTitleHtml(input.titleHtml),
    description: input.description,
    image: input.image,
    target_kind: input.targetKind,
    comment_required: input.commentRequired ? 1 : 0,
    status: input.status,
    ...serviceKindColumns(input.kind, termsOfInput(input)),
  };
}

/**
 * Parses the input, runs `work` with it in a catalogue write, and adds the tiers' warnings to a
 * save that committed.
 */
async function writeService(
  deps: CatalogueEditorDeps,
  raw: unknown,
  work: (trx: Transaction<Database>, input: ServiceInput, mapping: FieldError[]) => Promise<ServiceSaveResult>,
): Promise<ServiceSaveResult> {
  const parsed = parseServiceInput(raw);
  if (!parsed.ok) return parsed;
  const input = parsed.value;
  // Read before the write's transaction: the supplier directory reads the database on its own.
  const mapping = await supplierTypeErrors(deps.suppliers, input);
  const result = await inCatalogueWrite(deps, (trx) => work(trx, input, mapping));
  return result.ok ? { ...result, warnings: await warningsFor(deps, input) } : result;
}

/** Writes the service's plans and answers with the service as it now is. */
async function savedService(
  trx: Transaction<Database>,
  serviceId: number,
  input: ServiceInput,
  before: ServiceDocument | null,
): Promise<ServiceSaveResult> {
  await replacePlans(trx, serviceId, input);
  const document = await loadServiceDocument(trx, input.slug);
  if (!document) throw new Error('core/catalogue: the saved service is gone');
  return { ok: true, document, before, warnings: [] };
}

/** A new service, last in its group. */
export async function createService(
  deps: CatalogueEditorDeps,
  groupSlug: string,
  raw: unknown,
): Promise<ServiceSaveResult> {
  return writeService(deps, raw, async (trx, input, mapping) => {
    const group = await trx.selectFrom('service_groups').select('id').where('slug', '=', groupSlug).executeTakeFirst();
    if (!group) return { ok: false, status: 404, message: CATALOGUE_MESSAGES.groupNotFound };
    const errors = await checkAgainstStore(trx, input, null, mapping);
    if (errors.length > 0) return invalid(errors);
    const unconfirmed = await unconfirmedRiskyPrices(trx, null, input);
    if (unconfirmed) return unconfirmed;
    const last = await trx
      .selectFrom('services')
      .select((eb) => eb.fn.max('position').as('position'))
      .where('group_id', '=', group.id)
      .executeTakeFirst();
    const { id } = await trx
      .insertInto('services')
      .values({
        ...serviceColumns(input),
        group_id: group.id,
        position: nextPosition(last),
        published_at: input.status === 'published' ? deps.now().toISOString() : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return savedService(trx, id, input, null);
  });
}

/** Saves only when the service is still at `revision` (the one the editor opened). */
export async function saveService(
  deps: CatalogueEditorDeps,
  slug: string,
  revision: number,
  raw: unknown,
): Promise<ServiceSaveResult> {
  return writeService(deps, raw, async (trx, input, mapping) => {
    const before = await loadServiceDocument(trx, slug);
    const row = await trx
      .selectFrom('services')
      .select(['id', 'image', 'published_at', 'kind'])
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (!before || !row) return { ok: false, status: 404, message: CATALOGUE_MESSAGES.notFound };
    if (before.revision !== revision) return { ok: false, status: 409, message: CATALOGUE_MESSAGES.stale };
    const errors = await checkAgainstStore(
      trx,
      input,
      {
        id: row.id,
        slug,
        image: row.image,
        publishedAt: row.published_at,
        kind: row.kind,
      },
      mapping,
    );
    if (errors.length > 0) return invalid(errors);
    const unconfirmed = await unconfirmedRiskyPrices(trx, before, input);
    if (unconfirmed) return unconfirmed;
    // The compare-and-set: a save that committed since `before` was read leaves no row here.
    const updated = await trx
      .updateTable('services')
      .set((eb) => ({
        ...serviceColumns(input),
        revision: eb('revision', '+', 1),
        published_at: row.published_at ?? (input.status === 'published' ? deps.now().toISOString() : null),
      }))
      .where('id', '=', row.id)
      .where('revision', '=', revision)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return { ok: false, status: 409, message: CATALOGUE_MESSAGES.stale };
    return savedService(trx, row.id, input, before);
  });
}
