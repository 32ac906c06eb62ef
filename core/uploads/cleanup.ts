/**
 * Uploads nobody uses any more are deleted by a recurring job: an image whose post was deleted,
 * replaced as a cover, or removed from a body, and editor uploads never saved into a post. An
 * upload is in use while any blog post names it (`image_url`, or `/uploads/<hash>` anywhere in
 * the description). A grace period keeps fresh uploads: the editor stores an image as soon as
 * it is inserted, and the post that uses it is saved minutes (or hours) later.
 */
import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { defineRecurringJob } from '../jobs/recurring.ts';
import { uploadsDir } from './images.ts';
import { UPLOAD_FILE_NAME, UPLOAD_REFERENCE } from './names.ts';

/** Recurring: the cleanup runs once per hour. */
export const UPLOADS_CLEANUP_JOB = defineRecurringJob('uploads.cleanup');
export const UPLOADS_CLEANUP_EVERY_MS = 3_600_000;
/** An upload younger than this is kept even when nothing references it yet. */
export const UPLOAD_GRACE_MS = 24 * 3_600_000;
/** Posts are read in pages of this many, so a large blog is never held in memory at once. */
const PAGE_SIZE = 200;

interface UploadsCleanupResult {
  /** Files deleted (an image's fallback and its variants count one each). */
  deletedFiles: number;
  /** Distinct images (content hashes) deleted. */
  deletedImages: number;
  /** Images kept because a post references them. */
  referencedImages: number;
}

/** Every upload hash a blog post (cover or body) or the catalogue (a group's or service's image) references. */
async function referencedUploadHashes(db: Kysely<Database>): Promise<Set<string>> {
  const hashes = new Set<string>();
  // The catalogue is small: its images in one read each (decision 044).
  for (const table of ['services', 'service_groups'] as const) {
    for (const row of await db.selectFrom(table).select('image').execute()) {
      for (const match of row.image.matchAll(UPLOAD_REFERENCE)) if (match[1]) hashes.add(match[1]);
    }
  }
  let afterId = 0;
  for (;;) {
    const rows = await db
      .selectFrom('blog_posts')
      .select(['id', 'image_url', 'description'])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(PAGE_SIZE)
      .execute();
    for (const row of rows) {
      for (const text of [row.image_url, row.description]) {
        for (const match of text.matchAll(UPLOAD_REFERENCE)) if (match[1]) hashes.add(match[1]);
      }
    }
    const last = rows.at(-1);
    if (!last || rows.length < PAGE_SIZE) return hashes;
    afterId = last.id;
  }
}

/**
 * The upload files to delete: every file of an image no post references whose newest file is
 * older than the grace period, and temporary files of interrupted writes as old as that.
 * Anything else in the folder (not written by us) is left alone.
 */
async function collectUnreferencedUploads(
  db: Kysely<Database>,
  dataDir: string,
  now: Date,
  graceMs = UPLOAD_GRACE_MS,
): Promise<{ files: string[]; images: number; referenced: number }> {
  const dir = uploadsDir(dataDir);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return { files: [], images: 0, referenced: 0 };
  }
  const referenced = await referencedUploadHashes(db);
  const cutoff = now.getTime() - graceMs;
  const byHash = new Map<string, { files: string[]; newestMs: number }>();
  const staleTemporary: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    let modifiedMs: number;
    try {
      const info = await stat(file);
      if (!info.isFile()) continue;
      modifiedMs = info.mtimeMs;
    } catch {
      continue; // removed meanwhile
    }
    if (name.startsWith('.tmp-')) {
      if (modifiedMs < cutoff) staleTemporary.push(file);
      continue;
    }
    const hash = UPLOAD_FILE_NAME.exec(name)?.[1];
    if (!hash) continue;
    const group = byHash.get(hash) ?? { files: [], newestMs: 0 };
    group.files.push(file);
    group.newestMs = Math.max(group.newestMs, modifiedMs);
    byHash.set(hash, group);
  }
  const files = [...staleTemporary];
  let images = 0;
  let kept = 0;
  for (const [hash, group] of byHash) {
    if (referenced.has(hash)) kept += 1;
    else if (group.newestMs < cutoff) {
      images += 1;
      files.push(...group.files);
    }
  }
  return { files, images, referenced: kept };
}

/** The recurring job's work: deletes what `collectUnreferencedUploads` finds. */
export async function deleteUnreferencedUploads(
  db: Kysely<Database>,
  dataDir: string,
  now: Date,
  graceMs = UPLOAD_GRACE_MS,
): Promise<UploadsCleanupResult> {
  const { files, images, referenced } = await collectUnreferencedUploads(db, dataDir, now, graceMs);
  let deletedFiles = 0;
  for (const file of files) {
    try {
      await unlink(file);
      deletedFiles += 1;
    } catch {
      // Already gone (another instance sharing DATA_DIR ran the same cleanup): nothing to do.
    }
  }
  return { deletedFiles, deletedImages: images, referencedImages: referenced };
}
