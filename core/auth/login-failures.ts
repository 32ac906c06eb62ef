/**
 * Failed admin logins, counted per account AND source address (decision 016), so nobody can
 * lock the admin out: guesses from other addresses lock only those addresses.
 *
 * - Per source: a run of failures from one address for one account, each within `lockoutMs`
 *   (15 min) of the previous, locks that address for that account for `lockoutMs` once it
 *   reaches `maxFailures` (5). The attempt that reaches it is already told 429; while locked,
 *   even the right password from that address gets 429 unchecked.
 * - Across sources: every failure in the last `lockoutMs`, from any address, counts towards the
 *   account's pressure; past `slowdownAfter` (10) failures each further failed attempt is
 *   answered only after a delay that doubles per failure, capped at `slowdownMaxMs` (5 s). The
 *   right password is never delayed, so the admin's own login stays fast under attack.
 * - A failure is a wrong password or a wrong second factor (code, TOTP, recovery code), so a
 *   thief who has the password guesses the second factor no faster than the password.
 *
 * Rows are keyed by the normalised e-mail tried, admin or not, so a lockout reveals nothing.
 * Every change is one statement (an upsert), so parallel guesses all count, on every instance.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

const DEFAULT_MAX_FAILED_LOGINS = 5;
const DEFAULT_LOCKOUT_MS = 15 * 60_000;
const DEFAULT_SLOWDOWN_AFTER = 10;
const DEFAULT_SLOWDOWN_BASE_MS = 250;
const DEFAULT_SLOWDOWN_MAX_MS = 5_000;

interface LoginFailuresOptions {
  db: Kysely<Database>;
  maxFailures?: number;
  lockoutMs?: number;
  slowdownAfter?: number;
  slowdownBaseMs?: number;
  slowdownMaxMs?: number;
}

export interface LoginFailures {
  /** Milliseconds this source stays locked out of this account at `at`, or 0. */
  lockedFor(account: string, source: string, at: Date): Promise<number>;
  /**
   * Counts a failure from `source`; returns how long the source is now locked (0: not locked)
   * and how long to hold the reply back (the account-wide slowdown).
   */
  fail(account: string, source: string, at: Date): Promise<{ lockedForMs: number; delayMs: number }>;
  /** A success from `source` ends its run (other sources' runs and locks stay). */
  succeed(account: string, source: string): Promise<void>;
}

/** The account-wide delay after `recentFailures` failures in the window. */
function slowdownMs(recentFailures: number, after: number, baseMs: number, maxMs: number): number {
  if (recentFailures <= after) return 0;
  const doublings = Math.min(30, recentFailures - after - 1);
  return Math.min(maxMs, baseMs * 2 ** doublings);
}

export function createLoginFailures(options: LoginFailuresOptions): LoginFailures {
  const {
    db,
    maxFailures = DEFAULT_MAX_FAILED_LOGINS,
    lockoutMs = DEFAULT_LOCKOUT_MS,
    slowdownAfter = DEFAULT_SLOWDOWN_AFTER,
    slowdownBaseMs = DEFAULT_SLOWDOWN_BASE_MS,
    slowdownMaxMs = DEFAULT_SLOWDOWN_MAX_MS,
  } = options;

  return {
    async lockedFor(account, source, at) {
      const row = await db
        .selectFrom('admin_login_failures')
        .select('locked_until')
        .where('account', '=', account)
        .where('source', '=', source)
        .executeTakeFirst();
      return row?.locked_until ? Math.max(0, Date.parse(row.locked_until) - at.getTime()) : 0;
    },

    async fail(account, source, at) {
      const atIso = at.toISOString();
      const runStart = new Date(at.getTime() - lockoutMs).toISOString();
      const lockEnd = new Date(at.getTime() + lockoutMs).toISOString();
      // The SET expressions read the row as it was: the run goes on only if its last failure is recent.
      const failures = sql<number>`(case when admin_login_failures.last_failed_at > ${runStart} then admin_login_failures.failures + 1 else 1 end)`;
      const row = await db
        .insertInto('admin_login_failures')
        .values({
          account,
          source,
          failures: 1,
          last_failed_at: atIso,
          locked_until: maxFailures <= 1 ? lockEnd : null,
        })
        .onConflict((oc) =>
          oc.columns(['account', 'source']).doUpdateSet({
            failures,
            last_failed_at: atIso,
            locked_until: sql<
              string | null
            >`(case when ${failures} >= ${maxFailures} then ${lockEnd} else admin_login_failures.locked_until end)`,
          }),
        )
        .returning(['failures', 'locked_until'])
        .executeTakeFirstOrThrow();
      const lockedForMs =
        row.failures >= maxFailures && row.locked_until ? Math.max(0, Date.parse(row.locked_until) - at.getTime()) : 0;

      const recent = await db
        .selectFrom('admin_login_failures')
        .select((eb) => eb.fn.sum<number | string | null>('failures').as('total'))
        .where('account', '=', account)
        .where('last_failed_at', '>', runStart)
        .executeTakeFirst();
      const delayMs = slowdownMs(Number(recent?.total ?? 0), slowdownAfter, slowdownBaseMs, slowdownMaxMs);

      // Housekeeping: runs that ended and locks that expired carry no information any more.
      await db
        .deleteFrom('admin_login_failures')
        .where('last_failed_at', '<=', runStart)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', atIso)]))
        .execute();
      return { lockedForMs, delayMs };
    },

    async succeed(account, source) {
      await db.deleteFrom('admin_login_failures').where('account', '=', account).where('source', '=', source).execute();
    },
  };
}
