/**
 * The alert an admin gets when an e-mail to a customer failed for good (core/mail/send-mail-job.ts):
 * who it was for, its subject, how often it was tried and why it failed, with a link to the
 * failed-mail page where it can be sent again. Subjects never carry secrets (one-time codes are
 * only in the body), so repeating the subject here is safe; the body is never repeated.
 */
import { type RenderedMail, renderMail } from './layout.ts';

interface MailFailedAlert {
  /** The recipient of the mail that failed. */
  to: string;
  subject: string;
  attempts: number;
  lastError: string;
  /** The store's public origin; the e-mail links to `${publicUrl}/admin/mail`. */
  publicUrl: string;
}

function failedMailPageUrl(publicUrl: string): string {
  try {
    return new URL('/admin/mail', publicUrl).toString();
  } catch {
    return '#';
  }
}

export function renderMailFailedAlert(alert: MailFailedAlert): RenderedMail {
  return renderMail({
    subject: `Boostly: an e-mail to ${alert.to} could not be delivered`,
    preheader: `"${alert.subject}" failed after ${alert.attempts} attempt${alert.attempts === 1 ? '' : 's'}.`,
    heading: 'An e-mail could not be delivered',
    intro:
      'The store gave up sending this e-mail. The customer has not received it. Check the mail server settings, then send it again from the failed-mail page.',
    facts: [
      ['Recipient', alert.to],
      ['Subject', alert.subject],
      ['Attempts', String(alert.attempts)],
      ['Last error', alert.lastError],
    ],
    button: { label: 'Open failed mail', url: failedMailPageUrl(alert.publicUrl) },
    footer: 'This alert goes to every Boostly admin account.',
  });
}
