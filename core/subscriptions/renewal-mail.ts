/** The renewal reminder: what ends when, what the period delivered, the renewal link and the way out. */
import { type RenderedMail, renderMail } from '../mail/templates/layout.ts';
import { type SubscriptionKind, formatPeriodDate } from './terms.ts';

export interface RenewalReminderMail {
  orderNumber: string;
  serviceName: string;
  kind: SubscriptionKind;
  /** The account it serves, as stored ("some.user"). */
  target: string;
  /** What the period covers (coverageText). */
  coverage: string;
  /** What it delivered so far, in words ("12 of 30 posts had likes"). */
  delivered: string;
  endsAt: string;
  periodDays: number;
  /** The single-use link that opens the order page for the same package and account. */
  renewUrl: string;
  /** The page whose button turns these reminders off. */
  stopUrl: string;
  email: string;
}

const KIND_WORDS: Record<SubscriptionKind, string> = {
  automatic_likes: 'automatic likes',
  daily_followers: 'daily followers',
};

export function renderRenewalReminder(mail: RenewalReminderMail): RenderedMail {
  const ends = formatPeriodDate(mail.endsAt);
  const what = KIND_WORDS[mail.kind];
  const intro = `Your ${what} for ${mail.target} end on ${ends}. Nothing renews by itself: we keep no card on file, so if you want another ${mail.periodDays} days, renew with the link below.`;
  return renderMail({
    subject: `Your ${what} for ${mail.target} end on ${ends}`,
    preheader: intro,
    heading: 'Your subscription ends soon',
    intro,
    facts: [
      ['Order number', mail.orderNumber],
      ['Service', mail.serviceName],
      ['Account', mail.target],
      ['This period', mail.coverage],
      ['Delivered so far', mail.delivered],
    ],
    button: { label: `Renew for ${mail.periodDays} more days`, url: mail.renewUrl },
    paragraphs: [
      "The link opens the order page for the same account and package at today's price; you pay the way you choose there. The renewal starts when this period ends, so the two never overlap.",
      'The link works for one renewal.',
    ],
    support: {
      text: 'Do not want these reminders?',
      linkLabel: 'Stop renewal reminders',
      url: mail.stopUrl,
    },
    footer: `This e-mail was sent to ${mail.email} because a subscription was bought with this address at Boostly.`,
  });
}
