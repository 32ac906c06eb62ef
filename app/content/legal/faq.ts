/**
 * The general FAQ (/faq, spec: 17 questions). Written for what this store really does; the
 * contacts and the refund window come from the store settings. Plain text, so the same answers
 * feed the accordion and the FAQPage JSON-LD. Where the spec's claims are not true of this
 * store, the answers say what is (docs/decisions/025-legal-texts.md).
 */
import {
  DATA_RETENTION_YEARS,
  MONEY_BACK_DAYS,
  REFILL_GUARANTEE_DAYS,
  type StoreInfo,
} from '../../../core/settings/store-info.ts';
import type { SubscriptionOffer } from '../../../core/catalogue/offers.ts';
import { cancelAnswer, kindsSold, subscriptionFaq } from '../subscriptions.ts';

interface FaqEntry {
  question: string;
  answer: string;
}

/** `offers`: the subscriptions the catalogue sells now; their questions appear only with them. */
export function generalFaq(info: StoreInfo, offers: readonly SubscriptionOffer[] = []): FaqEntry[] {
  const contacts = [
    `e-mail ${info.supportEmail}`,
    ...(info.supportPhone ? [`call ${info.supportPhone}`] : []),
    'use the contact form',
  ].join(', ');
  return [
    {
      question: 'What does Boostly sell?',
      answer: `Growth packages for Instagram, YouTube and TikTok: followers, likes and views. You choose a package, give the public username or link it is for and an e-mail address, pay, and the package is delivered gradually to that account or post.${
        offers.length ? ` We also sell ${kindsSold(offers)} by the period, for a public username: see below.` : ''
      }`,
    },
    {
      question: 'Do you need my password?',
      answer:
        'No, never. We only ask for a public username or a link and an e-mail address for your receipt. We never log in to your account, and anyone asking for your password in our name is not us.',
    },
    {
      question: 'Does my account have to be public?',
      answer:
        'Yes. The account or post must stay public until the order is complete, otherwise it cannot be delivered to.',
    },
    {
      question: 'How soon does delivery start, and how long does it take?',
      answer:
        'Delivery usually starts within 24 to 72 hours of payment and continues gradually until the full quantity has arrived. We e-mail you when your order is in progress and when it is completed (or if it ends partly delivered or canceled).',
    },
    {
      question: 'Why is delivery gradual?',
      answer:
        'Growth that arrives over days looks natural on your profile. A large package arriving at once would stand out, so every order is spread out.',
    },
    {
      question: 'How do I pay?',
      answer:
        'By card, on our payment provider’s secure checkout. Your card details go to the provider, not to us: we never see or store your card number. Prices are in US dollars.',
    },
    {
      question: 'Will I get a receipt?',
      answer: 'Yes. The receipt is e-mailed to the address you gave as soon as your payment is confirmed.',
    },
    {
      question: 'Can I cancel or change my order?',
      answer: cancelAnswer(
        offers,
        'No. An order goes to delivery as soon as it is paid, so it cannot be cancelled or modified afterwards. Please check the username or link before paying.',
      ),
    },
    ...subscriptionFaq(offers),
    {
      question: 'Can one order cover several accounts?',
      answer: 'No. Each order is delivered to one account or post: place a separate order for each account.',
    },
    {
      question: 'How many followers should I buy first?',
      answer:
        'For a first purchase we suggest more than 5,000 followers: the change is noticeable, and it still arrives gradually.',
    },
    {
      question: 'How do I see my orders?',
      answer:
        'Open “My orders”, enter the e-mail address you ordered with, and type the 6-digit code we e-mail to it (valid for 10 minutes). You then see every order placed with that address and its status.',
    },
    {
      question: 'What if my order is not delivered?',
      answer: `If an order cannot be delivered in full, we refund what was not delivered automatically: all of it for a canceled order, the undelivered share for a partial one. The refund is issued within ${info.refundWindowHours} hours of the order ending; your bank may take a few more days to show it.`,
    },
    {
      question: 'What if followers drop after delivery?',
      // Decision 040: the window is the store's REFILL_WINDOW_DAYS; /client offers the button.
      answer: `Some drop is normal. Our ${info.refillWindowDays ?? REFILL_GUARANTEE_DAYS}-day refill guarantee covers it: within ${info.refillWindowDays ?? REFILL_GUARANTEE_DAYS} days of your order being completed, request a refill from My orders (shown when the supplier of your service supports refills), or write to support with your order ID, and the drop is topped up free of charge.`,
    },
    {
      question: 'What is the money-back guarantee?',
      answer: `If an order was not delivered as described and has not been refunded automatically, ask us within ${MONEY_BACK_DAYS} days of ordering. We check the delivery with our supplier and refund what was not delivered.`,
    },
    {
      question: 'Is it safe for my account?',
      answer:
        'We never need your login, so your account stays under your control. Delivery is gradual. We are not part of Instagram, YouTube or TikTok and cannot decide what they do; see our Disclaimer.',
    },
    {
      question: 'What do you keep about me, and for how long?',
      answer: `Your e-mail address, the username or link you ordered for, and the order and payment details (never a card number or a password). Everything is deleted automatically after ${DATA_RETENTION_YEARS} years at the latest. Our Privacy Policy has the details.`,
    },
    {
      question: 'How do I contact support?',
      answer: `Support answers 24 hours a day, 7 days a week, holidays included: ${contacts}. Include your order ID if you have one.`,
    },
  ];
}
