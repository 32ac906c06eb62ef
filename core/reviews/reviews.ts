/**
 * Real reviews (decision 039): the invitation the completion e-mail carries, the review page's
 * lookup and submit, the admin's moderation, and what the public pages show (the home carousel,
 * the service pages' AggregateRating).
 *
 * - The link's token is 32 bytes from `crypto.randomBytes` (256 bits), base64url. Only its SHA-256
 *   is stored, so the database (or a backup) cannot be turned into working links; the token itself
 *   exists only in the e-mail. It is never logged: it travels in the page's path, which the request
 *   log blanks (server/logging.ts), and in the submit's JSON body, which is never logged.
 * - One invitation per order (`order_id` unique): made in the transaction that queues the
 *   completion e-mail, so a retried event makes no second one (and its mail is deduplicated).
 * - Submitting spends the token by compare-and-set (`used_at IS NULL` and not expired) in the
 *   same transaction that stores the review: two submits, a double click or a race give one review.
 * - Moderation is a compare-and-set on `state`; every change bumps `reviews_content.version`,
 *   which the page caches of every instance key on (as the blog's version, decision 005).
 */
import { bumpContentVersion, createContentVersion, readContentVersion } from '../content-version.ts';
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { isPostgres } from '../../db/dialect.ts';
import type { Database, ReviewState } from '../../db/schema.ts';
import type { AuditSink } from '../audit/audit.ts';
import type { PublicReview } from '../catalogue/reviews.ts';
import { type Clock, systemClock } from '../clock.ts';
import { publicOrderId } from '../orders/types.ts';
import {
  type AdminReviewRow,
  REVIEWS_DEFAULT_PAGE_SIZE,
  type ReviewFilter,
  type ReviewInput,
  type ReviewListQuery,
} from './contracts.ts';
import { REVIEW_TOKEN_PATTERN, type ReviewLinkProblem } from './rules.ts';

/** How long a review link works after the order completes. */
const REVIEW_LINK_TTL_MS = 60 * 24 * 60 * 60 * 1000;
/** How many approved reviews the home page's carousel shows, newest first. */
const CAROUSEL_REVIEW_COUNT = 12;

type Db = Kysely<Database> | Transaction<Database>;

function hashReviewToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The review page's path for a token. */
export function reviewPath(token: string): string {
  return `/review/${token}`;
}

/**
 * Makes the order's review invitation, in the caller's transaction (the one that queues the
 * completion e-mail). Returns the token for the e-mail's link, or null when the order already has
 * an invitation (its e-mail was queued then; only the hash was kept, so no second link exists).
 */
export async function createReviewInvitation(
  trx: Transaction<Database>,
  options: { orderId: number; now: Date; ttlMs?: number },
): Promise<string | null> {
  const token = randomBytes(32).toString('base64url');
  const inserted = await trx
    .insertInto('review_invitations')
    .values({
      order_id: options.orderId,
      token_hash: hashReviewToken(token),
      created_at: options.now.toISOString(),
      expires_at: new Date(options.now.getTime() + (options.ttlMs ?? REVIEW_LINK_TTL_MS)).toISOString(),
    })
    .onConflict((oc) => oc.column('order_id').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1 ? token : null;
}

/** What the review page shows about the order: never the e-mail address or the target. */
interface ReviewedOrder {
  orderNumber: string;
  serviceName: string;
  quantity: number;
  /** When the order was placed (ISO 8601). */
  orderedAt: string;
}

export type ReviewInvitationView = { state: 'open'; order: ReviewedOrder } | { state: ReviewLinkProblem };

export type ReviewSubmitResult = { ok: true; reviewId: number } | { ok: false; problem: ReviewLinkProblem };

export interface ReviewAggregate {
  /** The mean rating, rounded to one decimal. */
  ratingValue: number;
  reviewCount: number;
}

export interface ReviewList {
  rows: AdminReviewRow[];
  count: number;
  totalPages: number;
  currentPage: number;
}

export type ReviewDecisionResult = { found: false } | { found: true; id: number; state: ReviewState; changed: boolean };

export interface Reviews {
  /** The review page's view of a link: the order it is about, or why it cannot be used. */
  invitation(token: string): Promise<ReviewInvitationView>;
  /** Stores the review and spends the link, once (compare-and-set). */
  submit(input: ReviewInput): Promise<ReviewSubmitResult>;
  /** Moderation list: pending first, then newest first. */
  list(query: ReviewListQuery): Promise<ReviewList>;
  /** Reviews waiting for a decision (the admin navigation's count; a partial index). */
  pendingCount(): Promise<number>;
  /** Approve or reject (compare-and-set on the state); a change bumps the content version. */
  decide(
    id: number,
    to: 'approved' | 'rejected',
    adminId: number,
    /** Told the state it moved from and to (the audit log), when it changed. */
    options?: { audit?: AuditSink | undefined },
  ): Promise<ReviewDecisionResult>;
  /** The home page's carousel: the newest approved reviews. */
  approved(limit?: number): Promise<PublicReview[]>;
  /** A service page's AggregateRating: null when the service has no approved review. */
  aggregateFor(serviceSlug: string): Promise<ReviewAggregate | null>;
  /** Read from the database: bumps on every moderation change by any instance. */
  contentVersion(): Promise<number>;
  /** The last version this instance saw, for page cache keys (as `Blog.knownContentVersion`). */
  knownContentVersion(): number;
}

interface ReviewsOptions {
  db: Kysely<Database>;
  now?: Clock;
}

export function createReviews(options: ReviewsOptions): Reviews {
  const { db } = options;
  const clock = options.now ?? systemClock;
  const lockRows = isPostgres(db);

  const contentVersion = createContentVersion(() => readContentVersion(db, 'reviews_content'));
  const sawVersion = contentVersion.saw;

  /** Why a link that could not be spent cannot be used. */
  const problemOf = async (from: Db, tokenHash: string, now: string): Promise<ReviewLinkProblem> => {
    const row = await from
      .selectFrom('review_invitations')
      .select(['used_at', 'expires_at'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!row) return 'unknown';
    if (row.used_at !== null) return 'used';
    return row.expires_at <= now ? 'expired' : 'unknown';
  };

  const reviews: Reviews = {
    async invitation(token) {
      if (!REVIEW_TOKEN_PATTERN.test(token)) return { state: 'unknown' };
      const now = clock().toISOString();
      const row = await db
        .selectFrom('review_invitations as i')
        .innerJoin('orders as o', 'o.id', 'i.order_id')
        .select(['i.used_at', 'i.expires_at', 'o.provider_order_id', 'o.service_name', 'o.quantity', 'o.created_at'])
        .where('i.token_hash', '=', hashReviewToken(token))
        .executeTakeFirst();
      if (!row) return { state: 'unknown' };
      if (row.used_at !== null) return { state: 'used' };
      if (row.expires_at <= now) return { state: 'expired' };
      return {
        state: 'open',
        order: {
          orderNumber: publicOrderId(row.provider_order_id),
          serviceName: row.service_name,
          quantity: row.quantity,
          orderedAt: row.created_at,
        },
      };
    },

    async submit(input) {
      if (!REVIEW_TOKEN_PATTERN.test(input.token)) return { ok: false, problem: 'unknown' };
      const tokenHash = hashReviewToken(input.token);
      const now = clock().toISOString();
      return db.transaction().execute(async (trx): Promise<ReviewSubmitResult> => {
        // The compare-and-set: of two submits, one finds the link unused; the other waits for its
        // row lock (PostgreSQL) or its turn (SQLite) and then finds it used.
        const spent = await trx
          .updateTable('review_invitations')
          .set({ used_at: now })
          .where('token_hash', '=', tokenHash)
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .returning('order_id')
          .executeTakeFirst();
        if (!spent) return { ok: false, problem: await problemOf(trx, tokenHash, now) };
        const order = await trx
          .selectFrom('orders')
          .select('service_slug')
          .where('id', '=', spent.order_id)
          .executeTakeFirstOrThrow();
        const created = await trx
          .insertInto('reviews')
          .values({
            order_id: spent.order_id,
            service_slug: order.service_slug,
            rating: input.rating,
            body: input.text,
            display_name: input.name,
            created_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        return { ok: true, reviewId: created.id };
      });
    },

    async list(query) {
      const size = query.size ?? REVIEWS_DEFAULT_PAGE_SIZE;
      const page = query.page ?? 1;
      const status: ReviewFilter = query.status ?? 'all';
      let base = db.selectFrom('reviews as r').innerJoin('orders as o', 'o.id', 'r.order_id');
      if (status !== 'all') base = base.where('r.state', '=', status);
      const counted = await base.select((eb) => eb.fn.countAll<number | string | bigint>().as('n')).executeTakeFirst();
      const count = Number(counted?.n ?? 0);
      const rows = await base
        .select([
          'r.id',
          'r.rating',
          'r.body',
          'r.display_name',
          'r.state',
          'r.created_at',
          'r.decided_at',
          'o.provider_order_id',
          'o.service_name',
          'o.quantity',
        ])
        // Pending first (what needs a decision), then newest first.
        .orderBy((eb) => eb.case().when('r.state', '=', 'pending').then(0).else(1).end())
        .orderBy('r.created_at', 'desc')
        .orderBy('r.id', 'desc')
        .limit(size)
        .offset((page - 1) * size)
        .execute();
      return {
        rows: rows.map((row) => ({
          id: row.id,
          rating: row.rating,
          text: row.body,
          name: row.display_name,
          state: row.state,
          createdAt: row.created_at,
          decidedAt: row.decided_at,
          orderId: publicOrderId(row.provider_order_id),
          serviceName: row.service_name,
          quantity: row.quantity,
        })),
        count,
        totalPages: Math.ceil(count / size),
        currentPage: page,
      };
    },

    async pendingCount() {
      const row = await db
        .selectFrom('reviews')
        .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
        .where('state', '=', 'pending')
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    async decide(id, to, adminId, decideOptions = {}) {
      const now = clock().toISOString();
      const result = await db.transaction().execute(async (trx) => {
        // The state it moves from, for the audit log: locked on PostgreSQL until the transaction
        // ends, and SQLite writes one transaction at a time, so the update below replaces this one.
        let current = trx.selectFrom('reviews').select('state').where('id', '=', id);
        if (lockRows) current = current.forUpdate();
        const before = await current.executeTakeFirst();
        if (!before) return null;
        const changed = await trx
          .updateTable('reviews')
          .set({ state: to, decided_at: now, decided_by: adminId })
          .where('id', '=', id)
          .where('state', '!=', to)
          .where('state', '=', before.state)
          .executeTakeFirst();
        if (Number(changed.numUpdatedRows) === 0) {
          const row = await trx.selectFrom('reviews').select('state').where('id', '=', id).executeTakeFirst();
          return row
            ? { found: true as const, id, state: row.state, changed: false, version: null, from: row.state }
            : null;
        }
        const version = await bumpContentVersion(trx, 'reviews_content');
        return { found: true as const, id, state: to, changed: true, version, from: before.state };
      });
      if (!result) return { found: false };
      if (result.version !== null) sawVersion(result.version);
      if (result.changed) decideOptions.audit?.({ before: { state: result.from }, after: { state: result.state } });
      return { found: true, id: result.id, state: result.state, changed: result.changed };
    },

    async approved(limit = CAROUSEL_REVIEW_COUNT) {
      const rows = await db
        .selectFrom('reviews as r')
        .innerJoin('orders as o', 'o.id', 'r.order_id')
        .select(['r.display_name', 'r.rating', 'r.body', 'r.created_at', 'o.service_name'])
        .where('r.state', '=', 'approved')
        .orderBy('r.created_at', 'desc')
        .orderBy('r.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((row) => ({
        name: row.display_name,
        rating: row.rating,
        text: row.body,
        serviceName: row.service_name,
        createdAt: row.created_at,
      }));
    },

    async aggregateFor(serviceSlug) {
      const row = await db
        .selectFrom('reviews')
        .select((eb) => [
          eb.fn.countAll<number | string | bigint>().as('n'),
          eb.fn.sum<number | string | bigint | null>('rating').as('total'),
        ])
        .where('service_slug', '=', serviceSlug)
        .where('state', '=', 'approved')
        .executeTakeFirst();
      const reviewCount = Number(row?.n ?? 0);
      if (reviewCount === 0) return null;
      const total = Number(row?.total ?? 0);
      return { ratingValue: Math.round((total / reviewCount) * 10) / 10, reviewCount };
    },

    contentVersion: contentVersion.read,
    knownContentVersion: contentVersion.known,
  };
  return reviews;
}
