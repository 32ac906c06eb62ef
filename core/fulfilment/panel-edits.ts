/**
 * Adding, editing and removing the owner's supplier panels.
 *
 * - A stored panel is checked before it is saved: the URL and key must answer `balance`, and the
 *   refusal says what failed. Its key is sealed (./panel-keys.ts) with the row's id.
 * - The environment panel (id 1) keeps its URL and key in the environment: only its name and
 *   threshold change here, and it cannot be removed.
 * - Removing is refused while a tier is mapped to the panel or an unfinished order was placed
 *   with it (not yet final, or with an open refill).
 */
import { isUniqueViolation } from '../../db/dialect.ts';
import { parseAmountE4 } from '../money/money.ts';
import { SUPPLIER_KEY_MISSING_MESSAGE } from './panel-keys.ts';
import { forgetBalanceReader } from './panel-balances.ts';
import { panelView, unfinishedOrders } from './panel-listing.ts';
import { type SupplierAdminDeps, SupplierAdminError, panelRow, reasonOf } from './panels-admin-deps.ts';
import { type AddPanelInput, type EditPanelInput, type PanelView, SUPPLIER_MESSAGES } from './supplier-contracts.ts';
import type { SupplierBalance, SupplierPanel } from './supplier.ts';

/** Asks `balance` with a URL and key not saved yet; refuses with what failed. */
async function probe(client: SupplierPanel): Promise<SupplierBalance> {
  try {
    return await client.balance();
  } catch (error) {
    throw new SupplierAdminError(SUPPLIER_MESSAGES.probeFailed(reasonOf(error)), 400, 'url');
  }
}

/** A URL a stored panel may not use is refused before anything is sent to it. */
function refuseUnsafeUrl({ panels }: Pick<SupplierAdminDeps, 'panels'>, url: string): void {
  const problem = panels.urlProblem(url);
  if (problem) throw new SupplierAdminError(problem, 400, 'url');
}

/** A name another panel has is refused before anything is asked; the unique index catches a race. */
async function refuseTakenName(
  { db }: Pick<SupplierAdminDeps, 'db'>,
  name: string,
  exceptPanelId?: number,
): Promise<void> {
  let query = db.selectFrom('supplier_panels').select('id').where('name', '=', name);
  if (exceptPanelId !== undefined) query = query.where('id', '!=', exceptPanelId);
  if (await query.executeTakeFirst()) throw new SupplierAdminError(SUPPLIER_MESSAGES.nameTaken, 409, 'name');
}

/** Runs a write whose unique name may have been taken meanwhile: that is the name's 409. */
async function withNameTaken<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new SupplierAdminError(SUPPLIER_MESSAGES.nameTaken, 409, 'name');
    throw error;
  }
}

/** A stored panel, saved once its URL and key have answered `balance`. */
export async function addPanel(deps: SupplierAdminDeps, input: AddPanelInput): Promise<PanelView> {
  const { db, sealer } = deps;
  if (!sealer) throw new SupplierAdminError(SUPPLIER_KEY_MISSING_MESSAGE, 409);
  await refuseTakenName(deps, input.name);
  refuseUnsafeUrl(deps, input.url);
  const answer = await probe(deps.panels.probe(input.url, input.apiKey));
  const at = deps.now().toISOString();
  const id = await withNameTaken(() =>
    db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('supplier_panels')
        .values({
          name: input.name,
          kind: 'stored',
          url: input.url,
          key_sealed: null,
          currency: answer.currency || null,
          low_balance_threshold_e4: input.lowBalanceThreshold == null ? null : parseAmountE4(input.lowBalanceThreshold),
          low_balance_alerted_at: null,
          created_at: at,
          updated_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // Sealed with the row's id as associated data: the id exists only now.
      await trx
        .updateTable('supplier_panels')
        .set({ key_sealed: sealer.seal(row.id, input.apiKey) })
        .where('id', '=', row.id)
        .execute();
      return row.id;
    }),
  );
  return panelView(deps, id);
}

/** A new name, threshold, URL or key; a new URL or key is saved only once it answers `balance`. */
export async function editPanel(deps: SupplierAdminDeps, panelId: number, input: EditPanelInput): Promise<PanelView> {
  const { db, sealer } = deps;
  const row = await panelRow(deps, panelId);
  const changes: Partial<{
    name: string;
    url: string;
    key_sealed: string;
    low_balance_threshold_e4: number | null;
    low_balance_alerted_at: null;
    currency: string | null;
  }> = {};
  if (input.name !== undefined && input.name !== row.name) {
    await refuseTakenName(deps, input.name, panelId);
    changes.name = input.name;
  }
  const urlChanged = input.url !== undefined && input.url !== row.url;
  if (row.kind === 'environment' && (urlChanged || input.apiKey !== undefined))
    throw new SupplierAdminError(SUPPLIER_MESSAGES.environmentFixed, 400, input.apiKey ? 'apiKey' : 'url');
  if (row.kind === 'stored' && (urlChanged || input.apiKey !== undefined)) {
    if (!sealer) throw new SupplierAdminError(SUPPLIER_KEY_MISSING_MESSAGE, 409);
    const url = input.url ?? row.url ?? '';
    // A new URL with the saved key: the key is opened here only to ask `balance` with it.
    const key = input.apiKey ?? (row.key_sealed ? sealer.open(panelId, row.key_sealed) : '');
    if (!key) throw new SupplierAdminError(SUPPLIER_MESSAGES.keyRequired, 400, 'apiKey');
    refuseUnsafeUrl(deps, url);
    const answer = await probe(deps.panels.probe(url, key));
    if (urlChanged) changes.url = url;
    if (input.apiKey !== undefined) changes.key_sealed = sealer.seal(panelId, input.apiKey);
    changes.currency = answer.currency || row.currency;
  }
  if (input.lowBalanceThreshold !== undefined) {
    const next = input.lowBalanceThreshold === null ? null : parseAmountE4(input.lowBalanceThreshold);
    if (next !== (row.low_balance_threshold_e4 === null ? null : Number(row.low_balance_threshold_e4))) {
      changes.low_balance_threshold_e4 = next;
      // A new threshold is judged afresh: the next check may e-mail again.
      changes.low_balance_alerted_at = null;
    }
  }
  if (Object.keys(changes).length > 0) {
    await withNameTaken(() =>
      db
        .updateTable('supplier_panels')
        .set({ ...changes, updated_at: deps.now().toISOString() })
        .where('id', '=', panelId)
        .execute(),
    );
    // The balance is asked again with the new URL or key.
    forgetBalanceReader(deps, panelId);
  }
  return panelView(deps, panelId);
}

/** Refused for the environment panel, and while a tier or an unfinished order uses the panel. */
export async function removePanel(deps: SupplierAdminDeps, panelId: number): Promise<void> {
  const row = await panelRow(deps, panelId);
  if (row.kind === 'environment') throw new SupplierAdminError(SUPPLIER_MESSAGES.environmentNotRemovable, 409);
  await deps.db.transaction().execute(async (trx) => {
    const tiers = Number(
      (
        await trx
          .selectFrom('price_tiers')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('supplier_panel_id', '=', panelId)
          .executeTakeFirstOrThrow()
      ).n,
    );
    if (tiers > 0) throw new SupplierAdminError(SUPPLIER_MESSAGES.inUseByTiers(tiers), 409);
    const unfinished = await unfinishedOrders(trx, panelId);
    if (unfinished > 0) throw new SupplierAdminError(SUPPLIER_MESSAGES.inUseByOrders(unfinished), 409);
    await trx.deleteFrom('supplier_services').where('panel_id', '=', panelId).execute();
    await trx.deleteFrom('supplier_panels').where('id', '=', panelId).execute();
  });
  forgetBalanceReader(deps, panelId);
}
