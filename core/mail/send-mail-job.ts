/**
 * The `mail.send` job: e-mail leaves through the jobs table, so a slow or down SMTP server
 * never blocks a request and a message is enqueued atomically with the change it reports.
 *
 * Failures that retrying cannot fix are permanent: the server rejected the address or the
 * message for good (5.5.x replies such as 550 mailbox unavailable, 553 mailbox name not
 * allowed, 554 transaction failed) or the payload itself is invalid. Connection errors,
 * timeouts, 4xx replies (greylisting, mailbox busy) and authentication errors (a configuration
 * fix makes them succeed) are retried with backoff.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type EnqueueResult, enqueueJob } from '../jobs/queue.ts';
import { PermanentJobError } from '../jobs/worker.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';

export const MAIL_JOB = 'mail.send';

/** SMTP reply codes that reject the recipient or the message for good. */
const PERMANENT_SMTP_CODES = new Set([550, 551, 552, 553, 554, 555, 556]);

export function isPermanentMailError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, responseCode } = error as { code?: unknown; responseCode?: unknown };
  if (code === 'EAUTH') return false;
  if (typeof responseCode === 'number') return PERMANENT_SMTP_CODES.has(responseCode);
  // No reply from a server but an envelope error: "No recipients defined", an invalid address.
  return code === 'EENVELOPE';
}

function assertOutgoingMail(payload: unknown): asserts payload is OutgoingMail {
  const mail = payload as Partial<OutgoingMail> | null;
  const problems: string[] = [];
  if (!mail || typeof mail !== 'object') throw new PermanentJobError('mail.send payload must be an object');
  for (const field of ['to', 'subject', 'html', 'text'] as const) {
    if (typeof mail[field] !== 'string') problems.push(`${field} must be a string`);
  }
  if (typeof mail.to === 'string' && !mail.to.trim()) problems.push('to is empty');
  if (mail.headers !== undefined && (typeof mail.headers !== 'object' || mail.headers === null))
    problems.push('headers must be an object');
  if (problems.length) throw new PermanentJobError(`invalid mail.send payload: ${problems.join(', ')}`);
}

/** The handler for `MAIL_JOB`; register it as `{ [MAIL_JOB]: createSendMailHandler(mailer) }`. */
export function createSendMailHandler(mailer: Mailer): (payload: OutgoingMail) => Promise<{ messageId: string }> {
  return async (payload) => {
    assertOutgoingMail(payload);
    try {
      return await mailer.send({
        to: payload.to,
        subject: payload.subject,
        html: payload.html,
        text: payload.text,
        headers: payload.headers,
      });
    } catch (err) {
      if (isPermanentMailError(err)) {
        const message = err instanceof Error ? err.message : String(err);
        const responseCode = (err as { responseCode?: unknown }).responseCode;
        throw new PermanentJobError(
          `mail rejected${typeof responseCode === 'number' ? ` (${responseCode})` : ''}: ${message}`,
          {
            cause: err,
          },
        );
      }
      throw err;
    }
  };
}

export interface EnqueueMailOptions {
  /** E.g. `receipt:<orderId>`: the same e-mail is never queued twice. */
  dedupeKey?: string;
  runAt?: Date;
  maxAttempts?: number;
}

/** Queues an e-mail; pass the transaction of the state change the e-mail reports. */
export function enqueueMail(
  db: Kysely<Database> | Transaction<Database>,
  mail: OutgoingMail,
  options: EnqueueMailOptions = {},
): Promise<EnqueueResult> {
  return enqueueJob(db, { kind: MAIL_JOB, payload: mail, ...options });
}
