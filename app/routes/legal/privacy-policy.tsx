import type { Route } from './+types/privacy-policy';
import { DATA_RETENTION_YEARS } from '../../../core/settings/store-info.ts';
import { CacheStrategy } from '../../cache.ts';
import { LegalDocument, List, MailLink, StoreContacts } from '../../content/legal/LegalDocument.tsx';
import { PRIVACY_PAGE } from '../../content/legal/pages.ts';
import { helpPageMeta } from '../../content/legal/seo.ts';
import { requestContext } from '../../context.ts';
import { FRAMEWORK_FREE } from '../../page-handle.ts';

export function loader({ context }: Route.LoaderArgs) {
  const { storeInfo, publicUrl } = context.get(requestContext).services;
  return { storeInfo, publicUrl };
}

/** Text, links and disclosures: no framework JavaScript in the browser (page-handle.ts). */
export const handle = FRAMEWORK_FREE;

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.catalogue });

export const meta: Route.MetaFunction = ({ data }) => helpPageMeta(PRIVACY_PAGE, data?.publicUrl);

export default function PrivacyPolicy({ loaderData: { storeInfo: info } }: Route.ComponentProps) {
  return (
    <LegalDocument
      page={PRIVACY_PAGE}
      intro={
        <p>
          This policy explains what Boostly collects when you use this website, why, who receives it and when it is
          deleted. We collect as little as we can: we never ask for a password.
        </p>
      }
      sections={[
        {
          heading: 'What we collect',
          body: (
            <List
              items={[
                'Your e-mail address, for your receipt, order updates and the codes that open your order history.',
                'The public username or link your order is for, and an optional comment if the package takes one.',
                'Your orders: package, quantity, price, status and dates.',
                'Payment references from our payment provider (order and payment IDs, amount, status). Your card details go to the provider; we never see or store your card number.',
                'Messages you send us through the contact form or by e-mail.',
                'Technical records of requests to our server (such as your IP address), kept to protect the store against abuse, for example to limit repeated attempts.',
              ]}
            />
          ),
        },
        {
          heading: 'What we never ask for',
          body: (
            <p>
              We never ask for the password of your Instagram, YouTube or TikTok account, or any other login. Anyone who
              asks for it in our name is not us.
            </p>
          ),
        },
        {
          heading: 'How we use it',
          body: (
            <List
              items={[
                'To take your payment and deliver your order to the account or post you named.',
                'To e-mail your receipt and the changes of your order’s status.',
                'To show your order history after you confirm your e-mail address with a one-time code.',
                'To answer your messages and to prevent fraud and abuse.',
              ]}
            />
          ),
        },
        {
          heading: 'Who receives it',
          body: (
            <List
              items={[
                'Our payment provider, to take and refund payments.',
                'Our delivery supplier, which receives the username or link and the quantity to deliver; not your e-mail address.',
                'Our e-mail service, to deliver our messages to you.',
              ]}
            />
          ),
        },
        {
          heading: 'Cookies',
          body: (
            <p>
              Our own pages set no tracking or advertising cookies. The payment provider’s checkout may set the cookies
              it needs to process a payment securely.
            </p>
          ),
        },
        {
          heading: 'How long we keep it',
          body: (
            <p data-testid="retention">
              No longer than {DATA_RETENTION_YEARS} years. Orders with their history and refunds, the e-mails we sent,
              one-time codes and payment records older than {DATA_RETENTION_YEARS} years are deleted automatically every
              day.
            </p>
          ),
        },
        {
          heading: 'Your choices',
          body: (
            <p>
              You can ask for a copy of the data we hold about your e-mail address, or for its deletion, by writing to{' '}
              <MailLink email={info.supportEmail} />.
            </p>
          ),
        },
        {
          heading: 'Changes to this policy',
          body: <p>When this policy changes, we update it on this page and change the date at the top.</p>,
        },
        {
          heading: 'Contact us',
          body: <StoreContacts info={info} />,
        },
      ]}
    />
  );
}
