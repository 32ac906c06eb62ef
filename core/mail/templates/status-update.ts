/** E-mails a customer gets as the supplier moves their order along (In Progress, Completed, Partial, Canceled). */
import { type RenderedMail, renderMail } from './layout.ts';

export interface StatusUpdate {
  orderNumber: string;
  serviceName: string;
  target: string;
  quantity: number;
  status: 'In Progress' | 'Completed' | 'Partial' | 'Canceled';
  /** What was not delivered (Partial, Canceled). */
  remains: number | null;
  /** Formatted refund, e.g. "$1.20", when one is being made. */
  refund: string | null;
  trackingUrl: string;
  email: string;
}

const COPY: Record<StatusUpdate['status'], { subject: string; heading: string; intro: (u: StatusUpdate) => string }> = {
  'In Progress': {
    subject: 'is on its way',
    heading: 'Delivery has started',
    intro: (u) =>
      `Your ${u.serviceName} for ${u.target} are being delivered. Delivery is gradual, so numbers rise steadily over the coming hours or days.`,
  },
  Completed: {
    subject: 'is complete',
    heading: 'Your order is complete',
    intro: (u) =>
      `All ${u.quantity.toLocaleString('en-US')} of your ${u.serviceName} for ${u.target} have been delivered. Thank you for choosing Boostly.`,
  },
  Partial: {
    subject: 'was partly delivered',
    heading: 'Your order was partly delivered',
    intro: (u) =>
      `We could deliver ${(u.quantity - (u.remains ?? 0)).toLocaleString('en-US')} of ${u.quantity.toLocaleString('en-US')} for ${u.target}. We are refunding the part we could not deliver.`,
  },
  Canceled: {
    subject: 'was canceled',
    heading: 'Your order was canceled',
    intro: (u) =>
      `Our supplier could not deliver your ${u.serviceName} for ${u.target}. We are refunding your payment in full.`,
  },
};

export function renderStatusUpdate(update: StatusUpdate): RenderedMail {
  const copy = COPY[update.status];
  const facts: [string, string][] = [
    ['Order number', update.orderNumber],
    ['Service', update.serviceName],
    ['Status', update.status],
  ];
  if (update.remains && (update.status === 'Partial' || update.status === 'Canceled'))
    facts.push(['Not delivered', update.remains.toLocaleString('en-US')]);
  if (update.refund) facts.push(['Refund', update.refund]);
  return renderMail({
    subject: `Your Boostly order ${update.orderNumber} ${copy.subject}`,
    preheader: copy.intro(update),
    heading: copy.heading,
    intro: copy.intro(update),
    facts,
    button: { label: 'Track your order', url: update.trackingUrl },
    paragraphs: update.refund ? ['Refunds reach your card within 5-7 working days, depending on your bank.'] : [],
    footer: `This update was sent to ${update.email} because an order was placed with this address at Boostly.`,
  });
}
