/**
 * Where the key of the admins' TOTP secrets comes from, and what boot does about it (decision
 * 022): TOTP_ENCRYPTION_KEY from the environment, never the database. Without it, production
 * offers no TOTP and refuses to boot while an admin uses it; development falls back to the
 * install secret in `settings`, as before, with a warning. With it, boot moves every secret
 * sealed under the old install secret or TOTP_ENCRYPTION_KEY_PREVIOUS to the current key and
 * deletes the database's copy of the old key. The recovery codes' HMAC key lives in `settings`
 * sealed under the environment key.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import {
  type DatabaseKeyBox,
  type EnvironmentSealer,
  TOTP_KEY_HINT,
  type TotpEnvironmentKeys,
  createDatabaseKeyBox,
  createEnvironmentSealer,
  isSealedUnderEnvironmentKey,
  parseTotpKey,
  totpSecretContext,
} from './totp.ts';

/**
 * The install secret TOTP secrets were sealed under before decision 022 (development without
 * TOTP_ENCRYPTION_KEY still uses it); deleted once nothing is sealed under it.
 */
export const DATABASE_KEY_SETTING = 'admin.second-factor-key';
/** The recovery codes' HMAC key, sealed under TOTP_ENCRYPTION_KEY (decision 022). */
export const RECOVERY_CODE_KEY_SETTING = 'admin.recovery-code-key';
const RECOVERY_CODE_KEY_CONTEXT = 'admin-recovery-code-key';

/** What the security page says when the server cannot offer TOTP (production without the key). */
export const TOTP_UNAVAILABLE_MESSAGE =
  'An authenticator app cannot be set up on this server yet: it has no TOTP_ENCRYPTION_KEY to encrypt the secret with. Ask whoever runs the store to set it (see docs/operations.md); logins keep using e-mailed codes meanwhile.';

/**
 * Where the key that encrypts TOTP secrets comes from (decision 022):
 * - `environment`: TOTP_ENCRYPTION_KEY (and TOTP_ENCRYPTION_KEY_PREVIOUS while rotating);
 * - `database`: development and tests without it, the install secret in `settings` as before;
 * - `unavailable`: production without it: no enrolment, and no boot while secrets exist.
 */
export type TotpKeySource =
  { kind: 'environment'; keys: TotpEnvironmentKeys } | { kind: 'database' } | { kind: 'unavailable' };

/** The key source for the configured variables (already checked by the config). */
export function totpKeySource(options: {
  key?: string | undefined;
  previous?: string | undefined;
  production: boolean;
}): TotpKeySource {
  if (!options.key) return options.production ? { kind: 'unavailable' } : { kind: 'database' };
  const current = parseTotpKey(options.key);
  const previous = options.previous ? parseTotpKey(options.previous) : null;
  if (!current || (options.previous && !previous)) throw new TypeError('TOTP_ENCRYPTION_KEY: not 32 bytes');
  return { kind: 'environment', keys: { current, previous } };
}

/** The store must not start: admins' TOTP secrets cannot be read with the configured keys. */
export class TotpKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TotpKeyError';
  }
}

interface TotpKeyReport {
  /** One line for the boot log (development without the key), or null. */
  warning: string | null;
  /** Secrets sealed again under the current key at this boot. */
  reencrypted: number;
  /** Whether this boot deleted the database's copy of the old key. */
  databaseKeyDeleted: boolean;
}

const changed = (result: { numUpdatedRows?: bigint | undefined }) => Number(result.numUpdatedRows ?? 0) > 0;

const readSetting = async (db: Kysely<Database>, key: string): Promise<string | null> =>
  (await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value ?? null;

/**
 * The recovery codes' HMAC key, kept in `settings` sealed under the environment key: made once
 * (from the old install secret when there is one, so codes issued before decision 022 keep
 * working; else at random), sealed again under the current key after a rotation. Safe when
 * several instances start at once: the first insert wins, and the re-seal is a compare-and-set.
 */
export async function recoveryCodeKey(db: Kysely<Database>, sealer: EnvironmentSealer): Promise<Buffer> {
  // A few rounds cover instances racing to make it; more means they replace each other's, with
  // different keys: a configuration error.
  for (let round = 0; round < 5; round += 1) {
    const stored = await readSetting(db, RECOVERY_CODE_KEY_SETTING);
    if (stored !== null) {
      let key: Buffer;
      try {
        key = sealer.open(RECOVERY_CODE_KEY_CONTEXT, stored);
      } catch {
        // Sealed under a key no longer configured: harmless to replace while no code uses it.
        const inUse = await db.selectFrom('admin_recovery_codes').select('id').executeTakeFirst();
        if (inUse) {
          throw new TotpKeyError(
            'The recovery codes key is sealed under a key that is neither TOTP_ENCRYPTION_KEY nor TOTP_ENCRYPTION_KEY_PREVIOUS: set TOTP_ENCRYPTION_KEY_PREVIOUS to the key used before.',
          );
        }
        await db
          .deleteFrom('settings')
          .where('key', '=', RECOVERY_CODE_KEY_SETTING)
          .where('value', '=', stored)
          .execute();
        continue;
      }
      if (!sealer.isCurrent(stored)) {
        await db
          .updateTable('settings')
          .set({ value: sealer.seal(RECOVERY_CODE_KEY_CONTEXT, key) })
          .where('key', '=', RECOVERY_CODE_KEY_SETTING)
          .where('value', '=', stored)
          .execute();
      }
      return key;
    }
    const installSecret = await readSetting(db, DATABASE_KEY_SETTING);
    const key = installSecret ? createDatabaseKeyBox(installSecret).macKey : randomBytes(32);
    await db
      .insertInto('settings')
      .values({ key: RECOVERY_CODE_KEY_SETTING, value: sealer.seal(RECOVERY_CODE_KEY_CONTEXT, key) })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
  }
  throw new TotpKeyError(
    'The recovery codes key keeps changing: check that every instance has the same TOTP_ENCRYPTION_KEY.',
  );
}

type SealedColumn = 'totp_secret' | 'totp_pending_secret';

/**
 * Boot (decision 022): checks that every admin's TOTP secret can be read with the configured
 * keys, and with TOTP_ENCRYPTION_KEY re-encrypts each secret not under it yet (sealed under the
 * database's old key, or under TOTP_ENCRYPTION_KEY_PREVIOUS), row by row with a compare-and-set
 * so instances booting together do the work once; then deletes the database's copy of the old
 * key when nothing is sealed under it any more. Throws `TotpKeyError` (one line for the
 * operator) when the store must not start.
 */
export async function prepareTotpKeys(db: Kysely<Database>, source: TotpKeySource): Promise<TotpKeyReport> {
  const enabledSecrets = await db
    .selectFrom('admin_second_factors')
    .select(['admin_id', 'totp_secret', 'totp_pending_secret'])
    .where((eb) => eb.or([eb('totp_secret', 'is not', null), eb('totp_pending_secret', 'is not', null)]))
    .execute();
  const report: TotpKeyReport = { warning: null, reencrypted: 0, databaseKeyDeleted: false };

  if (source.kind === 'unavailable') {
    const enrolled = enabledSecrets.filter((row) => row.totp_secret !== null).length;
    if (enrolled > 0) {
      throw new TotpKeyError(
        `TOTP_ENCRYPTION_KEY is not set, but ${enrolled === 1 ? '1 admin logs' : `${enrolled} admins log`} in with an authenticator app (TOTP), whose secrets production keeps only under that key: set TOTP_ENCRYPTION_KEY (${TOTP_KEY_HINT}; secrets under the database's old key move to it at boot), or turn TOTP off with \`npm run admin -- reset-2fa --email …\`.`,
      );
    }
    return report;
  }

  if (source.kind === 'database') {
    const sealedUnderEnvironment = enabledSecrets.filter((row) =>
      [row.totp_secret, row.totp_pending_secret].some((value) => value !== null && isSealedUnderEnvironmentKey(value)),
    ).length;
    if (sealedUnderEnvironment > 0) {
      throw new TotpKeyError(
        `TOTP_ENCRYPTION_KEY is not set, but ${sealedUnderEnvironment === 1 ? "1 admin's TOTP secret is" : `${sealedUnderEnvironment} admins' TOTP secrets are`} encrypted under it: set it again (the same key).`,
      );
    }
    // Nothing is sealed under an environment key: its sealed recovery-code key would only go
    // stale while development issues codes under the install secret, so it is made afresh later.
    await db.deleteFrom('settings').where('key', '=', RECOVERY_CODE_KEY_SETTING).execute();
    report.warning = `TOTP_ENCRYPTION_KEY is not set: admins' authenticator-app (TOTP) secrets are encrypted under a key kept in the same database (development only; production refuses TOTP without it; ${TOTP_KEY_HINT}).`;
    return report;
  }

  const sealer = createEnvironmentSealer(source.keys);
  await recoveryCodeKey(db, sealer);
  const installSecret = await readSetting(db, DATABASE_KEY_SETTING);
  const databaseKey: DatabaseKeyBox | null = installSecret ? createDatabaseKeyBox(installSecret) : null;
  let unreadable = 0;

  async function reseal(adminId: number, column: SealedColumn, sealed: string): Promise<void> {
    if (sealer.isCurrent(sealed)) return;
    let plain: string;
    try {
      plain = isSealedUnderEnvironmentKey(sealed)
        ? sealer.open(totpSecretContext(adminId), sealed).toString('utf8')
        : (databaseKey?.open(sealed) ?? '');
    } catch {
      plain = '';
    }
    const update = db.updateTable('admin_second_factors').where('admin_id', '=', adminId).where(column, '=', sealed);
    if (!plain) {
      // An unconfirmed set-up is only dropped (the admin starts again); an enabled secret stops the boot.
      if (column === 'totp_pending_secret') await update.set({ totp_pending_secret: null }).execute();
      else unreadable += 1;
      return;
    }
    const resealed = sealer.seal(totpSecretContext(adminId), Buffer.from(plain, 'utf8'));
    // Compare-and-set: another instance that got there first wrote it under the same key already.
    const result = await update
      .set(column === 'totp_secret' ? { totp_secret: resealed } : { totp_pending_secret: resealed })
      .executeTakeFirst();
    if (changed(result)) report.reencrypted += 1;
  }

  for (const row of enabledSecrets) {
    if (row.totp_secret !== null) await reseal(row.admin_id, 'totp_secret', row.totp_secret);
    if (row.totp_pending_secret !== null) await reseal(row.admin_id, 'totp_pending_secret', row.totp_pending_secret);
  }
  if (unreadable > 0) {
    throw new TotpKeyError(
      `${unreadable === 1 ? "1 admin's TOTP secret is" : `${unreadable} admins' TOTP secrets are`} encrypted under a key that is neither TOTP_ENCRYPTION_KEY nor TOTP_ENCRYPTION_KEY_PREVIOUS: set TOTP_ENCRYPTION_KEY_PREVIOUS to the key used before, or turn TOTP off for them with \`npm run admin -- reset-2fa --email …\`.`,
    );
  }

  if (installSecret !== null) {
    const underDatabaseKey = await db
      .selectFrom('admin_second_factors')
      .select('admin_id')
      .where((eb) => eb.or([eb('totp_secret', 'like', 'v1:%'), eb('totp_pending_secret', 'like', 'v1:%')]))
      .executeTakeFirst();
    if (!underDatabaseKey) {
      const deleted = await db
        .deleteFrom('settings')
        .where('key', '=', DATABASE_KEY_SETTING)
        .where('value', '=', installSecret)
        .executeTakeFirst();
      report.databaseKeyDeleted = Number(deleted.numDeletedRows) > 0;
    }
  }
  return report;
}
