/**
 * Mail that failed for good, for the admin: the list (recipient, subject, attempts, last error),
 * the count the admin navigation shows, and "send again". Failed mail stays in the jobs table
 * (kept with the other e-mails for the retention period), so nothing here copies it.
 *
 * The body is never returned: a code e-mail's body carries the code.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { MAIL_JOB, OutgoingMailPayload } from './send-mail-job.ts';

export interface FailedMail {
  /** The job's id: what "send again" takes. */
  id: number;
  to: string;
  subject: string;
  attempts: number;
  lastError: string | null;
  /** When the mail was queued. */
  queuedAt: string;
  /** When it was given up. */
  failedAt: string;
}

export type ResendResult = { ok: true } | { ok: false; reason: 'not-found' | 'not-failed' };

export interface FailedMailConsole {
  /** Newest failure first, at most `limit` (default 100). */
  list(limit?: number): Promise<FailedMail[]>;
  count(): Promise<number>;
  /**
   * Queues exactly one more attempt of a failed mail, now: compare-and-set from `failed`, so a
   * double click (or two admins) queue it once; if that attempt fails too it is back on the list.
   */
  resend(id: number): Promise<ResendResult>;
}

const FAILED_MAIL_LIST_LIMIT = 100;

function describePayload(payloadJson: string): { to: string; subject: string } {
  try {
    const parsed = OutgoingMailPayload.safeParse(JSON.parse(payloadJson));
    if (parsed.success) return { to: parsed.data.to, subject: parsed.data.subject };
  } catch {
    // An unreadable payload is listed as such; it failed for that reason.
  }
  return { to: '(unreadable)', subject: '(unreadable)' };
}

export function createFailedMailConsole(options: { db: Kysely<Database>; now?: Clock | undefined }): FailedMailConsole {
  const { db } = options;
  const now = options.now ?? (() => new Date());
  return {
    async list(limit = FAILED_MAIL_LIST_LIMIT) {
      const rows = await db
        .selectFrom('jobs')
        .select(['id', 'payload_json', 'attempts', 'last_error', 'created_at', 'updated_at'])
        .where('kind', '=', MAIL_JOB)
        .where('status', '=', 'failed')
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(Math.max(1, Math.min(limit, 500)))
        .execute();
      return rows.map((row) => ({
        id: Number(row.id),
        ...describePayload(row.payload_json),
        attempts: Number(row.attempts),
        lastError: row.last_error,
        queuedAt: row.created_at,
        failedAt: row.updated_at,
      }));
    },

    async count() {
      const row = await db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('kind', '=', MAIL_JOB)
        .where('status', '=', 'failed')
        .executeTakeFirst();
      return Number(row?.count ?? 0);
    },

    async resend(id) {
      const at = now().toISOString();
      const result = await db
        .updateTable('jobs')
        .set((eb) => ({
          status: 'pending',
          run_at: at,
          // One more attempt, whatever the retry window says.
          max_attempts: eb('attempts', '+', 1),
          locked_by: null,
          locked_until: null,
          updated_at: at,
        }))
        .where('id', '=', id)
        .where('kind', '=', MAIL_JOB)
        .where('status', '=', 'failed')
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return { ok: true };
      const exists = await db
        .selectFrom('jobs')
        .select('id')
        .where('id', '=', id)
        .where('kind', '=', MAIL_JOB)
        .executeTakeFirst();
      return { ok: false, reason: exists ? 'not-failed' : 'not-found' };
    },
  };
}
