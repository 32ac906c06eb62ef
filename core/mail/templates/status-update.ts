/** E-mails a customer gets as the supplier moves their order along (In Progress, Completed, Partial, Canceled). */
import { type RenderedMail, renderMail } from './layout.ts';

interface StatusUpdate {
  orderNumber: string;
  serviceName: string;
  target: string;
  quantity: number;
  status: 'In Progress' | 'Completed' | 'Partial' | 'Canceled';
  /** What was not delivered (Partial, Canceled). */
  remains: number | null;
  /** Formatted refund, e.g. "$1.20", when one is being made. */
  refundText: string | null;
  /** The refund is the whole payment (nothing was delivered), not the undelivered share. */
  refundInFull?: boolean | undefined;
  trackingUrl: string;
  /** Completed: the order's single-use review link (decision 039); null when there is none. */
  reviewUrl?: string | null | undefined;
  email: string;
  /**
   * Automatic likes: there is no quantity to deliver, only posts served in a period, so the words
   * are about posts (a daily-followers order passes its whole drip-feed as `quantity` instead).
   */
  automaticLikes?: {
    /** What the period covers, e.g. "up to 30 new posts, 100 likes each, until 27 Dec 2026". */
    coverage: string;
    postsServed: number;
    posts: number;
    /** Why it ended, as END_REASON_TEXT says it; null while it runs or when unknown. */
    endReason: string | null;
  };
}

const count = (n: number) => n.toLocaleString('en-US');
/** Units delivered: the quantity less what was not delivered (a Canceled order with no remains delivered nothing). */
const deliveredOf = (u: StatusUpdate) =>
  Math.max(0, u.quantity - (u.remains ?? (u.status === 'Canceled' ? u.quantity : 0)));

/**
 * What the customer is told a Partial or Canceled order gets back, in the words that match what
 * was delivered and refunded (decision 033): "in full" only when the refund is the whole payment.
 */
function refundSentence(u: StatusUpdate): string {
  if (!u.refundText) return '';
  if (u.refundInFull) return ` We are refunding your payment in full (${u.refundText}).`;
  return ` We are refunding ${u.refundText} for the ${count(u.quantity - deliveredOf(u))} we could not deliver.`;
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
      `All ${count(u.quantity)} of your ${u.serviceName} for ${u.target} have been delivered. Thank you for choosing Boostly.`,
  },
  Partial: {
    subject: 'was partly delivered',
    heading: 'Your order was partly delivered',
    intro: (u) =>
      `We could deliver ${count(deliveredOf(u))} of ${count(u.quantity)} for ${u.target}.${refundSentence(u)}`,
  },
  Canceled: {
    subject: 'was canceled',
    heading: 'Your order was canceled',
    intro: (u) => {
      const delivered = deliveredOf(u);
      const what =
        delivered > 0
          ? `Our supplier stopped your ${u.serviceName} for ${u.target} after delivering ${count(delivered)} of ${count(u.quantity)}.`
          : `Our supplier could not deliver your ${u.serviceName} for ${u.target}.`;
      return `${what}${refundSentence(u)}`;
    },
  },
};

/** The words for an automatic-likes order: posts served, never "delivered units". */
function automaticLikesCopy(
  u: StatusUpdate,
  likes: NonNullable<StatusUpdate['automaticLikes']>,
): (typeof COPY)[StatusUpdate['status']] {
  const served = `${count(likes.postsServed)} of ${count(likes.posts)} posts got their likes`;
  const refund = u.refundText
    ? u.refundInFull
      ? ` We are refunding your payment in full (${u.refundText}).`
      : ` We are refunding ${u.refundText} for the part of the period that was not used.`
    : '';
  switch (u.status) {
    case 'In Progress':
      return {
        subject: 'is running',
        heading: 'Your automatic likes are running',
        intro: () =>
          `Your ${u.serviceName} for ${u.target} are running: ${likes.coverage}. Each new post gets its likes.`,
      };
    case 'Completed':
      return {
        subject: 'has ended',
        heading: 'Your automatic likes have ended',
        intro: () => `Your ${u.serviceName} for ${u.target} have ended: ${served}. Thank you for choosing Boostly.`,
      };
    default:
      return {
        subject: 'has ended early',
        heading: 'Your automatic likes ended early',
        intro: () => {
          const why = likes.endReason ? ` (${likes.endReason.toLowerCase()})` : '';
          return `Your ${u.serviceName} for ${u.target} ended before the end of the period${why}: ${served}.${refund}`;
        },
      };
  }
}

export function renderStatusUpdate(update: StatusUpdate): RenderedMail {
  const likes = update.automaticLikes;
  const copy = likes ? automaticLikesCopy(update, likes) : COPY[update.status];
  const facts: [string, string][] = [
    ['Order number', update.orderNumber],
    ['Service', update.serviceName],
    ['Status', update.status],
  ];
  if (likes) facts.push(['Posts served', `${count(likes.postsServed)} of ${count(likes.posts)}`]);
  else if (update.status === 'Partial' || update.status === 'Canceled')
    facts.push(['Delivered', `${count(deliveredOf(update))} of ${count(update.quantity)}`]);
  if (update.refundText) facts.push([update.refundInFull ? 'Refund (in full)' : 'Refund', update.refundText]);
  return renderMail({
    subject: `Your Boostly order ${update.orderNumber} ${copy.subject}`,
    preheader: copy.intro(update),
    heading: copy.heading,
    intro: copy.intro(update),
    facts,
    button: { label: 'Track your order', url: update.trackingUrl },
    paragraphs: update.refundText ? ['Refunds reach your card within 5-7 working days, depending on your bank.'] : [],
    ...(update.reviewUrl
      ? {
          support: {
            text: 'How did we do? Tell other customers in a short review, no account needed:',
            linkLabel: 'Review your order',
            url: update.reviewUrl,
            after: 'The link works once, for 60 days.',
          },
        }
      : {}),
    footer: `This update was sent to ${update.email} because an order was placed with this address at Boostly.`,
  });
}
