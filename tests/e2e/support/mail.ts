/**
 * Reads the e-mails the web server's SMTP sink caught (see serve.ts and playwright.config.ts).
 */
import type { CapturedMail } from './serve.ts';

export type { CapturedMail };

const SINK_URL = `http://127.0.0.1:${process.env.E2E_MAIL_PORT ?? '4318'}`;
const MAIL_URL = `${SINK_URL}/messages`;
/** How often a wait for an e-mail asks the sink again (a local call of a millisecond or two). */
const MAIL_POLL_MS = 100;

export async function capturedMail(): Promise<CapturedMail[]> {
  const response = await fetch(MAIL_URL, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`GET ${MAIL_URL} answered ${response.status}`);
  return (await response.json()) as CapturedMail[];
}

/** Whether `email` is one of the mail's recipients (exactly: `mail@…` is not `blog-mail@…`). */
export function sentTo(mail: CapturedMail, email: string): boolean {
  const wanted = email.trim().toLowerCase();
  return mail.to.split(',').some((recipient) => recipient.trim().toLowerCase() === wanted);
}

/** Polls until a caught e-mail matches, or fails after `timeoutMs` listing what did arrive. */
export async function waitForMail(
  predicate: (mail: CapturedMail) => boolean,
  timeoutMs = 20_000,
): Promise<CapturedMail> {
  const deadline = Date.now() + timeoutMs;
  let seen: CapturedMail[] = [];
  for (;;) {
    seen = await capturedMail();
    const found = seen.find(predicate);
    if (found) return found;
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, MAIL_POLL_MS));
  }
  throw new Error(
    `no matching e-mail within ${timeoutMs} ms; caught ${seen.length}: ${seen.map((m) => `${m.to} "${m.subject}"`).join('; ') || 'none'}`,
  );
}

/** The newest one-time code e-mailed to `email` (a line of its own in the text part; never in the subject), other than `previous`. */
export async function codeFor(email: string, previous: string | null = null, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let seen: CapturedMail[] = [];
  for (;;) {
    seen = (await capturedMail()).filter((m) => sentTo(m, email) && m.subject.includes('code'));
    const code = seen.length ? /^\s*(\d{6})\s*$/m.exec(seen[seen.length - 1].text)?.[1] : undefined;
    if (code && code !== previous) return code;
    if (Date.now() >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, MAIL_POLL_MS));
  }
  throw new Error(`no code e-mail to ${email} within ${timeoutMs} ms (saw ${seen.length})`);
}

async function setRefused(address: string, refused: boolean): Promise<void> {
  const url = `${SINK_URL}/refused/${encodeURIComponent(address)}`;
  const response = await fetch(url, { method: refused ? 'PUT' : 'DELETE' });
  if (response.status !== 204) throw new Error(`${refused ? 'PUT' : 'DELETE'} ${url} answered ${response.status}`);
}

/** From now on the sink refuses mail to `address` with 550 (a permanent failure). */
export function refuseMailTo(address: string): Promise<void> {
  return setRefused(address, true);
}

/** The sink takes mail to `address` again. */
export function acceptMailTo(address: string): Promise<void> {
  return setRefused(address, false);
}
