/**
 * The marketing blocks' copy (package details, how to buy, privacy and safety). The routes' loaders
 * hand it to the components as data, so the text is in the server's HTML and the page data but
 * not in the JavaScript bundle (the 120 KB first-load budget, decision 036).
 */

export interface DetailItem {
  term: string;
  value: string;
  hint: string;
}

export interface CopyItem {
  title: string;
  text: string;
}

/**
 * Spec section 2, home page description block. The spec's "no refill or refund" contradicts the
 * 30-day refill guarantee and refund promises elsewhere; we keep the guarantees.
 */
export const PACKAGE_DETAILS: DetailItem[] = [
  { term: 'Start time', value: '24-72H', hint: 'Delivery begins within 24 to 72 hours of payment.' },
  { term: 'Speed', value: '1-10 K/D', hint: 'Between 1,000 and 10,000 a day, delivered gradually.' },
  { term: 'Quality', value: 'Mix Real', hint: 'A mix of real and active profiles.' },
  { term: 'Drop', value: '10-40%', hint: 'Some natural drop is expected over time.' },
  { term: 'Gift', value: '0-20%', hint: 'Bonus extra on top of your order, free of charge.' },
  { term: 'Link', value: 'Username without @', hint: 'Give your username only, never your password.' },
  { term: 'Refill', value: '30-day guarantee', hint: 'Drops within 30 days are topped up for free.' },
  {
    term: 'Refund',
    value: 'full, if not delivered',
    hint: 'What is not delivered is refunded within 48 hours of the order ending.',
  },
  { term: 'Page', value: 'Must be public', hint: 'We cannot deliver to a private account.' },
];

/** The four steps of "How to buy". */
export const HOW_TO_BUY_STEPS: CopyItem[] = [
  { title: 'Choose a package', text: 'Pick the service and the quantity that suits your account.' },
  { title: 'Enter your username', text: 'Give your username or post link and your e-mail. No password needed.' },
  { title: 'Complete payment', text: 'Pay securely by card. Your receipt is e-mailed straight away.' },
  { title: "That's all", text: 'Delivery starts within 24-72 hours and arrives gradually.' },
];

/** "Privacy and safety": three promises, in the order of the block's icons (lock, card, shield). */
export const PRIVACY_FEATURES: CopyItem[] = [
  {
    title: 'We never ask for your password',
    text: 'All we need is your username or a link to your post, plus an e-mail address for your receipt.',
  },
  {
    title: 'Secure card payments',
    text: 'Card payments are handled by an external, secure payment provider, and your receipt is e-mailed to you.',
  },
  {
    title: 'Your data is kept no longer than 2 years',
    text: 'We keep only what we need to deliver and support your order, and delete it after at most 2 years.',
  },
];

/** "Reliable growth you can count on" (decision 025: no "ad-based" claim, refunds as the policy says). */
export const RELIABILITY_TEXT: string[] = [
  'With Boostly, new followers, views and likes arrive gradually over days rather than all at once. Steady delivery looks natural and keeps your account safe, and we only ever need your username or link, never your password.',
  'Every order is tracked from payment to completion, backed by a 30-day refill guarantee on request and an automatic refund of anything that could not be delivered. Our support team is available 24 hours a day, 7 days a week, holidays included.',
];
