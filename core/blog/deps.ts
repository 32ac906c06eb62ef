/**
 * What every blog use case works with, built once by `createBlog` (./blog.ts) and passed as the
 * first argument of each function in ./reads.ts, ./writes.ts and ./seed.ts.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import type { ContentVersion } from '../content-version.ts';
import { sanitizeBlogHtml } from '../html/sanitize.ts';
import type { BlogImage } from './contracts.ts';
import type { PublishSchedule } from './publish-schedule.ts';

/** Stores an uploaded cover image (`storeUploadedImage` in core/uploads, bound to the data directory). */
export type StoreBlogImage = (
  bytes: Buffer,
) => Promise<{ ok: true; image: BlogImage } | { ok: false; message: string; status: 400 | 413 }>;

export type BlogDb = Kysely<Database> | Transaction<Database>;

export interface BlogDeps {
  db: Kysely<Database>;
  clock: Clock;
  /** The store's PUBLIC_URL: links to it are internal for the sanitiser, its upload URLs become relative. */
  publicUrl?: string | undefined;
  /** Needed only by writes that upload a cover image. */
  images?: StoreBlogImage | undefined;
  /** This instance's view of `blog_content.version`, which every write bumps. */
  contentVersion: ContentVersion;
  /** The next scheduled post's publish time, which changes what the public sees with no write. */
  publishSchedule: PublishSchedule;
}

/** The time a write stamps on its rows. */
export function nowText(deps: Pick<BlogDeps, 'clock'>): string {
  return deps.clock().toISOString();
}

/** A post body as it is stored: sanitised, with links to the store itself kept internal. */
export function sanitizePostBody(deps: Pick<BlogDeps, 'publicUrl'>, html: string): string {
  return sanitizeBlogHtml(html, deps.publicUrl === undefined ? {} : { publicUrl: deps.publicUrl });
}
