/**
 * The second factor every admin login needs (decision 016): the e-mailed code by default, TOTP
 * with recovery codes once the admin enrols in it from the admin's security page.
 *
 * The spec's browser flow stays as it is: a right password answers 409 / isVerified false, the
 * OTP step sends the code to `verify-otp`, then the browser logs in again. So passing the second
 * factor leaves a grant (`passed_source`, `passed_until`): the next right password from the same
 * address within `GRANT_MS` logs in, once.
 *
 * A TOTP or recovery code is accepted only while a challenge is open, that is within
 * `CHALLENGE_MS` of a right password; without one the reply is the e-mailed code's "Ask for a
 * code first.", so a code cannot be checked without the password.
 *
 * TOTP secrets are sealed under the key totp-keys.ts picks (decision 022: TOTP_ENCRYPTION_KEY,
 * bound to the admin's id); without a key in production, enrolment is refused with the reason
 * the security page shows.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { loadInstallSecret } from '../settings/install-secret.ts';
import { AdminAuthError } from './admin-errors.ts';
import { DATABASE_KEY_SETTING, TOTP_UNAVAILABLE_MESSAGE, type TotpKeySource, recoveryCodeKey } from './totp-keys.ts';
import {
  RECOVERY_CODE_COUNT,
  type SecretBox,
  createDatabaseBox,
  createEnvironmentBox,
  createEnvironmentSealer,
  generateRecoveryCode,
  generateTotpSecret,
  matchTotpStep,
  normaliseRecoveryCode,
  otpauthUrl,
  recoveryCodeHash,
} from './totp.ts';

/** How long a passed second factor waits for the login that follows it. */
const GRANT_MS = 5 * 60_000;
/** How long after a right password a TOTP or recovery code may be entered. */
const CHALLENGE_MS = 10 * 60_000;
/**
 * Codes one challenge takes; the last wrong one closes it (as an e-mailed code allows 5 tries).
 * Counted on the account, not the address, so many addresses do not multiply the guesses.
 */
export const CHALLENGE_GUESSES = 5;
/** Codes the account takes in one window across challenges; then it waits out the window. */
export const WINDOW_GUESSES = 10;
export const GUESS_WINDOW_MS = 15 * 60_000;
export type SecondFactorMethod = 'email' | 'totp';

export interface SecondFactorStatus {
  method: SecondFactorMethod;
  /** Unused recovery codes (0 without TOTP). */
  recoveryCodesLeft: number;
  totpEnabledAt: string | null;
  /** Production without TOTP_ENCRYPTION_KEY refuses enrolment: the page explains instead. */
  totpSetup: { available: boolean; reason: string | null };
}

/**
 * `spent`: that was the challenge's last try (the password must be given again); `locked`: the
 * account has had its window's guesses (`retryAfterMs` until the window ends).
 */
export type CodeCheck = 'ok' | 'invalid' | 'spent' | 'no-challenge' | { locked: true; retryAfterMs: number };

export interface SecondFactors {
  method(adminId: number): Promise<SecondFactorMethod>;
  status(adminId: number): Promise<SecondFactorStatus>;
  /** Whether this server can enrol an admin in TOTP, and why not (for the security page). */
  totpSetup(): { available: boolean; reason: string | null };
  /** A new secret to enrol (replacing an unconfirmed one); shown once, kept encrypted. */
  startTotp(adminId: number, account: string, at: Date): Promise<{ secret: string; otpauthUrl: string }>;
  /** Whether a set-up was started and not confirmed yet. */
  hasPendingTotp(adminId: number): Promise<boolean>;
  /** Enables the pending secret if `code` matches it; the recovery codes, shown once. */
  confirmTotp(adminId: number, code: string, at: Date): Promise<{ recoveryCodes: string[] } | null>;
  /** Back to e-mailed codes: TOTP, its pending secret and recovery codes are gone. */
  disableTotp(adminId: number, at: Date): Promise<void>;
  /** Whether `code` is a current TOTP code or an unused recovery code (which it uses up). */
  checkCode(adminId: number, code: string, at: Date): Promise<boolean>;
  /** A right password opens a window for a TOTP or recovery code. */
  openChallenge(adminId: number, at: Date): Promise<void>;
  /** Whether a right password was given within `CHALLENGE_MS` (and no TOTP answered it since). */
  hasOpenChallenge(adminId: number, at: Date): Promise<boolean>;
  /** Checks a code inside an open challenge, and closes it on success. */
  answerChallenge(adminId: number, code: string, at: Date): Promise<CodeCheck>;
  /** The second factor passed from `source`: its next right password logs in. */
  grant(adminId: number, source: string, at: Date): Promise<void>;
  /** Uses up a grant for `source`, if one is live; whether it did. */
  consumeGrant(adminId: number, source: string, at: Date): Promise<boolean>;
}

const changed = (result: { numUpdatedRows?: bigint | undefined }) => Number(result.numUpdatedRows ?? 0) > 0;

export function createSecondFactors(db: Kysely<Database>, source: TotpKeySource = { kind: 'database' }): SecondFactors {
  const sealer = source.kind === 'environment' ? createEnvironmentSealer(source.keys) : null;
  let box: Promise<SecretBox> | undefined;
  const loadBox = (): Promise<SecretBox> => {
    if (sealer) return (box ??= recoveryCodeKey(db, sealer).then((macKey) => createEnvironmentBox(sealer, macKey)));
    if (source.kind === 'database')
      return (box ??= loadInstallSecret(db, DATABASE_KEY_SETTING).then(createDatabaseBox));
    return Promise.reject(new AdminAuthError(TOTP_UNAVAILABLE_MESSAGE, 409));
  };
  const totpSetup = () =>
    source.kind === 'unavailable'
      ? { available: false, reason: TOTP_UNAVAILABLE_MESSAGE }
      : { available: true, reason: null };
  // A failed load (a database hiccup) is not kept: the next call tries again.
  const secretBox = async (): Promise<SecretBox> => {
    try {
      return await loadBox();
    } catch (error) {
      box = undefined;
      throw error;
    }
  };

  const row = (adminId: number) =>
    db.selectFrom('admin_second_factors').selectAll().where('admin_id', '=', adminId).executeTakeFirst();

  /** The admin's row, made on first use. */
  async function ensureRow(adminId: number, at: Date): Promise<void> {
    await db
      .insertInto('admin_second_factors')
      .values({
        admin_id: adminId,
        totp_secret: null,
        totp_pending_secret: null,
        totp_enabled_at: null,
        totp_last_step: null,
        challenge_until: null,
        passed_source: null,
        passed_until: null,
        updated_at: at.toISOString(),
      })
      .onConflict((oc) => oc.column('admin_id').doNothing())
      .execute();
  }

  async function unusedRecoveryCodes(adminId: number): Promise<number> {
    const result = await db
      .selectFrom('admin_recovery_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('admin_id', '=', adminId)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result?.n ?? 0);
  }

  /** A TOTP code, accepted once: the compare-and-set on the last step refuses a replay. */
  async function acceptTotp(adminId: number, sealed: string, lastStep: number | null, code: string, at: Date) {
    const step = matchTotpStep((await secretBox()).open(adminId, sealed), code, at);
    if (step === null || (lastStep !== null && step <= lastStep)) return false;
    const updated = await db
      .updateTable('admin_second_factors')
      .set({ totp_last_step: step, updated_at: at.toISOString() })
      .where('admin_id', '=', adminId)
      .where((eb) => (lastStep === null ? eb('totp_last_step', 'is', null) : eb('totp_last_step', '=', lastStep)))
      .executeTakeFirst();
    return changed(updated);
  }

  async function useRecoveryCode(adminId: number, raw: string, at: Date): Promise<boolean> {
    const normalised = normaliseRecoveryCode(raw);
    if (!normalised) return false;
    const updated = await db
      .updateTable('admin_recovery_codes')
      .set({ used_at: at.toISOString() })
      .where('admin_id', '=', adminId)
      .where('code_hash', '=', recoveryCodeHash(await secretBox(), adminId, normalised))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return changed(updated);
  }

  const service: SecondFactors = {
    async method(adminId) {
      const current = await row(adminId);
      return current?.totp_secret ? 'totp' : 'email';
    },

    async status(adminId) {
      const current = await row(adminId);
      if (!current?.totp_secret) {
        return { method: 'email', recoveryCodesLeft: 0, totpEnabledAt: null, totpSetup: totpSetup() };
      }
      return {
        method: 'totp',
        recoveryCodesLeft: await unusedRecoveryCodes(adminId),
        totpEnabledAt: current.totp_enabled_at,
        totpSetup: totpSetup(),
      };
    },

    totpSetup,

    async startTotp(adminId, account, at) {
      // Refused (409, the page's reason) before anything is written when no key can seal it.
      const sealing = await secretBox();
      await ensureRow(adminId, at);
      const secret = generateTotpSecret();
      await db
        .updateTable('admin_second_factors')
        .set({ totp_pending_secret: sealing.seal(adminId, secret), updated_at: at.toISOString() })
        .where('admin_id', '=', adminId)
        .execute();
      return { secret, otpauthUrl: otpauthUrl(account, secret) };
    },

    async hasPendingTotp(adminId) {
      return !!(await row(adminId))?.totp_pending_secret;
    },

    async confirmTotp(adminId, code, at) {
      const current = await row(adminId);
      const pending = current?.totp_pending_secret;
      if (!pending) return null;
      const step = matchTotpStep((await secretBox()).open(adminId, pending), code.trim(), at);
      if (step === null) return null;
      const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, generateRecoveryCode);
      const sealedBox = await secretBox();
      const atIso = at.toISOString();
      const enabled = await db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('admin_second_factors')
          .set({
            totp_secret: pending,
            totp_pending_secret: null,
            totp_enabled_at: atIso,
            totp_last_step: step,
            updated_at: atIso,
          })
          .where('admin_id', '=', adminId)
          .where('totp_pending_secret', '=', pending)
          .executeTakeFirst();
        if (!changed(updated)) return false;
        await trx.deleteFrom('admin_recovery_codes').where('admin_id', '=', adminId).execute();
        await trx
          .insertInto('admin_recovery_codes')
          .values(
            recoveryCodes.map((code) => ({
              admin_id: adminId,
              code_hash: recoveryCodeHash(sealedBox, adminId, normaliseRecoveryCode(code) ?? code),
              used_at: null,
              created_at: atIso,
            })),
          )
          .execute();
        return true;
      });
      return enabled ? { recoveryCodes } : null;
    },

    async disableTotp(adminId, at) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('admin_second_factors')
          .set({
            totp_secret: null,
            totp_pending_secret: null,
            totp_enabled_at: null,
            totp_last_step: null,
            challenge_until: null,
            updated_at: at.toISOString(),
          })
          .where('admin_id', '=', adminId)
          .execute();
        await trx.deleteFrom('admin_recovery_codes').where('admin_id', '=', adminId).execute();
      });
    },

    async checkCode(adminId, code, at) {
      const current = await row(adminId);
      if (!current?.totp_secret) return false;
      const trimmed = code.trim();
      if (/^\d{6}$/.test(trimmed)) return acceptTotp(adminId, current.totp_secret, current.totp_last_step, trimmed, at);
      return useRecoveryCode(adminId, trimmed, at);
    },

    async openChallenge(adminId, at) {
      await ensureRow(adminId, at);
      await db
        .updateTable('admin_second_factors')
        .set({
          challenge_until: new Date(at.getTime() + CHALLENGE_MS).toISOString(),
          challenge_guesses: 0,
          updated_at: at.toISOString(),
        })
        .where('admin_id', '=', adminId)
        .execute();
    },

    async hasOpenChallenge(adminId, at) {
      const current = await row(adminId);
      return !!current?.challenge_until && current.challenge_until > at.toISOString();
    },

    async answerChallenge(adminId, code, at) {
      const atIso = at.toISOString();
      const windowFrom = new Date(at.getTime() - GUESS_WINDOW_MS).toISOString();
      // A guess is taken (counted) before the code is checked, in one compare-and-set: parallel
      // guesses from any number of addresses each take one, and none is checked past the limits.
      const inWindow = sql<boolean>`guess_window_started is not null and guess_window_started > ${windowFrom}`;
      const taken = await db
        .updateTable('admin_second_factors')
        .set({
          challenge_guesses: sql`challenge_guesses + 1`,
          guess_window_count: sql`case when ${inWindow} then guess_window_count + 1 else 1 end`,
          guess_window_started: sql`case when ${inWindow} then guess_window_started else ${atIso} end`,
          updated_at: atIso,
        })
        .where('admin_id', '=', adminId)
        .where('totp_secret', 'is not', null)
        .where('challenge_until', '>', atIso)
        .where('challenge_guesses', '<', CHALLENGE_GUESSES)
        .where((eb) =>
          eb.or([
            eb('guess_window_started', 'is', null),
            eb('guess_window_started', '<=', windowFrom),
            eb('guess_window_count', '<', WINDOW_GUESSES),
          ]),
        )
        .executeTakeFirst();
      if (!changed(taken)) {
        const current = await row(adminId);
        if (!current?.totp_secret || !current.challenge_until || current.challenge_until <= atIso)
          return 'no-challenge';
        // Its tries are used up (the guess that used the last one closes it): nothing to answer.
        if (current.challenge_guesses >= CHALLENGE_GUESSES) return 'no-challenge';
        const windowEnds = new Date(current.guess_window_started ?? atIso).getTime() + GUESS_WINDOW_MS;
        return { locked: true, retryAfterMs: Math.max(windowEnds - at.getTime(), 1000) };
      }
      if (!(await service.checkCode(adminId, code, at))) {
        // The last try of this challenge closes it: the next code needs the password again.
        const closed = await db
          .updateTable('admin_second_factors')
          .set({ challenge_until: null, updated_at: atIso })
          .where('admin_id', '=', adminId)
          .where('challenge_guesses', '>=', CHALLENGE_GUESSES)
          .executeTakeFirst();
        return changed(closed) ? 'spent' : 'invalid';
      }
      await db
        .updateTable('admin_second_factors')
        .set({ challenge_until: null, challenge_guesses: 0, updated_at: atIso })
        .where('admin_id', '=', adminId)
        .execute();
      return 'ok';
    },

    async grant(adminId, source, at) {
      await ensureRow(adminId, at);
      await db
        .updateTable('admin_second_factors')
        .set({
          passed_source: source,
          passed_until: new Date(at.getTime() + GRANT_MS).toISOString(),
          updated_at: at.toISOString(),
        })
        .where('admin_id', '=', adminId)
        .execute();
    },

    async consumeGrant(adminId, source, at) {
      // Compare-and-set: two logins racing for one grant get one token between them.
      const updated = await db
        .updateTable('admin_second_factors')
        .set({ passed_source: null, passed_until: null, updated_at: at.toISOString() })
        .where('admin_id', '=', adminId)
        .where('passed_source', '=', source)
        .where('passed_until', '>', at.toISOString())
        .executeTakeFirst();
      return changed(updated);
    },
  };
  return service;
}
