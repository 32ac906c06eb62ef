/**
 * The `mail.send` job: e-mail leaves through the jobs table, so a slow or down SMTP server
 * never blocks a request and a message is enqueued atomically with the change it reports.
 *
 * Failures that retrying cannot fix are permanent: the server rejected the address or the
 * message for good (5.5.x replies such as 550 mailbox unavailable, 553 mailbox name not
 * allowed, 554 transaction failed) or the payload itself is invalid. Connection errors,
 * timeouts, 4xx replies (greylisting, mailbox busy) and authentication errors (a configuration
 * fix makes them succeed) are retried with backoff (5 s doubling, capped at 1 hour) for
 * `MAIL_RETRY_WINDOW_MS` (3 days) after the mail was queued, so an SMTP outage over a weekend
 * delays mail but loses none (docs/decisions/015-mail-delivery-and-log-secrets.md).
 *
 * A mail that fails for good stays in the jobs table as `failed` (listed for the admin with a
 * resend action, core/mail/failed-mail.ts), and every admin is e-mailed an alert about it.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Clock } from '../clock.ts';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { type EnqueueResult, type JobRow, defineJob, enqueueJob } from '../jobs/queue.ts';
import { describeError } from '../jobs/retry.ts';
import { type JobRegistration, PermanentJobError, handleJob } from '../jobs/worker.ts';
import type { Mailer, OutgoingMail } from './mailer.ts';
import { renderMailFailedAlert } from './templates/mail-failed.ts';

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

/** How long a mail that cannot be delivered is retried before it is given up: 3 days. */
export const MAIL_RETRY_WINDOW_MS = 3 * 24 * 60 * 60 * 1000;
/**
 * A backstop only: with the backoff capped at 1 hour, 3 days take fewer than 100 attempts, so the
 * window, not this count, decides when a mail is given up.
 */
const MAIL_MAX_ATTEMPTS = 200;

const SEND_MAIL_JOB = defineJob({
  kind: MAIL_JOB,
  payload: OutgoingMailPayload,
  maxAttempts: MAIL_MAX_ATTEMPTS,
  retryForMs: MAIL_RETRY_WINDOW_MS,
});

/** The dedupe-key prefix of admin alerts; an alert that fails is not alerted about again. */
export const MAIL_ALERT_KEY_PREFIX = 'mail-alert:';

interface MailAlertOptions {
  db: Kysely<Database>;
  /** The store's public origin, for the link to the failed-mail page. */
  publicUrl: string;
  now?: Clock | undefined;
}

/**
 * E-mails every admin that the mail in `job` failed for good. One alert per admin and failure
 * (the dedupe key holds the job and its attempt count, so a resend that fails alerts again);
 * alerts themselves are not alerted about.
 */
async function alertAdminsOfFailedMail(
  job: Pick<JobRow, 'id' | 'attempts' | 'payload_json' | 'dedupe_key' | 'last_error'>,
  error: unknown,
  options: MailAlertOptions,
): Promise<number> {
  if (job.dedupe_key?.startsWith(MAIL_ALERT_KEY_PREFIX)) return 0;
  const parsed = OutgoingMailPayload.safeParse(safeJson(job.payload_json));
  const failed = parsed.success ? parsed.data : { to: '(unreadable payload)', subject: '(unreadable payload)' };
  const admins = await options.db.selectFrom('admins').select(['id', 'email']).orderBy('id').execute();
  const at = options.now?.();
  let queued = 0;
  for (const admin of admins) {
    const alert = renderMailFailedAlert({
      to: failed.to,
      subject: failed.subject,
      attempts: job.attempts,
      lastError: describeError(error),
      publicUrl: options.publicUrl,
    });
    const result = await enqueueJob(
      options.db,
      SEND_MAIL_JOB,
      { to: admin.email, ...alert },
      { dedupeKey: `${MAIL_ALERT_KEY_PREFIX}${job.id}:${job.attempts}:${admin.id}`, now: at },
    );
    if (result.enqueued) queued += 1;
  }
  return queued;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

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
 * The handler for `mail.send`; register it with the worker as `createSendMailHandler(mailer, alerts)`.
 * A payload the schema refuses fails permanently before the server is contacted. With `alerts`,
 * every admin is e-mailed when a mail fails for good.
 */
export function createSendMailHandler(mailer: Mailer, alerts?: MailAlertOptions): JobRegistration {
  const onGiveUp = alerts ? (job: JobRow, error: unknown) => alertAdminsOfFailedMail(job, error, alerts) : undefined;
  return handleJob(
    SEND_MAIL_JOB,
    async (payload, job) => {
      try {
        return await mailer.send({
          to: payload.to,
          subject: payload.subject,
          html: payload.html,
          text: payload.text,
          headers: payload.headers,
          // The job is the mail: every attempt of it (a retry, a resend after a worker died
          // between the server's acceptance and `done`) carries the same Message-ID.
          messageKey: job.dedupe_key ?? `mail.${job.id}`,
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
    },
    { onGiveUp },
  );
}

interface EnqueueMailOptions {
  /** E.g. `receipt:<orderId>`: the same e-mail is never queued twice. */
  dedupeKey?: string | undefined;
  runAt?: Date | undefined;
  maxAttempts?: number | undefined;
  /** The store's clock (its retry window starts here); default now. */
  now?: Date | undefined;
}

/** Queues an e-mail; pass the transaction of the state change the e-mail reports. */
export function enqueueMail(
  db: Kysely<Database> | Transaction<Database>,
  mail: OutgoingMail,
  options: EnqueueMailOptions = {},
): Promise<EnqueueResult> {
  return enqueueJob(db, SEND_MAIL_JOB, mail, options);
}
