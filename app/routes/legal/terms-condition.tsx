import type { Route } from './+types/terms-condition';
import { REFILL_GUARANTEE_DAYS } from '../../../core/settings/store-info.ts';
import { CacheStrategy } from '../../cache.ts';
import { LegalDocument, List, StoreContacts, TextLink, hours } from '../../content/legal/LegalDocument.tsx';
import { TERMS_PAGE } from '../../content/legal/pages.ts';
import { helpPageMeta } from '../../content/legal/seo.ts';
import { requestContext } from '../../context.ts';
import { RENEWAL_TEXT, cancelAndRefundTexts, kindsSold, offerLine } from '../../content/subscriptions.ts';
import { FRAMEWORK_FREE } from '../../page-handle.ts';

export async function loader({ context }: Route.LoaderArgs) {
  const { storeInfo, publicUrl, catalogue } = context.get(requestContext).services;
  const offers = await catalogue.subscriptionOffers();
  // The subscriptions are part of these terms only while the catalogue sells them (decision 057).
  const subscriptions = offers.length
    ? {
        kinds: kindsSold(offers),
        lines: offers.map(offerLine),
        renewal: RENEWAL_TEXT,
        cancel: cancelAndRefundTexts(offers),
      }
    : null;
  return { storeInfo, publicUrl, subscriptions };
}

/** Text, links and disclosures: no framework JavaScript in the browser (page-handle.ts). */
export const handle = FRAMEWORK_FREE;

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.catalogue });

export const meta: Route.MetaFunction = ({ data }) => helpPageMeta(TERMS_PAGE, data?.publicUrl);

export default function TermsOfService({ loaderData: { storeInfo: info, subscriptions } }: Route.ComponentProps) {
  return (
    <LegalDocument
      page={TERMS_PAGE}
      intro={
        <p>
          These terms apply to every order placed on this website. By placing an order you accept them, together with
          our <TextLink to="/privacy-policy">Privacy Policy</TextLink> and{' '}
          <TextLink to="/refund-policy">Refund Policy</TextLink>.
        </p>
      }
      sections={[
        {
          heading: 'The service',
          body: (
            <>
              <p>
                Boostly sells growth packages (followers, likes and views) for Instagram, YouTube and TikTok. A package
                is delivered gradually to the public account or post you name when ordering.
              </p>
              {subscriptions ? (
                <p>We also sell {subscriptions.kinds} by the period, for a public username: see Subscriptions below.</p>
              ) : null}
            </>
          ),
        },
        ...(subscriptions
          ? [
              {
                heading: 'Subscriptions',
                body: (
                  <div data-testid="terms-subscriptions">
                    <List items={subscriptions.lines.map((line) => `${line}.`)} />
                    <p>{subscriptions.renewal}</p>
                    {subscriptions.cancel.map((text) => (
                      <p key={text}>{text}</p>
                    ))}
                  </div>
                ),
              },
            ]
          : []),
        {
          heading: 'Personal use only',
          body: (
            <p>
              The service is for growing your own accounts. Commercial use, resale and orders for accounts of others are
              prohibited, and we may end access to the service without notice if these terms are broken.
            </p>
          ),
        },
        {
          heading: 'What you provide',
          body: (
            <List
              items={[
                'A correct public username or link, and an e-mail address you can read. We never ask for a password.',
                'The account or post must stay public until the order is complete.',
                'One order per account or post: a package cannot be split across accounts.',
              ]}
            />
          ),
        },
        {
          heading: 'Orders and payment',
          body: (
            <List
              items={[
                'Prices are shown and charged in US dollars, by card through our payment provider.',
                'An order is confirmed when the payment is, and a receipt is e-mailed to you.',
                subscriptions
                  ? 'One-off packages go to delivery as soon as they are paid and cannot be cancelled or modified afterwards; subscriptions can be cancelled while they run (see Subscriptions).'
                  : 'Orders go to delivery as soon as they are paid and cannot be cancelled or modified afterwards.',
                'Delivery usually starts within 24 to 72 hours and is spread over days; these times are estimates.',
              ]}
            />
          ),
        },
        {
          heading: 'Refunds and refills',
          body: (
            <p>
              What cannot be delivered is refunded automatically within {hours(info.refundWindowHours)} of the order
              ending, and drops within {REFILL_GUARANTEE_DAYS} days of completion are refilled on request, as our{' '}
              <TextLink to="/refund-policy">Refund Policy</TextLink> describes.
            </p>
          ),
        },
        {
          heading: 'The platforms',
          body: (
            <p>
              We are independent of Instagram, YouTube and TikTok, whose own rules apply to your accounts. See our{' '}
              <TextLink to="/disclaimer">Disclaimer</TextLink>.
            </p>
          ),
        },
        {
          heading: 'Liability',
          body: (
            <p>
              Our liability for an order is limited to the amount paid for it. We are not liable for decisions the
              platforms take about your account or for indirect losses.
            </p>
          ),
        },
        {
          heading: 'Changes',
          body: (
            <p>
              We may change these terms; the version on this page, with its date, applies to orders placed while it is
              shown.
            </p>
          ),
        },
        {
          heading: 'Contact us',
          body: <StoreContacts info={info} />,
        },
      ]}
    />
  );
}
