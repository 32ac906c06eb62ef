import type { Route } from './+types/faq';
import { CacheStrategy } from '../cache.ts';
import { Accordion } from '../components/Accordion.tsx';
import { TextLink } from '../content/legal/LegalDocument.tsx';
import { generalFaq } from '../content/legal/faq.ts';
import { FAQ_PAGE } from '../content/legal/pages.ts';
import { helpPageMeta } from '../content/legal/seo.ts';
import { requestContext } from '../context.ts';
import { faqPageJsonLd } from '../seo/json-ld.ts';
import { absoluteUrl } from '../seo/meta.ts';
import { FRAMEWORK_FREE } from '../page-handle.ts';

export async function loader({ context }: Route.LoaderArgs) {
  const { storeInfo, publicUrl, catalogue } = context.get(requestContext).services;
  return { entries: generalFaq(storeInfo, await catalogue.subscriptionOffers()), publicUrl };
}

/** Text, links and disclosures: no framework JavaScript in the browser (page-handle.ts). */
export const handle = FRAMEWORK_FREE;

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.catalogue });

export const meta: Route.MetaFunction = ({ data }) =>
  helpPageMeta(
    FAQ_PAGE,
    data?.publicUrl,
    data ? faqPageJsonLd(data.entries, absoluteUrl(data.publicUrl, FAQ_PAGE.path)) : undefined,
  );

export default function FaqPage({ loaderData }: Route.ComponentProps) {
  return (
    <section aria-labelledby="faq-heading" className="mx-auto max-w-3xl px-4 py-12">
      <h1 id="faq-heading" className="text-center text-3xl font-bold text-gray-900 sm:text-4xl">
        {FAQ_PAGE.title}
      </h1>
      <p className="mt-3 text-center text-gray-700">
        Not answered here? <TextLink to="/contact">Contact us</TextLink> or read our{' '}
        <TextLink to="/refund-policy">Refund Policy</TextLink>.
      </p>
      {/* The accordion's questions are h3s: this keeps the heading levels in order for screen readers. */}
      <h2 className="sr-only">Questions and answers</h2>
      <div className="mt-8" data-testid="faq-accordion">
        <Accordion items={loaderData.entries} idPrefix="faq" />
      </div>
    </section>
  );
}
