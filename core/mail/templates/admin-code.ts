/**
 * The code that verifies an admin account at its first login (core/auth/admins.ts), in the
 * shell every transactional e-mail shares (layout.ts). As in the customer's code e-mail
 * (login-code.ts), the code is only in the body, never in the subject or preview line: subjects
 * are logged by the mailer and shown on lock screens (docs/decisions/015-mail-delivery-and-log-secrets.md).
 */
import { type RenderedMail, renderMail } from './layout.ts';

interface AdminCodeMail {
  /** The 6-digit code, as issued. */
  code: string;
  /** How long the code is valid. */
  minutes: number;
  /** The store's public origin; the e-mail links to `${publicUrl}/login`. */
  publicUrl: string;
}

function loginPageUrl(publicUrl: string): string {
  try {
    return new URL('/login', publicUrl).toString();
  } catch {
    return '#';
  }
}

export function renderAdminCode({ code, minutes, publicUrl }: AdminCodeMail): RenderedMail {
  const safeCode = code.replace(/\s+/g, '');
  return renderMail({
    // Never the code: subjects reach notification previews and mail logs (decision 015).
    subject: 'Your Boostly admin code',
    preheader: 'Your code to verify your Boostly admin account is inside.',
    heading: 'Verify your admin account',
    intro:
      'Someone logged in to the Boostly admin area with this e-mail address and the right password. Enter this code on the login page to verify the account.',
    highlight: safeCode,
    paragraphs: [
      `This code is valid for ${minutes} minute${minutes === 1 ? '' : 's'} and can be used once.`,
      'If this was not you, someone knows your admin password: do not enter the code, and reset the password (npm run admin -- reset-password). Never share this code.',
    ],
    button: { label: 'Open the login page', url: loginPageUrl(publicUrl) },
    footer: 'This e-mail was sent because of a login to the Boostly admin area.',
  });
}
