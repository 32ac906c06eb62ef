/**
 * The e-mail an admin's reply sends to the customer (decision 026), in the shell every
 * transactional e-mail shares: core/mail/templates/layout.ts escapes every value, so the reply
 * is plain text in both parts (one paragraph per line typed) and never read as HTML.
 *
 * It does not quote the customer's message: the address on a contact message is whatever was
 * typed, and a quote would mail a stranger's text to it (decision 024). Reply-To is the support
 * address, so answering the reply reaches support again.
 */
import { type RenderedMail, renderMail } from '../mail/templates/layout.ts';

interface InboxReplyMailInput {
  body: string;
  /** ISO date the customer wrote. */
  receivedAt: string;
  /** The public id of the linked order (only ever the sender's own), or null. */
  orderNumber: string | null;
  publicUrl: string;
}

export function renderInboxReply(input: InboxReplyMailInput): RenderedMail {
  const lines = input.body.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
  const received = input.receivedAt.slice(0, 10);
  return renderMail({
    subject: input.orderNumber
      ? `Re: your message about order ${input.orderNumber}`
      : 'Re: your message to Boostly support',
    preheader: 'Boostly support has answered your message.',
    heading: 'A reply from Boostly support',
    intro: `You wrote to us on ${received} through the contact form. Here is our answer.`,
    paragraphs: lines,
    button: { label: 'Open My orders', url: pageUrl('/client', input.publicUrl) },
    footer: 'Reply to this e-mail to write to Boostly support again.',
  });
}

function pageUrl(path: string, publicUrl: string): string {
  try {
    return new URL(path, publicUrl).toString();
  } catch {
    return '#';
  }
}
