/**
 * The renewal link's token (decision 057): 32 random bytes, base64url, e-mailed once in the
 * reminder; the subscriptions row keeps only its sha256, so a copy of the database opens no
 * renewal. Kept apart from the reminder job so the checkout can ask "which subscription does this
 * token renew?" without importing mail or the catalogue.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** A renewal link still renews this long after the period ended; later it is refused as stale. */
export const RENEWAL_LINK_GRACE_MS = 14 * 86_400_000;

/** 32 bytes in base64url: 43 characters of [A-Za-z0-9_-]. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newRenewalToken(): string {
  return randomBytes(32).toString('base64url');
}

export function renewalTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether a text can be a renewal token at all (anything else is refused without a query). */
export function isRenewalTokenShape(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

/** The subscription a token was issued for, with its order's facts; null for an unknown token. */
export async function subscriptionOfToken(db: Kysely<Database> | Transaction<Database>, token: string) {
  if (!isRenewalTokenShape(token)) return null;
  const row = await db
    .selectFrom('subscriptions as s')
    .innerJoin('orders as o', 'o.id', 's.order_id')
    .select([
      's.order_id',
      's.kind',
      's.ends_at',
      's.ended_at',
      's.reminders',
      's.renewed_by_order_id',
      'o.provider_order_id',
      'o.email',
      'o.service_slug',
      'o.service_name',
      'o.plan_type',
      'o.quantity',
      'o.target',
    ])
    .where('s.renewal_token_hash', '=', renewalTokenHash(token))
    .executeTakeFirst();
  return row ?? null;
}

/** Whether a renewal link is too old to renew (its period ended more than the grace ago). */
export function isStaleRenewal(endsAt: string | null, now: Date): boolean {
  return endsAt === null || now.getTime() > Date.parse(endsAt) + RENEWAL_LINK_GRACE_MS;
}

/**
 * The order a new order renews: the token's subscription when it is unused, not stale, and of
 * the same service and target (a token cannot renew someone else's account). Null otherwise: the
 * new order is then an ordinary order, not linked to anything.
 */
export async function renewableOrderId(
  db: Kysely<Database> | Transaction<Database>,
  token: string | undefined,
  order: { service_slug: string; target: string },
  now: Date,
): Promise<number | null> {
  if (!token) return null;
  const renewed = await subscriptionOfToken(db, token.trim());
  if (!renewed || renewed.renewed_by_order_id !== null || isStaleRenewal(renewed.ends_at, now)) return null;
  if (renewed.service_slug !== order.service_slug || renewed.target !== order.target) return null;
  return renewed.order_id;
}
