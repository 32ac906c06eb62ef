/**
 * One-time code e-mails, in the shell every transactional e-mail shares (layout.ts: escaped,
 * inline-styled HTML plus a plain-text part with the same facts).
 *
 * The code is only in the body, never in the subject or the preview line: the mailer logs the
 * subject, and lock screens show it (docs/decisions/015-mail-delivery-and-log-secrets.md). It is
 * bound to one address and one purpose, lasts minutes, is single use and allows 5 attempts.
 */
import { type RenderedMail, renderMail } from './layout.ts';

interface OrderHistoryCodeMail {
  /** The 6-digit code, as issued. */
  code: string;
  /** How long the code is valid. */
  minutes: number;
  /** The store's public origin; the e-mail links to `${publicUrl}/client`. */
  publicUrl: string;
}

const CODE_SAFETY_NOTE =
  'If you did not ask for this code, you can ignore this e-mail: nobody can see your orders without it. Never share this code; Boostly staff will never ask you for it.';

function clientPageUrl(publicUrl: string): string {
  try {
    return new URL('/client', publicUrl).toString();
  } catch {
    return '#';
  }
}

export function renderOrderHistoryCode({ code, minutes, publicUrl }: OrderHistoryCodeMail): RenderedMail {
  // Codes are digits; nothing else may reach the subject header.
  const safeCode = code.replace(/\s+/g, '');
  return renderMail({
    // Never the code: subjects reach notification previews and mail logs (decision 015).
    subject: 'Your Boostly code',
    preheader: 'Your code to see your Boostly orders is inside.',
    heading: 'Your code to see your orders',
    intro: 'Enter this code on the My orders page to see the orders placed with this e-mail address.',
    highlight: safeCode,
    paragraphs: [
      `This code is valid for ${minutes} minute${minutes === 1 ? '' : 's'} and can be used once.`,
      CODE_SAFETY_NOTE,
    ],
    button: { label: 'Open My orders', url: clientPageUrl(publicUrl) },
    footer: 'This e-mail was sent because someone asked to see the Boostly orders of this address.',
  });
}
