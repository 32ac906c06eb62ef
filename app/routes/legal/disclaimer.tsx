import type { Route } from './+types/disclaimer';
import { CacheStrategy } from '../../cache.ts';
import { LegalDocument, List, StoreContacts, TextLink } from '../../content/legal/LegalDocument.tsx';
import { DISCLAIMER_PAGE } from '../../content/legal/pages.ts';
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

export const meta: Route.MetaFunction = ({ data }) => helpPageMeta(DISCLAIMER_PAGE, data?.publicUrl);

export default function Disclaimer({ loaderData: { storeInfo: info } }: Route.ComponentProps) {
  return (
    <LegalDocument
      page={DISCLAIMER_PAGE}
      intro={
        <p>
          The information on this website is provided in good faith to help you decide whether our packages suit you.
          Please read what we can and cannot promise.
        </p>
      }
      sections={[
        {
          heading: 'Not affiliated with the platforms',
          body: (
            <p>
              Boostly is an independent service. We are not affiliated with, endorsed by or sponsored by Instagram,
              YouTube or TikTok, or their owners Meta, Google and ByteDance. Their names and marks belong to them and
              are used only to say which platform a package is for.
            </p>
          ),
        },
        {
          heading: 'Platform rules',
          body: (
            <p>
              Each platform sets its own rules and may change them, and may remove followers, likes or views it
              considers inauthentic. We cannot control that. It is your decision whether using a growth service fits the
              rules of the platform you use.
            </p>
          ),
        },
        {
          heading: 'Results',
          body: (
            <List
              items={[
                'Start times and delivery speeds are estimates, not guarantees: delivery usually starts within 24 to 72 hours and is spread over days.',
                'A package delivers the quantity you buy. It cannot promise engagement, sales, reach or income.',
                'Some drop after delivery is normal; our refill guarantee covers it (see the Refund Policy).',
              ]}
            />
          ),
        },
        {
          heading: 'Reviews and offers on our pages',
          body: (
            <p>
              The reviews shown on our store pages are written by customers through the review link we e-mail after an
              order is completed, and appear only after we have checked them; we show the reviewer’s first name as they
              gave it. A review describes one customer’s experience, not a promise of the same result. Prices, offers
              and the flash-sale banner may change at any time.
            </p>
          ),
        },
        {
          heading: 'Personal use',
          body: (
            <p>
              Our packages are for growing your own accounts. Commercial resale and ordering for accounts of others are
              not allowed; see our <TextLink to="/terms-condition">Terms of Service</TextLink>.
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
