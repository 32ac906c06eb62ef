/** The customer's refund e-mails: money given back, and a crypto refund's request for a wallet address. */
import { type RenderedMail, renderMail } from './layout.ts';

interface RefundedMail {
  orderNumber: string;
  serviceName: string;
  /** Formatted, e.g. "$4.99". */
  amountText: string;
  /** What the refund was for: the owner's decision, what was not delivered, or a second payment. */
  kind: 'owner' | 'remains' | 'extra';
  /** The owner's reason, when the owner refunded. */
  reason: string | null;
  /** Crypto goes to the wallet address the customer gave; cards and wallets back to the card. */
  toWallet: boolean;
  trackingUrl: string;
  email: string;
}

function refundedIntro(mail: RefundedMail): string {
  if (mail.kind === 'extra')
    return `Your order ${mail.orderNumber} was paid twice, so we refunded the second payment of ${mail.amountText}.`;
  if (mail.kind === 'remains')
    return `We refunded ${mail.amountText} for the part of your order ${mail.orderNumber} we could not deliver.`;
  return `We refunded ${mail.amountText} for your order ${mail.orderNumber}.`;
}

export function renderRefunded(mail: RefundedMail): RenderedMail {
  const intro = refundedIntro(mail);
  const facts: [string, string][] = [
    ['Order number', mail.orderNumber],
    ['Service', mail.serviceName],
    ['Refunded', mail.amountText],
  ];
  if (mail.reason) facts.push(['Reason', mail.reason]);
  return renderMail({
    subject: `Your Boostly order ${mail.orderNumber}: ${mail.amountText} refunded`,
    preheader: intro,
    heading: 'Your refund is on its way',
    intro,
    facts,
    button: { label: 'See your order', url: mail.trackingUrl },
    paragraphs: [
      mail.toWallet
        ? 'The refund was sent to the wallet address you gave us; it arrives once the network confirms it.'
        : 'Refunds reach your card or wallet within 5-7 working days, depending on your bank.',
    ],
    footer: `This e-mail was sent to ${mail.email} because an order was placed with this address at Boostly.`,
  });
}

interface RefundAddressMail {
  orderNumber: string;
  serviceName: string;
  amountText: string;
  /** The single-use page that takes the wallet address. */
  refundUrl: string;
  email: string;
}

export function renderRefundAddressRequest(mail: RefundAddressMail): RenderedMail {
  const intro = `We are refunding ${mail.amountText} for your order ${mail.orderNumber}. You paid with crypto, so we need the wallet address to send it to.`;
  return renderMail({
    subject: `Your Boostly order ${mail.orderNumber}: tell us where to send your refund`,
    preheader: intro,
    heading: 'Tell us where to send your refund',
    intro,
    facts: [
      ['Order number', mail.orderNumber],
      ['Service', mail.serviceName],
      ['Refund', mail.amountText],
    ],
    button: { label: 'Give your wallet address', url: mail.refundUrl },
    paragraphs: [
      'The link works once. Check the address carefully: crypto sent to a wrong address cannot be called back.',
    ],
    footer: `This e-mail was sent to ${mail.email} because an order was placed with this address at Boostly.`,
  });
}
