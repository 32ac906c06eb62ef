import { useState } from 'react';
import { data, redirect } from 'react-router';
import { Link, NavLink } from '../components/Link.tsx';
import { orderPath } from '../../core/catalogue/order-path.ts';
import { chargeAmountE4, describePrice } from '../../core/catalogue/pricing.ts';
import type { ServiceView } from '../../core/catalogue/types.ts';
import { formatAmountE4, numberToE4 } from '../../core/money/money.ts';
import { ORDER_CURRENCY } from '../../core/orders/types.ts';
import type { Route } from './+types/service';
import { CacheStrategy } from '../cache.ts';
import { Accordion } from '../components/Accordion.tsx';
import { NotFound } from '../components/NotFound.tsx';
import { PlanTabs, PriceCards } from '../components/PackagePicker.tsx';
import { Guarantees } from '../components/marketing/Guarantees.tsx';
import { HowToBuy } from '../components/marketing/HowToBuy.tsx';
import { OtherServices, WhyBuyArticle } from '../components/marketing/InstagramLanding.tsx';
import { ReliabilityText } from '../components/marketing/ReliabilityText.tsx';
import { HOW_TO_BUY_STEPS, RELIABILITY_TEXT } from '../components/marketing/copy.ts';
import { serviceFaqFor } from '../components/marketing/faq-content.ts';
import { guaranteeTerms } from '../components/marketing/guarantee-terms.server.ts';
import { whyBuyFollowersArticle } from '../components/marketing/why-buy-followers.server.ts';
import { requestContext } from '../context.ts';
import { faqPageJsonLd, productJsonLd } from '../seo/json-ld.ts';
import { absoluteUrl, breadcrumbJsonLd, pageMeta, privatePageMeta } from '../seo/meta.ts';
import { type Selection, resolveSelection, selectPlan, selectServiceIn } from '../selection.ts';

/** The service whose page carries the spec's landing tail ('why buy' article, links to the others). */
const LANDING_SERVICE_SLUG = 'instagram-followers';

export async function loader({ params, context }: Route.LoaderArgs) {
  const { catalogue, publicUrl, storeInfo, reviews } = context.get(requestContext).services;
  const detail = await catalogue.getGroupDetail(params.slug);
  if (!detail) throw data(null, { status: 404 });
  // A group slug (/service/instagram) names no single service: show the group's first one.
  if (detail.selected !== params.slug) throw redirect(`/service/${detail.selected}`);
  const landing = detail.selected === LANDING_SERVICE_SLUG ? whyBuyFollowersArticle(storeInfo) : null;
  const service = detail.services.find((s) => s.slug === detail.selected);
  const path = `/service/${detail.selected}`;
  // The FAQ copy and the JSON-LD are built here, on the server: text and code the page never
  // changes stay out of its JavaScript (the 120 KB first-load budget, decision 036).
  // The rating comes from customers' approved reviews of this service only (decision 039).
  const rating = service ? await reviews.aggregateFor(service.slug) : null;
  const serviceFaq = serviceFaqFor(service, await catalogue.subscriptionOffers());
  const jsonLd = service
    ? [
        serviceProductJsonLd(publicUrl, service, path, rating),
        breadcrumbJsonLd(publicUrl, [{ name: service.name, path }]),
        faqPageJsonLd(serviceFaq, absoluteUrl(publicUrl, path)),
      ]
    : [];
  return {
    detail,
    publicUrl,
    landing,
    faq: serviceFaq,
    howToBuy: HOW_TO_BUY_STEPS,
    reliability: RELIABILITY_TEXT,
    jsonLd,
    guarantees: guaranteeTerms(storeInfo),
  };
}

/** schema.org Product for a service: one Offer per plan and tier, at the price the buyer is charged. */
function serviceProductJsonLd(
  publicUrl: string,
  service: ServiceView,
  path: string,
  rating: { ratingValue: number; reviewCount: number } | null,
) {
  return productJsonLd(publicUrl, {
    name: service.name,
    rating,
    description: service.description,
    path,
    offers: service.plans.flatMap((plan) =>
      plan.list.map((tier) => ({
        name: `${service.name}: ${tier.text}, ${plan.title}`,
        price: formatAmountE4(chargeAmountE4(numberToE4(tier.price)), 2),
        currency: ORDER_CURRENCY,
        path: orderPath(service.slug, tier.qty, plan.type),
      })),
    ),
  });
}

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.catalogue });

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const service = loaderData?.detail.services.find((s) => s.slug === loaderData.detail.selected);
  if (!loaderData || !service) return privatePageMeta('Page not found');
  const { publicUrl } = loaderData;
  const path = `/service/${service.slug}`;
  return pageMeta({
    publicUrl,
    path,
    title: service.name,
    description: service.description,
    jsonLd: loaderData.jsonLd,
  });
};

export default function ServicePage({ loaderData }: Route.ComponentProps) {
  const { detail, landing, faq, guarantees, howToBuy, reliability } = loaderData;
  return (
    <ServiceDetail
      key={detail.selected}
      services={detail.services}
      slug={detail.selected}
      landing={landing}
      faq={faq}
      howToBuy={howToBuy}
      reliability={reliability}
      guarantees={guarantees}
    />
  );
}

function ServiceDetail({
  services,
  slug,
  landing,
  faq,
  howToBuy,
  reliability,
  guarantees,
}: {
  services: Route.ComponentProps['loaderData']['detail']['services'];
  slug: string;
  landing: Route.ComponentProps['loaderData']['landing'];
  faq: Route.ComponentProps['loaderData']['faq'];
  howToBuy: Route.ComponentProps['loaderData']['howToBuy'];
  reliability: Route.ComponentProps['loaderData']['reliability'];
  guarantees: Route.ComponentProps['loaderData']['guarantees'];
}) {
  const [selection, setSelection] = useState<Selection>(() => selectServiceIn(services, slug));
  const { service, plan, tier } = resolveSelection(services, selection);
  const price = describePrice(tier.price, tier.discount, plan.currency, tier.listPrice);

  return (
    <>
      <nav aria-label="Services" className="border-b border-line bg-surface">
        <ul className="mx-auto flex max-w-7xl flex-wrap gap-2 px-4 py-3">
          {services.map((s) => (
            <li key={s.slug}>
              <NavLink
                to={`/service/${s.slug}`}
                className={({ isActive }) =>
                  `block rounded-full px-4 py-2 text-sm font-semibold ${
                    isActive ? 'bg-brand-700 text-white' : 'bg-white text-gray-800 hover:text-brand-700'
                  }`
                }
              >
                {s.name}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>

      <article className="mx-auto grid max-w-7xl gap-10 px-4 py-10 lg:grid-cols-[1fr_22rem]">
        <div className="space-y-6">
          <header className="grid items-center gap-6 sm:grid-cols-[1fr_15rem]">
            <div className="space-y-3">
              <h1 className="text-3xl font-extrabold tracking-tight text-ink sm:text-4xl">{service.name}</h1>
              <p className="rich-text text-xl text-gray-800" dangerouslySetInnerHTML={{ __html: service.title }} />
              <p className="text-gray-700">{service.description}</p>
            </div>
            {/* The catalogue's picture of the service; width and height reserve its box before it loads. */}
            <img
              src={service.image}
              alt=""
              width={400}
              height={240}
              data-testid="service-image"
              className="h-auto w-full max-w-sm rounded-card shadow-card"
            />
          </header>

          <PlanTabs
            plans={service.plans}
            selected={plan.type}
            showType
            onSelect={(type) => setSelection(selectPlan(service, type))}
          />

          <ul aria-label={`${plan.title} includes`} className="grid gap-2 sm:grid-cols-2">
            {plan.option.map((option) => (
              <li key={option.name} className="flex items-center gap-2 text-gray-800">
                <span aria-hidden="true" className="text-success-700">
                  ✓
                </span>
                {option.name}
              </li>
            ))}
          </ul>

          <PriceCards
            tiers={plan.list}
            currency={plan.currency}
            selectedQty={tier.qty}
            detailed
            onSelect={(qty) => setSelection({ service: service.slug, plan: plan.type, qty })}
          />
        </div>

        <aside
          aria-label="Your package"
          className="h-fit rounded-card border border-line p-6 shadow-card lg:sticky lg:top-4"
        >
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-800">{plan.type}</p>
          {/* The tier's text already names the unit ("100 Followers"): adding the service's name
              again printed "100 Followers Followers". */}
          <p data-testid="package-summary" className="mt-1 text-lg font-bold text-ink">
            {tier.text} · {service.name}
          </p>
          <p className="mt-4 flex items-baseline gap-3">
            <span data-testid="detail-price" className="text-3xl font-extrabold text-ink">
              {price.price}
            </span>
            {price.badge ? (
              <span
                data-testid="discount-badge"
                className="rounded-full bg-danger-700 px-2 py-0.5 text-xs font-bold text-white"
              >
                {price.badge}
              </span>
            ) : null}
          </p>
          {price.original ? (
            <dl className="mt-2 grid grid-cols-2 gap-1 text-sm text-gray-700">
              <dt>{price.originalLabel}</dt>
              <dd data-testid="original-price" className="text-right line-through">
                {price.original}
              </dd>
              <dt>You Save</dt>
              <dd data-testid="you-save" className="text-right font-semibold text-success-800">
                {price.youSave}
              </dd>
            </dl>
          ) : null}
          <Link
            to={orderPath(service.slug, tier.qty, plan.type)}
            className="mt-6 block rounded-card bg-brand-700 px-6 py-3 text-center text-lg font-bold text-white hover:bg-brand-800"
          >
            Buy Now
          </Link>
          <p className="mt-4 text-xs text-gray-700">
            By placing an order you agree to our{' '}
            <Link to="/terms-condition" className="font-medium text-brand-700 underline">
              Terms of Service
            </Link>{' '}
            and{' '}
            <Link to="/privacy-policy" className="font-medium text-brand-700 underline">
              Privacy Policy
            </Link>
            . We never ask for your password; your account must be public.
          </p>
          <div className="mt-4">
            <Guarantees terms={guarantees} tone="plain" />
          </div>
        </aside>
      </article>

      <HowToBuy steps={howToBuy} />
      <ReliabilityText paragraphs={reliability} />
      <section aria-labelledby="service-faq-heading" className="mx-auto max-w-3xl px-4 py-12">
        <h2 id="service-faq-heading" className="mb-6 text-center text-2xl font-bold">
          {service.name}: questions and answers
        </h2>
        <Accordion items={faq} idPrefix="service-faq" variant={landing ? 'radio' : 'card'} />
      </section>
      {landing ? (
        <>
          <WhyBuyArticle article={landing} />
          <OtherServices
            heading="More for your Instagram"
            services={services.filter((other) => other.slug !== service.slug)}
          />
        </>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return <NotFound />;
}
