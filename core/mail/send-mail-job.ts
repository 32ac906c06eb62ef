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
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { type EnqueueResult, defineJob, enqueueJob } from '../jobs/queue.ts';
import { type JobRegistration, PermanentJobError, handleJob } from '../jobs/worker.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';

export const MAIL_JOB = 'mail.send';

const mustBeString = { error: 'must be a string' };

/** An e-mail as queued: rendered already (core/mail/templates), so a retry sends the same bytes. */
export const OutgoingMailPayload = z.object({
  to: z.string(mustBeString).trim().min(1, 'is empty'),
  subject: z.string(mustBeString),
  html: z.string(mustBeString),
  text: z.string(mustBeString),
  headers: z.record(z.string(), z.string(), { error: 'must be an object of strings' }).optional(),
}) satisfies z.ZodType<OutgoingMail>;

export const SEND_MAIL_JOB = defineJob({ kind: MAIL_JOB, payload: OutgoingMailPayload });

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

/**
 * The handler for `mail.send`; register it with the worker as `createSendMailHandler(mailer)`. A
 * payload the schema refuses fails permanently before the server is contacted.
 */
export function createSendMailHandler(mailer: Mailer): JobRegistration {
  return handleJob(SEND_MAIL_JOB, async (payload) => {
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
  });
}

export interface EnqueueMailOptions {
  /** E.g. `receipt:<orderId>`: the same e-mail is never queued twice. */
  dedupeKey?: string | undefined;
  runAt?: Date | undefined;
  maxAttempts?: number | undefined;
}

/** Queues an e-mail; pass the transaction of the state change the e-mail reports. */
export function enqueueMail(
  db: Kysely<Database> | Transaction<Database>,
  mail: OutgoingMail,
  options: EnqueueMailOptions = {},
): Promise<EnqueueResult> {
  return enqueueJob(db, SEND_MAIL_JOB, mail, options);
}
