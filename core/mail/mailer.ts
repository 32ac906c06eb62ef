/**
 * Outgoing e-mail behind one small interface, with two transports:
 * - file (the default, no SMTP server needed): each message is written to `DATA_DIR/mail/` as
 *   a real RFC 5322 `.eml` file (open it in any mail client) and one log line names the file;
 * - SMTP (`SMTP_URL`): one pooled nodemailer transporter with short timeouts, so a slow or
 *   dead server fails a send in seconds instead of nodemailer's default minutes.
 *
 * Mail is sent from the jobs table (see send-mail-job.ts), never inside a request.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import nodemailer from 'nodemailer';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  headers?: Record<string, string> | undefined;
  /**
   * What this mail is, stably (its job's dedupe key, e.g. `receipt:42`): its Message-ID is
   * derived from it, so a mail sent again after a crash is recognised as the same message.
   * Without it the transport makes up a random one.
   */
  messageKey?: string | undefined;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): Promise<void>;
}

/** The subset of pino's (and Fastify's) logger used here. */
interface MailLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

const consoleLogger: MailLogger = {
  info: (obj, msg) => console.info(msg ?? '', JSON.stringify(obj)),
  warn: (obj, msg) => console.warn(msg ?? '', JSON.stringify(obj)),
  error: (obj, msg) => console.error(msg ?? '', JSON.stringify(obj)),
};

/** Timeouts for the SMTP transport (nodemailer's defaults are 2 min to connect, 10 min idle). */
export const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
} as const;

/**
 * Connections the SMTP pool keeps open (nodemailer's default is 5). Each message is a few round
 * trips on its connection, so the pool, not the worker, bounds how many receipts leave per
 * second: as many connections as the job worker runs jobs at once (server/store.ts). The URL can
 * set another (`?maxConnections=2` for a server that allows few).
 */
export const SMTP_POOL_CONNECTIONS = 8;

interface FileMailerOptions {
  dir: string;
  from: string;
  logger?: MailLogger | undefined;
}

/** A file-system-safe form of the recipient for the file name. */
function safeRecipient(to: string): string {
  const safe = to
    .toLowerCase()
    .replace(/[^a-z0-9@._+-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 64);
  return safe || 'unknown';
}

function createFileMailer(options: FileMailerOptions): Mailer {
  const { dir, from, logger = consoleLogger } = options;
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  let dirReady: Promise<unknown> | null = null;

  return {
    async send(mail) {
      const info = await transport.sendMail({ from, ...messageFields(mail, from) });
      if (!Buffer.isBuffer(info.message)) throw new Error('file mailer: expected a buffered message');
      // nodemailer keeps the bare LFs of 7bit bodies; an RFC 5322 message uses CRLF throughout.
      const message = Buffer.from(info.message.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
      dirReady ??= mkdir(dir, { recursive: true }).catch((err: unknown) => {
        dirReady = null;
        throw err;
      });
      await dirReady;
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(dir, `${stamp}-${safeRecipient(mail.to)}-${randomBytes(4).toString('hex')}.eml`);
      await writeFile(file, message, { flag: 'wx' });
      logger.info({ file, to: mail.to, subject: mail.subject, messageId: info.messageId }, `mail written to ${file}`);
      return { messageId: info.messageId };
    },
    close() {
      transport.close(); // synchronous: nothing to wait for
      return Promise.resolve();
    },
  };
}

interface SmtpMailerOptions {
  /** smtp://user:pass@host:587 or smtps://…:465; query parameters (e.g. `?requireTLS=true`) become transport options. */
  url: string;
  from: string;
  logger?: MailLogger | undefined;
}

/**
 * The transport options for an SMTP URL: pooled, with short timeouts. nodemailer's
 * `createTransport(url, second)` treats `second` as message defaults, not transport options,
 * so a URL alone could not carry `pool` or the timeouts: the URL is parsed and merged here.
 * Query parameters in the URL (e.g. `?socketTimeout=60000&tls.rejectUnauthorized=false`)
 * override the defaults.
 */
export function smtpTransportOptions(url: string): SMTPPool.Options {
  if (!/^smtps?:\/\//i.test(url)) throw new Error('SMTP_URL must start with smtp:// or smtps://');
  return { ...SMTP_TIMEOUTS, maxConnections: SMTP_POOL_CONNECTIONS, ...parseConnectionUrl(url), pool: true };
}

/** A failure as the SMTP thread reports it (./smtp-thread.mjs). */
interface ThreadFailure {
  name: string;
  message: string;
  code?: string | undefined;
  responseCode?: number | undefined;
  command?: string | undefined;
  response?: string | undefined;
}

type ThreadReply =
  | { type: 'sent'; id: number; messageId: string; response: string }
  | { type: 'failed'; id: number; error: ThreadFailure }
  | { type: 'transport-error'; message: string };

/** nodemailer's error again, with the fields isPermanentMailError and the logs read. */
function errorFromThread(failure: ThreadFailure): Error {
  const error = new Error(failure.message) as Error & Omit<ThreadFailure, 'name' | 'message'>;
  error.name = failure.name;
  if (failure.code !== undefined) error.code = failure.code;
  if (failure.responseCode !== undefined) error.responseCode = failure.responseCode;
  if (failure.command !== undefined) error.command = failure.command;
  if (failure.response !== undefined) error.response = failure.response;
  return error;
}

/**
 * SMTP through a pooled nodemailer transport that lives on a worker thread (./smtp-thread.mjs):
 * the round trips of each message run on that thread's event loop, so a busy store (checkout
 * under load) does not make every receipt wait for its turn several times over. The thread starts
 * with the first message, keeps the process alive only while a message is on its way, and is
 * started again if it dies (the messages it held fail, and their jobs retry).
 */
export function createSmtpMailer(options: SmtpMailerOptions): Mailer {
  const { url, from, logger = consoleLogger } = options;
  const transportOptions = smtpTransportOptions(url);
  const host = new URL(url).host;
  const pending = new Map<
    number,
    { resolve: (reply: { messageId: string; response: string }) => void; reject: (error: Error) => void }
  >();
  let nextId = 1;
  let thread: Worker | null = null;

  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };

  function started(): Worker {
    if (thread) return thread;
    const created = new Worker(new URL('./smtp-thread.mjs', import.meta.url), {
      workerData: { options: transportOptions },
    });
    created.on('message', (reply: ThreadReply) => {
      if (reply.type === 'transport-error') {
        logger.error({ err: reply.message }, 'SMTP transport error');
        return;
      }
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      if (pending.size === 0) created.unref();
      if (reply.type === 'sent') waiting.resolve(reply);
      else waiting.reject(errorFromThread(reply.error));
    });
    created.on('error', (err) => logger.error({ err: err.message }, 'SMTP thread failed'));
    created.on('exit', () => {
      if (thread === created) thread = null;
      failAll(new Error('the SMTP thread stopped before the message was sent'));
    });
    thread = created;
    return created;
  }

  return {
    async send(mail) {
      const id = nextId++;
      const worker = started();
      const reply = await new Promise<{ messageId: string; response: string }>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ type: 'send', id, mail: { from, ...messageFields(mail, from) } });
      });
      logger.info(
        { host, to: mail.to, subject: mail.subject, messageId: reply.messageId, response: reply.response },
        'mail sent',
      );
      return { messageId: reply.messageId };
    },
    async close() {
      const closing = thread;
      thread = null;
      if (!closing) return;
      const exited = new Promise<void>((resolve) => closing.once('exit', () => resolve()));
      closing.postMessage({ type: 'close' });
      await exited;
    },
  };
}

interface MailerConfig {
  /** Unset or empty: write files into `dir`. */
  smtpUrl?: string | undefined;
  dir: string;
  from: string;
  logger?: MailLogger | undefined;
}

export function createMailer(config: MailerConfig): Mailer {
  return config.smtpUrl
    ? createSmtpMailer({ url: config.smtpUrl, from: config.from, logger: config.logger })
    : createFileMailer({ dir: config.dir, from: config.from, logger: config.logger });
}

/**
 * A Message-ID that names the mail, not the attempt: `<receipt.42.1f2e3d4c5b6a@boostly.test>`
 * (the key in letters a Message-ID allows, a hash that keeps distinct keys distinct, and the
 * sender's domain). The same key always gives the same id.
 */
export function stableMessageId(messageKey: string, from: string): string {
  const domain = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from)?.[1] ?? 'boostly.local';
  const readable = messageKey
    .replace(/[^A-Za-z0-9.-]+/g, '.')
    .replace(/^\.+|\.+$/g, '')
    .slice(0, 64);
  const hash = createHash('sha256').update(messageKey).digest('hex').slice(0, 12);
  return `<${readable ? `${readable}.` : ''}${hash}@${domain}>`;
}

function messageFields(mail: OutgoingMail, from: string) {
  return {
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: mail.text,
    headers: mail.headers,
    ...(mail.messageKey !== undefined ? { messageId: stableMessageId(mail.messageKey, from) } : {}),
  };
}
