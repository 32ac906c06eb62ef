import type { Route } from './+types/refund-policy';
import { MONEY_BACK_DAYS, REFILL_GUARANTEE_DAYS } from '../../../core/settings/store-info.ts';
import { CacheStrategy } from '../../cache.ts';
import { LegalDocument, List, StoreContacts, TextLink, hours } from '../../content/legal/LegalDocument.tsx';
import { REFUND_PAGE } from '../../content/legal/pages.ts';
import { helpPageMeta } from '../../content/legal/seo.ts';
import { requestContext } from '../../context.ts';
import { RENEWAL_TEXT, cancelAndRefundTexts, kindsSold } from '../../content/subscriptions.ts';
import { FRAMEWORK_FREE } from '../../page-handle.ts';

export async function loader({ context }: Route.LoaderArgs) {
  const { storeInfo, publicUrl, catalogue } = context.get(requestContext).services;
  const offers = await catalogue.subscriptionOffers();
  // The subscriptions' refund rules are stated only while the catalogue sells them (decision 057).
  const subscriptions = offers.length
    ? { kinds: kindsSold(offers), renewal: RENEWAL_TEXT, rules: cancelAndRefundTexts(offers) }
    : null;
  return { storeInfo, publicUrl, subscriptions };
}

/** Text, links and disclosures: no framework JavaScript in the browser (page-handle.ts). */
export const handle = FRAMEWORK_FREE;

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.catalogue });

export const meta: Route.MetaFunction = ({ data }) => helpPageMeta(REFUND_PAGE, data?.publicUrl);

/** The spec's refund policy, its timeframe, e-mail and phone placeholders filled from the store settings. */
export default function RefundPolicy({ loaderData: { storeInfo: info, subscriptions } }: Route.ComponentProps) {
  const window = hours(info.refundWindowHours);
  return (
    <LegalDocument
      page={REFUND_PAGE}
      intro={
        <p>
          We want you to get what you paid for. When an order cannot be delivered, you get your money back for what was
          not delivered, without having to ask. This policy explains when and how.
        </p>
      }
      sections={[
        {
          heading: 'Orders that are not delivered',
          body: (
            <>
              <p>
                Every paid order is passed to our delivery supplier, and we follow its progress. When an order ends
                without being delivered in full, we refund automatically:
              </p>
              <List
                items={[
                  <>
                    <strong>Canceled</strong> (nothing could be delivered): the full amount you paid.
                  </>,
                  <>
                    <strong>Partial</strong> (only part was delivered): the share you paid for the quantity not
                    delivered.
                  </>,
                ]}
              />
            </>
          ),
        },
        ...(subscriptions
          ? [
              {
                heading: `Subscriptions: ${subscriptions.kinds}`,
                body: (
                  <div data-testid="refund-subscriptions">
                    {subscriptions.rules.map((text) => (
                      <p key={text}>{text}</p>
                    ))}
                    <p>{subscriptions.renewal}</p>
                  </div>
                ),
              },
            ]
          : []),
        {
          heading: 'When you receive it',
          body: (
            <p data-testid="refund-window">
              The refund is issued to the card or account you paid with within <strong>{window}</strong> of the order
              ending canceled or partial, and we e-mail you when the order ends. Your bank or card issuer may take a few
              more working days to show it on your statement.
            </p>
          ),
        },
        {
          heading: `${MONEY_BACK_DAYS}-day money-back guarantee`,
          body: (
            <p>
              If an order was not delivered as described and no refund has reached you, write to us within{' '}
              {MONEY_BACK_DAYS} days of ordering with your order ID. We check the delivery with our supplier and refund
              what was not delivered.
            </p>
          ),
        },
        {
          heading: `${info.refillWindowDays ?? REFILL_GUARANTEE_DAYS}-day refill guarantee`,
          body: (
            <p>
              Some followers may drop after delivery. Within {info.refillWindowDays ?? REFILL_GUARANTEE_DAYS} days of
              your order being completed, request a refill from <TextLink to="/client">My orders</TextLink> (offered
              when the supplier of your service supports refills) or tell us your order ID, and we top the drop up free
              of charge. You see the refill&apos;s state there. A refill replaces what dropped; it is not a refund.
            </p>
          ),
        },
        {
          heading: 'What is not refunded',
          body: (
            <List
              items={[
                'What has been delivered: followers, likes and views that reached the account or post you named.',
                subscriptions
                  ? 'A change of mind after paying for a one-off package: it goes to delivery at once and cannot be cancelled or modified. (Subscriptions can be cancelled while they run, as above.)'
                  : 'A change of mind after paying: orders go to delivery at once and cannot be cancelled or modified.',
                'An order for the wrong account or link that was delivered to it: please check the username or link before paying.',
              ]}
            />
          ),
        },
        {
          heading: 'Contact us',
          body: (
            <>
              <p>
                Questions about a refund? Our support answers 24 hours a day, 7 days a week. You can check any order’s
                status yourself under <TextLink to="/client">My orders</TextLink>.
              </p>
              <StoreContacts info={info} />
            </>
          ),
        },
      ]}
    />
  );
}
