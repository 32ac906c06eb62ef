/**
 * A real SMTP server on 127.0.0.1 (smtp-server) that collects what it receives, parsed with
 * postal-mime. It can reject recipients (550) or answer with a temporary failure (451), and it
 * can go down and come back on the same port, so tests exercise nodemailer's real behaviour.
 */
import type { AddressInfo } from 'node:net';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer, type SMTPServerError } from 'smtp-server';

export interface SinkMessage {
  /** Envelope recipients (RCPT TO), comma separated. */
  to: string;
  from: string;
  subject: string;
  html: string;
  text: string;
  raw: Buffer;
  parsed: Email;
}

/** `reject`: 550 mailbox unavailable on RCPT TO; `tempfail`: 451 on RCPT TO; null: accept. */
export type SinkFailure = 'reject' | 'tempfail' | null;

export interface SmtpSink {
  readonly url: string;
  readonly port: number;
  readonly messages: SinkMessage[];
  /** Number of RCPT TO commands seen, accepted or not. */
  readonly attempts: number;
  failWith: SinkFailure;
  waitForMessage(predicate?: (message: SinkMessage) => boolean, timeoutMs?: number): Promise<SinkMessage>;
  /** Closes the listening socket and drops open connections: the server is "down". */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

interface SmtpSinkOptions {
  failWith?: SinkFailure;
  /** Refuses (550) the recipients it returns true for, whatever `failWith` says (the e2e sink's per-address switch). */
  rejectRecipient?: (address: string) => boolean;
}

function smtpError(message: string, responseCode: number): SMTPServerError {
  const error: SMTPServerError = new Error(message);
  error.responseCode = responseCode;
  return error;
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const waiters = new Set<() => void>();
  let attempts = 0;
  let server: SMTPServer | null = null;
  let port = 0;

  const sink: { failWith: SinkFailure } = {
    failWith: options.failWith ?? null,
  };

  // A client that dies mid-conversation (a store killed on purpose) resets its socket, and
  // smtp-server re-emits that on the server: unheard, it would crash the test process. The client's
  // side of it is what the tests check.
  const createServer = () => {
    const created = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      disableReverseLookup: true,
      logger: false,
      closeTimeout: 100,
      onRcptTo(address, _session, callback) {
        attempts++;
        if (sink.failWith === 'reject' || options.rejectRecipient?.(address.address))
          return callback(smtpError('mailbox unavailable', 550));
        if (sink.failWith === 'tempfail') return callback(smtpError('mailbox busy, try again later', 451));
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', callback);
        stream.on('end', () => {
          const raw = Buffer.concat(chunks);
          PostalMime.parse(raw).then(
            (parsed) => {
              messages.push({
                to: session.envelope.rcptTo.map((r) => r.address).join(', '),
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                subject: parsed.subject ?? '',
                html: parsed.html ?? '',
                text: parsed.text ?? '',
                raw,
                parsed,
              });
              for (const wake of waiters) wake();
              callback();
            },
            (err: Error) => callback(err),
          );
        });
      },
    });
    created.on('error', () => {});
    return created;
  };

  const listen = (target: SMTPServer, onPort: number) =>
    new Promise<number>((resolve, reject) => {
      target.server.once('error', reject);
      target.listen(onPort, '127.0.0.1', () => {
        target.server.off('error', reject);
        resolve((target.server.address() as AddressInfo).port);
      });
    });

  const shutdown = () =>
    new Promise<void>((resolve) => {
      const current = server;
      server = null;
      if (!current) return resolve();
      current.close(() => resolve());
    });

  server = createServer();
  port = await listen(server, 0);

  return {
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    messages,
    get attempts() {
      return attempts;
    },
    get failWith() {
      return sink.failWith;
    },
    set failWith(value: SinkFailure) {
      sink.failWith = value;
    },
    waitForMessage(predicate = () => true, timeoutMs = 5000) {
      return new Promise<SinkMessage>((resolve, reject) => {
        const check = () => {
          const found = messages.find(predicate);
          if (!found) return false;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching message within ${timeoutMs} ms (received ${messages.length})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    stop: shutdown,
    async restart() {
      if (server) return;
      // A fresh instance: a closed SMTPServer keeps answering 421 "shutting down".
      const next = createServer();
      await listen(next, port);
      server = next;
    },
    close: shutdown,
  };
}
