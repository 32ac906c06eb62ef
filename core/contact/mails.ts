/**
 * The two e-mails a contact message sends, in the shell every transactional e-mail shares
 * (core/mail/templates/layout.ts escapes every value, so the customer's text is never read as HTML):
 *
 * - to support: who wrote, the order it is about (only when it belongs to the sender), and the
 *   message itself; Reply-To is the customer, so answering is one click;
 * - to the customer: a fixed acknowledgement that never repeats what was typed (decision 024):
 *   anyone can enter someone else's address, and an echo would let them mail any text to anyone
 *   from our domain.
 */
import { type RenderedMail, renderMail } from '../mail/templates/layout.ts';

interface LinkedOrderFacts {
  /** The public order id (the provider id without `order_`). */
  orderNumber: string;
  serviceName: string;
  target: string;
  orderStatus: string;
  paymentStatus: string;
  /** ISO date of the order. */
  createdAt: string;
  /** The admin page of the order. */
  adminUrl: string;
}

interface SupportMailInput {
  email: string;
  /** What the sender typed in the order field, if anything. */
  orderIdGiven: string | undefined;
  /** The order, when the id given is one of the sender's orders. */
  order: LinkedOrderFacts | null;
  message: string;
  receivedAt: string;
}

export function renderSupportMail(input: SupportMailInput): RenderedMail {
  const { order } = input;
  const facts: [string, string][] = [
    ['From', input.email],
    ['Received', input.receivedAt],
  ];
  if (order) {
    facts.push(
      ['Order', order.orderNumber],
      ['Service', order.serviceName],
      ['Target', order.target],
      ['Order status', order.orderStatus],
      ['Payment status', order.paymentStatus],
      ['Ordered', order.createdAt],
    );
  } else if (input.orderIdGiven) {
    facts.push(
      ['Order ID given', input.orderIdGiven],
      ['Order', 'Not linked: no order with this id belongs to this address'],
    );
  }
  // One paragraph per line the customer wrote: the line breaks survive, every character escaped.
  const lines = input.message.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
  return renderMail({
    subject: `Contact message from ${input.email}${order ? ` about order ${order.orderNumber}` : ''}`,
    preheader: `New message from ${input.email} on the contact form.`,
    heading: 'New contact message',
    intro: `${input.email} wrote through the contact form. Reply to this e-mail to answer them.`,
    facts,
    ...(order ? { button: { label: 'Open the order', url: order.adminUrl } } : {}),
    paragraphs: ['Message:', ...lines],
    footer: 'Sent by the Boostly store from its contact form.',
  });
}

const ACKNOWLEDGEMENT_SAFETY_NOTE =
  'If you did not write to us, someone entered this address on our contact form: you can ignore this e-mail.';

export function renderAcknowledgement(input: { publicUrl: string }): RenderedMail {
  return renderMail({
    subject: 'We have received your message',
    preheader: 'Boostly support has your message and will reply by e-mail.',
    heading: 'We have received your message',
    intro:
      'Thank you for contacting Boostly. Our support team is available 24 hours a day, 7 days a week and will reply to this address.',
    paragraphs: [
      'To check an order yourself in the meantime, open My orders with this e-mail address.',
      ACKNOWLEDGEMENT_SAFETY_NOTE,
    ],
    button: { label: 'Open My orders', url: pageUrl('/client', input.publicUrl) },
    footer: 'This e-mail was sent because a message was sent with this address on the Boostly contact form.',
  });
}

function pageUrl(path: string, publicUrl: string): string {
  try {
    return new URL(path, publicUrl).toString();
  } catch {
    return '#';
  }
}
