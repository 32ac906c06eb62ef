/**
 * The Instagram followers landing article (spec "FAQ and landing content": the long 'why buy'
 * text). Server-only: the service loader sends it to the followers page alone, so no other page
 * and no client bundle carries its words. Every claim is something the store does: gradual
 * delivery through the supplier and status e-mails (decision 007), the automatic refund of what
 * was not delivered within the configured window (decision 025), the 30-day refill on request
 * (decision 004), no password, 2-year data retention.
 */
import { DATA_RETENTION_YEARS, REFILL_GUARANTEE_DAYS, type StoreInfo } from '../../../core/settings/store-info.ts';
import type { LandingArticle } from './InstagramLanding.tsx';

export function whyBuyFollowersArticle(info: Pick<StoreInfo, 'refundWindowHours'>): LandingArticle {
  return {
    title: 'Why buy Instagram followers from Boostly',
    intro:
      'People decide in a second whether a profile is worth following, and the follower count is one of the first things they see. A new shop, a musician starting out or a creator changing niche often has good posts and nobody looking at them yet. Buying followers gives such a profile a starting audience, so the next visitor sees an account that other people already chose. Here is what you get from us, and what you do not.',
    sections: [
      {
        heading: 'We never ask for your password',
        paragraphs: [
          'To place an order we need two things: your public Instagram username and an e-mail address for the receipt. Nothing else. We never ask for your password, never log in to your account and never post anything on it. Anyone who asks you for your password in our name is not us.',
          'Your account has to stay public until the order is complete, because followers can only be delivered to a profile they can see. You can make it private again afterwards.',
        ],
      },
      {
        heading: 'Delivered gradually, and you can follow every step',
        paragraphs: [
          'Once your payment is confirmed, your order goes to our delivery partner. Delivery usually starts within 24 to 72 hours and arrives over several days rather than all at once, so your profile grows at a pace that looks natural.',
          'We e-mail you when delivery starts, when it is complete, and if it ends early. At any time you can open My orders, enter the e-mail address you ordered with and the 6-digit code we send to it, and see the status of every order.',
        ],
      },
      {
        heading: 'What is not delivered is refunded automatically',
        paragraphs: [
          `If our partner cancels your order, you get the whole amount back; if it delivers only part of it, you get back the share that was not delivered. You do not have to ask: the refund is issued to your card within ${info.refundWindowHours} hours of the order ending. Your bank may take a few more days to show it.`,
          `Followers can drop over time as Instagram removes inactive accounts. Within ${REFILL_GUARANTEE_DAYS} days of your order being completed, send us your order ID and we top the drop up free of charge.`,
        ],
      },
      {
        heading: 'Which package to choose',
        paragraphs: [
          'Every package comes in three plans, Standard, Popular and Exclusive, which differ in the profiles delivered, how soon delivery starts and the support you get. Each plan lists exactly what it includes next to its prices. You pay in US dollars, by card, on our payment provider’s checkout: we never see your card number.',
          'One order goes to one account. If you run several accounts, place one order for each. An order cannot be changed once it is placed, so check the username before you pay.',
        ],
      },
      {
        heading: 'What followers can and cannot do for you',
        paragraphs: [
          'Followers make a profile look established; they do not write comments or buy your products for you. They work best together with regular posts and the likes, views and comments that show people care about them, which is why we offer those too. Boostly is independent of Instagram and cannot promise how its algorithm will treat any account.',
          `We keep only what an order needs: your e-mail address, the username and the order details, deleted automatically after ${DATA_RETENTION_YEARS} years at the latest. Support answers every day of the year.`,
        ],
      },
    ],
  };
}
