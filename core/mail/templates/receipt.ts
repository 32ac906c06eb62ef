/** The order receipt e-mail, sent once when a payment is confirmed. */
import { type RenderedMail, renderMail } from './layout.ts';

export { escapeHtml } from './layout.ts';

interface ReceiptOrder {
  orderNumber: string;
  serviceName: string;
  target: string;
  quantity: number;
  /** Already formatted, e.g. "$2.99": the total paid. */
  amountText: string;
  /**
   * The package price and the processing fee the total includes (decision 033), formatted; the
   * fee is null when the order has none, and then only the total is listed.
   */
  charges?: { packagePriceText: string; feeText: string | null } | undefined;
  trackingUrl: string;
  email: string;
  /** Where "contact support" points; default `<origin of trackingUrl>/contact`. */
  supportUrl?: string;
}

function defaultSupportUrl(trackingUrl: string): string {
  try {
    return new URL('/contact', trackingUrl).toString();
  } catch {
    return '#';
  }
}

const DELIVERY_NOTE =
  'Delivery is gradual so that growth looks natural: it starts within 24-72 hours of your order and continues until the full quantity is delivered.';
const SUPPORT_NOTE = 'Questions about your order? Our support team is available 24 hours a day, 7 days a week.';

export function renderReceipt(order: ReceiptOrder): RenderedMail {
  const quantity = Number.isFinite(order.quantity) ? order.quantity.toLocaleString('en-US') : String(order.quantity);
  return renderMail({
    subject: `Your Boostly order ${order.orderNumber} is confirmed`,
    preheader: `Order ${order.orderNumber}: ${order.serviceName} for ${order.target} is confirmed.`,
    heading: 'Thank you, your order is confirmed',
    intro: `We have received your payment for order ${order.orderNumber}.`,
    facts: [
      ['Order number', order.orderNumber],
      ['Service', order.serviceName],
      ['Target', order.target],
      ['Quantity', quantity],
      ...(order.charges?.feeText
        ? ([
            ['Package price', order.charges.packagePriceText],
            ['Processing fee', order.charges.feeText],
          ] as [string, string][])
        : []),
      ['Amount paid', order.amountText],
    ],
    button: { label: 'Track your order', url: order.trackingUrl },
    paragraphs: [DELIVERY_NOTE],
    support: {
      text: SUPPORT_NOTE,
      linkLabel: 'Contact support',
      url: order.supportUrl ?? defaultSupportUrl(order.trackingUrl),
      after: 'and mention your order number.',
    },
    footer: `This receipt was sent to ${order.email} because an order was placed with this address at Boostly.`,
  });
}
