/**
 * What the storefront says about subscriptions (decision 057): automatic likes and daily followers
 * are mentioned on the home page, the FAQ, the footer and the legal pages only while the catalogue
 * sells them (core/catalogue/offers.ts), and always with the terms of the services that sell them:
 * the period, the posts, the renewal by e-mailed link (no stored card, no automatic charge), and
 * how a cancelled or ended subscription is refunded (unservedShare in core/subscriptions/terms.ts;
 * daily followers by the undelivered remains, like any order). Plain text, so the same words feed
 * the pages and the FAQ's JSON-LD.
 */
import type { SubscriptionOffer } from '../../core/catalogue/offers.ts';
import type { SubscriptionKind } from '../../core/subscriptions/terms.ts';

const count = new Intl.NumberFormat('en-US');

/** Days before a period ends that the renewal e-mail is sent. */
export const RENEWAL_NOTICE_DAYS = 3;

/** "No delay", "5 minutes", "1 hour", "1 hour 30 minutes", "10 hours". */
export function delayLabel(minutes: number): string {
  if (minutes === 0) return 'No delay';
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return [...(hours ? [`${hours} ${hours === 1 ? 'hour' : 'hours'}`] : []), ...(rest ? [`${rest} minutes`] : [])].join(
    ' ',
  );
}

const days = (n: number) => `${count.format(n)} ${n === 1 ? 'day' : 'days'}`;

function quantityRange(quantities: readonly number[]): string {
  const first = quantities[0] ?? 0;
  const last = quantities[quantities.length - 1] ?? first;
  return first === last ? count.format(first) : `${count.format(first)} to ${count.format(last)}`;
}

/** One service's terms in a line: "Automatic Instagram Likes: 50 to 1,000 likes on each new post, …". */
export function offerLine(offer: SubscriptionOffer): string {
  if (offer.kind === 'automatic_likes') {
    const posts = offer.posts ?? 0;
    const delay = offer.delayMinutes
      ? `, starting ${delayLabel(offer.delayMinutes).toLowerCase()} after each post`
      : '';
    return `${offer.name}: ${quantityRange(offer.quantities)} likes on each new post, on up to ${count.format(posts)} new ${
      posts === 1 ? 'post' : 'posts'
    } in ${days(offer.periodDays)}${delay}, paid once per period`;
  }
  return `${offer.name}: ${quantityRange(offer.quantities)} followers a day for ${days(offer.periodDays)}, paid once per period`;
}

const KIND_NAMES: Readonly<Record<SubscriptionKind, string>> = {
  automatic_likes: 'automatic likes',
  daily_followers: 'daily followers',
};

/** "automatic likes", "daily followers" or "automatic likes and daily followers": what is sold now. */
export function kindsSold(offers: readonly SubscriptionOffer[]): string {
  const kinds = (['automatic_likes', 'daily_followers'] as const).filter((kind) =>
    offers.some((offer) => offer.kind === kind),
  );
  return kinds.map((kind) => KIND_NAMES[kind]).join(' and ');
}

const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** How a period is renewed: never by itself. */
export const RENEWAL_TEXT = `Each period is paid once, with the same payment methods as any order. Nothing renews by itself: we keep no card and never charge you automatically. ${RENEWAL_NOTICE_DAYS} days before a period ends we e-mail you a single-use link that opens the order page for the same account and tier at that day's price; a renewal starts when the current period ends, never overlapping it. You can stop these reminders from My orders or from the e-mail.`;

/** How each kind sold now is cancelled and refunded. */
export function cancelAndRefundTexts(offers: readonly SubscriptionOffer[]): string[] {
  const texts: string[] = [];
  if (offers.some((offer) => offer.kind === 'automatic_likes'))
    texts.push(
      'Automatic likes can be cancelled while they run, from My orders: we stop them at our supplier and refund the smaller of two shares of what you paid, the share of the posts not yet served and the share of the period not yet used. If our supplier ends them by itself (it does when no new post appears for about 30 days), the same rule applies. Cancelled before they reached our supplier, they are refunded in full; a period that ran to its end is not refunded.',
    );
  if (offers.some((offer) => offer.kind === 'daily_followers'))
    texts.push(
      'Daily followers can be cancelled while they run, from My orders: we stop the delivery at our supplier and refund the share you paid for the followers not delivered yet, as for any partly delivered order.',
    );
  return texts;
}

/** The answer to "Can I cancel or change my order?" for what the store sells now. */
export function cancelAnswer(offers: readonly SubscriptionOffer[], packageAnswer: string): string {
  if (offers.length === 0) return packageAnswer;
  return `${packageAnswer} This is true of one-off packages; ${kindsSold(offers)} can be cancelled while they run, from My orders, and what was not served is refunded as our Refund Policy describes.`;
}

interface FaqEntry {
  question: string;
  answer: string;
}

/** The FAQ's questions about subscriptions; none while the store sells none. */
export function subscriptionFaq(offers: readonly SubscriptionOffer[]): FaqEntry[] {
  if (offers.length === 0) return [];
  return [
    {
      question: `What are ${kindsSold(offers)}?`,
      answer: `Subscriptions for a public username, paid once per period. ${offers.map(offerLine).join('. ')}.`,
    },
    { question: 'Do subscriptions renew automatically?', answer: RENEWAL_TEXT },
    { question: 'Can I cancel a subscription?', answer: cancelAndRefundTexts(offers).join(' ') },
  ];
}

/** The footer's line: what is sold by the period, and that nothing is charged by itself. */
export function footerLine(offers: readonly SubscriptionOffer[]): string | null {
  if (offers.length === 0) return null;
  return `${capitalised(kindsSold(offers))} by the period: no stored card, no automatic charge.`;
}
