/** FAQ copy for the store home page and the service pages. Answers are plain text. */
import type { SubscriptionOffer } from '../../../core/catalogue/offers.ts';
import { type ServiceKind, isSubscriptionKind } from '../../../core/subscriptions/terms.ts';
import { cancelAndRefundTexts, cancelAnswer, subscriptionFaq } from '../../content/subscriptions.ts';

export interface FaqItem {
  question: string;
  answer: string;
}

/** The home page's FAQ while the store sells one-off packages only. */
export const homeFaq: FaqItem[] = [
  {
    question: 'How does Boostly deliver followers, views and likes?',
    answer:
      'Once your payment is confirmed, your order goes to our delivery partner, and it arrives gradually over several days rather than all at once. Delivery usually starts within 24 to 72 hours of payment, and we e-mail you when it starts and when it ends.',
  },
  {
    question: 'Do you need my password?',
    answer:
      'No. We only ask for your username or a link to your post, plus an e-mail address for your receipt. We will never ask for your password.',
  },
  {
    question: 'Does my account need to be public?',
    answer: 'Yes. Your account must stay public until the order is complete, otherwise we cannot deliver to it.',
  },
  {
    question: 'Can I cancel or change my order?',
    answer:
      'Orders start processing as soon as they are placed, so they cannot be cancelled or modified afterwards. Please check your username or link carefully before paying.',
  },
  {
    question: 'Can one order cover several accounts?',
    answer:
      'No. Each order is delivered to one account or post, so please place a separate order for every account you want to grow.',
  },
  {
    question: 'How many followers should I buy first?',
    answer:
      'For a first purchase we advise more than 5,000 followers. A larger order is delivered gradually and gives your profile a noticeable, natural-looking boost.',
  },
  {
    question: 'What if my order is not delivered?',
    answer:
      'If the supplier cancels your order, or delivers only part of it, what was not delivered is refunded to your original payment method automatically, within 48 hours of the order ending. An order that was not delivered as described and not refunded can be claimed from support within 30 days of ordering.',
  },
  {
    question: 'How can I contact support?',
    answer:
      'Our support team is available 24 hours a day, 7 days a week, holidays included. Use the contact page and include your order ID if you have one.',
  },
];

/** A package's page FAQ. */
export const serviceFaq: FaqItem[] = [
  {
    question: 'When will my order start?',
    answer:
      'Delivery usually starts within 24 to 72 hours and continues gradually until the full quantity has arrived.',
  },
  {
    question: 'What happens if some followers drop?',
    answer:
      'A small drop over time is normal. Within 30 days of your order being completed, send support your order ID: our refill guarantee tops the drop up free of charge.',
  },
  {
    question: 'What do I need to provide?',
    answer:
      'Only your username or the link to your post and an e-mail address. Your account must be public, and we never ask for your password.',
  },
  {
    question: 'Can I modify my order after paying?',
    answer:
      'No. Once an order is placed it cannot be cancelled or modified, so double-check your details before completing payment.',
  },
  {
    question: 'Can I split one package across several accounts?',
    answer: 'No. Each package goes to a single account or post. Place a separate order for each account.',
  },
  {
    question: 'Is my money safe?',
    answer:
      "Yes. You pay by card on our payment provider's checkout, and we never see your card number. What is not delivered is refunded automatically within 48 hours of the order ending, and support is available 24/7 if anything goes wrong.",
  },
];

const HOME_CANCEL_QUESTION = 'Can I cancel or change my order?';
const SERVICE_CANCEL_QUESTION = 'Can I modify my order after paying?';

/**
 * The home page's FAQ for what the store sells now: the subscriptions' questions, and a cancel
 * answer that stays true of them, only while the catalogue sells them.
 */
export function homeFaqFor(offers: readonly SubscriptionOffer[]): FaqItem[] {
  const entries = homeFaq.map((entry) =>
    entry.question === HOME_CANCEL_QUESTION ? { ...entry, answer: cancelAnswer(offers, entry.answer) } : entry,
  );
  return [...entries, ...subscriptionFaq(offers)];
}

/** A service page's FAQ: a subscription's page says how it is cancelled and refunded. */
export function serviceFaqFor(
  service: { kind: ServiceKind; slug: string } | undefined,
  offers: readonly SubscriptionOffer[],
): FaqItem[] {
  if (!service || !isSubscriptionKind(service.kind)) return serviceFaq;
  const own = offers.filter((offer) => offer.slug === service.slug);
  return serviceFaq.map((entry) =>
    entry.question === SERVICE_CANCEL_QUESTION
      ? { question: 'Can I cancel after paying?', answer: cancelAndRefundTexts(own).join(' ') || entry.answer }
      : entry,
  );
}
