/**
 * Admin accounts for suites that test what comes after the password (the second factor, the
 * lockout, tokens), not the hashing. `createAdmin` hashes with today's scrypt parameters
 * (N=2^15, a third of a second on a busy 2-core machine), and every later check of that hash costs
 * as much; a lockout test makes dozens. A stored hash carries its own parameters, which
 * `verifyPassword` reads (core/auth/passwords.ts), so the row written here holds the kind of hash
 * an account from an older store would: scrypt at N=2^10, 32 times less work, checked by the real
 * code. The first right password re-hashes it with today's parameters (`needsRehash`), as it would
 * for such an account; from then on its checks cost what the suites' hashes cost (core/auth/passwords.ts,
 * `useTestHashCost`: N=2^12 in the in-process apps).
 *
 * Suites about the hashing and the accounts themselves keep using `createAdmin`
 * (tests/unit/passwords.test.ts, the "accounts" and first-login cases of admin-auth, admin-cli).
 */
import { randomBytes, scryptSync } from 'node:crypto';
import type { Kysely } from 'kysely';
import { normaliseEmail } from '../../core/auth/admin-errors.ts';
import type { Database } from '../../db/schema.ts';

/** The cheaper parameters of the seeded hashes: valid for `verifyPassword`, flagged by `needsRehash`. */
const SEEDED_SCRYPT = { N: 2 ** 10, r: 8, p: 1 } as const;

/** A hash in the stored format (`scrypt$N$r$p$salt$hash`) with the seeded parameters. */
function seededPasswordHash(password: string): string {
  const { N, r, p } = SEEDED_SCRYPT;
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N, r, p });
  return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * An admin row as `createAdmin` writes it (e-mail trimmed and lowercased), with a seeded hash;
 * `verified` marks it as having passed its first e-mailed code.
 */
export async function seedAdmin(
  db: Kysely<Database>,
  rawEmail: string,
  password: string,
  options: { verified: boolean; at?: Date },
): Promise<{ id: number; email: string }> {
  const email = normaliseEmail(rawEmail);
  const at = (options.at ?? new Date()).toISOString();
  const row = await db
    .insertInto('admins')
    .values({
      email,
      password_hash: seededPasswordHash(password),
      is_verified: options.verified ? 1 : 0,
      locked_until: null,
      last_failed_at: null,
      created_at: at,
      updated_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, email };
}
