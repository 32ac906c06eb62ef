/**
 * What the catalogue editor's use cases work with (./editor-reads.ts, ./service-edits.ts,
 * ./group-edits.ts), built once by `createCatalogueEditor` (./editor.ts), and the pieces the
 * writes share: the write transaction with its version bump, the one slug namespace, the refusal
 * with field errors, and the next position in a list.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { bumpContentVersion } from '../content-version.ts';
import type { Catalogue } from './catalogue.ts';
import type { EditorFailure, SupplierDirectory } from './editor-types.ts';
import type { FieldError } from './service-document.ts';

export type EditorDb = Kysely<Database> | Transaction<Database>;

export interface CatalogueEditorDeps {
  db: Kysely<Database>;
  /** Told of every committed write, so its page keys and snapshot follow at once. */
  catalogue: Pick<Catalogue, 'wrote'>;
  suppliers: SupplierDirectory;
  now: () => Date;
}

/** Runs a write with the version bump; tells the catalogue (page keys, snapshot) when it committed. */
export async function inCatalogueWrite<T extends { ok: boolean }>(
  deps: Pick<CatalogueEditorDeps, 'db' | 'catalogue'>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const { result, version } = await deps.db.transaction().execute(async (trx) => {
    const result = await work(trx);
    return { result, version: result.ok ? await bumpContentVersion(trx, 'catalogue_content') : null };
  });
  if (version !== null) deps.catalogue.wrote(version);
  return result;
}

/** Groups and services share one slug namespace: both are `/service/:slug` and `/api/services/:slug`. */
export async function slugTaken(trx: EditorDb, slug: string): Promise<boolean> {
  const [service, group] = await Promise.all([
    trx.selectFrom('services').select('id').where('slug', '=', slug).executeTakeFirst(),
    trx.selectFrom('service_groups').select('id').where('slug', '=', slug).executeTakeFirst(),
  ]);
  return service !== undefined || group !== undefined;
}

/** A 400 with its field errors; the message is the error's own when there is just one. */
export function invalid(errors: FieldError[]): EditorFailure {
  return {
    ok: false,
    status: 400,
    message: errors.length === 1 && errors[0] ? errors[0].message : 'Some fields need attention.',
    errors,
  };
}

/** The position after the last one (`max(position)`), or 0 for an empty list. */
export function nextPosition(last: { position: number | string | bigint | null } | undefined): number {
  return last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1;
}
