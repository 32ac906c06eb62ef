import { useEffect, useRef, useState } from 'react';
import { Link } from '../components/Link.tsx';
import { orderPath } from '../../core/catalogue/order-path.ts';
import type { GroupDetailView, PlanView } from '../../core/catalogue/types.ts';
import type { Route } from './+types/home';
import { api, isAbort, messageOf } from '../api/client.ts';
import { CacheStrategy } from '../cache.ts';
import { Accordion } from '../components/Accordion.tsx';
import { NotFound } from '../components/NotFound.tsx';
import { PlanTabs, PriceCards, ServiceTabs } from '../components/PackagePicker.tsx';
import { ReviewsCarousel } from '../components/ReviewsCarousel.tsx';
import { TierPrice } from '../components/TierPrice.tsx';
import { Spinner } from '../components/Spinner.tsx';
import { moveInRadioGroup, radioProps } from '../components/radio-group.ts';
import { DescriptionBlock } from '../components/marketing/DescriptionBlock.tsx';
import { Guarantees } from '../components/marketing/Guarantees.tsx';
import { PrivacySafety } from '../components/marketing/PrivacySafety.tsx';
import { ReliabilityText } from '../components/marketing/ReliabilityText.tsx';
import { PACKAGE_DETAILS, PRIVACY_FEATURES, RELIABILITY_TEXT } from '../components/marketing/copy.ts';
import { homeFaqFor } from '../components/marketing/faq-content.ts';
import { RENEWAL_TEXT, cancelAndRefundTexts, kindsSold, offerLine } from '../content/subscriptions.ts';
import { requestContext } from '../context.ts';
import { faqPageJsonLd } from '../seo/json-ld.ts';
import { absoluteUrl, pageMeta } from '../seo/meta.ts';
import { guaranteeTerms } from '../components/marketing/guarantee-terms.server.ts';
import { type Selection, resolveSelection, selectPlan, selectService, selectServiceIn } from '../selection.ts';

/** Spec section 9: the selected category's services load after a 300 ms pause. */
const SERVICE_LOAD_DELAY_MS = 300;

/** Built by the loader, on the server, so the page's JavaScript needs no meta or JSON-LD code. */
export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.catalogue });

/**
 * The server render already shows the first category's first service, so prices are in the HTML.
 * The FAQ copy and its JSON-LD come as data too: text the page never changes stays out of the
 * JavaScript bundle (the 120 KB first-load budget, decision 036).
 */
export async function loader({ context }: Route.LoaderArgs) {
  const { catalogue, publicUrl, storeInfo, reviews } = context.get(requestContext).services;
  const groups = await catalogue.listGroups();
  const firstGroup = groups[0] ? await catalogue.getGroupDetail(groups[0].slug) : null;
  const first = firstGroup ? forChooser(firstGroup) : null;
  const offers = await catalogue.subscriptionOffers();
  const homeFaq = homeFaqFor(offers);
  return {
    groups,
    first,
    publicUrl,
    faq: homeFaq,
    // Claimed only while the catalogue sells them, on their services' own terms (decision 057).
    subscriptions: offers.length
      ? {
          heading: `Also by the period: ${kindsSold(offers)}`,
          offers: offers.map((offer) => ({ slug: offer.slug, name: offer.name, line: offerLine(offer) })),
          terms: [RENEWAL_TEXT, ...cancelAndRefundTexts(offers)],
        }
      : null,
    details: PACKAGE_DETAILS,
    privacy: PRIVACY_FEATURES,
    reliability: RELIABILITY_TEXT,
    meta: pageMeta({
      publicUrl,
      path: '/',
      title: 'Instagram, YouTube and TikTok growth packages',
      description:
        'Followers, likes and views for Instagram, YouTube and TikTok, delivered gradually. No password needed.',
      jsonLd: faqPageJsonLd(homeFaq, absoluteUrl(publicUrl, '/')),
    }),
    guarantees: guaranteeTerms(storeInfo),
    // Customers' approved reviews, newest first; none: no carousel (decision 039).
    reviews: await reviews.approved(),
  };
}

/**
 * What the package chooser shows of a group: each service's name and its plans' tiers. The page's
 * hydration data carries the first group as this, not whole: the services' descriptions, titles
 * and plan features are in no part of the page, and were half of its hydration data.
 */
interface ChooserDetail {
  group: GroupDetailView['group'];
  services: { slug: string; name: string; plans: Omit<PlanView, 'option'>[] }[];
}

function forChooser(detail: GroupDetailView): ChooserDetail {
  return {
    group: detail.group,
    services: detail.services.map(({ slug, name, plans }) => ({
      slug,
      name,
      plans: plans.map(({ type, title, icon, currency, list }) => ({ type, title, icon, currency, list })),
    })),
  };
}

type LoadState =
  { status: 'ready'; detail: ChooserDetail } | { status: 'loading' } | { status: 'failed'; message: string };

/** Another category's services: the catalogue API, through the one API client. */
function fetchGroup(slug: string, signal: AbortSignal): Promise<ChooserDetail> {
  return api.get<GroupDetailView>(`/api/services/${encodeURIComponent(slug)}`, { signal });
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { groups, first, faq, guarantees, details, privacy, reliability } = loaderData;
  const [category, setCategory] = useState(first?.group.slug ?? '');
  const [load, setLoad] = useState<LoadState>(
    first ? { status: 'ready', detail: first } : { status: 'failed', message: 'No services available' },
  );
  const [selection, setSelection] = useState<Selection | null>(first ? selectServiceIn(first.services) : null);
  const loaded = useRef(new Map<string, ChooserDetail>(first ? [[first.group.slug, first]] : []));

  /** A category already seen shows at once; any other one loads (the effect below). */
  const chooseCategory = (slug: string) => {
    if (slug === category) return;
    setCategory(slug);
    const known = loaded.current.get(slug);
    if (known) {
      setLoad({ status: 'ready', detail: known });
      setSelection(selectServiceIn(known.services));
    } else {
      setLoad({ status: 'loading' });
    }
  };

  const loading = load.status === 'loading';
  useEffect(() => {
    if (!loading) return undefined;
    let cancelled = false;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetchGroup(category, controller.signal).then(
        (detail) => {
          if (cancelled) return;
          loaded.current.set(category, detail);
          setLoad({ status: 'ready', detail });
          setSelection(selectServiceIn(detail.services));
        },
        (error: unknown) => {
          if (!cancelled && !isAbort(error)) setLoad({ status: 'failed', message: messageOf(error) });
        },
      );
    }, SERVICE_LOAD_DELAY_MS);
    return () => {
      cancelled = true;
      controller.abort();
      clearTimeout(timer);
    };
  }, [category, loading]);

  if (load.status === 'failed') return <NotFound />;

  return (
    <>
      <section className="bg-gradient-to-br from-brand-950 via-brand-900 to-brand-800 text-white">
        <div className="mx-auto grid max-w-7xl items-center gap-8 px-4 py-10 lg:grid-cols-[1fr_auto]">
          <div>
            <h1 className="text-center text-3xl font-extrabold tracking-tight sm:text-4xl lg:text-left lg:text-5xl">
              Grow your Instagram, YouTube and TikTok
            </h1>
            <p className="mx-auto mt-3 max-w-2xl text-center text-lg text-brand-100 lg:mx-0 lg:text-left">
              Pick a package, give us a username or link, and watch it grow. We never ask for your password.
            </p>
            {/* Three equal columns on a phone (icon above the name), a row of pills from 640 px. */}
            <div
              role="radiogroup"
              aria-label="Categories"
              className="mt-8 grid grid-cols-3 gap-2 sm:flex sm:justify-center sm:gap-3 lg:justify-start"
            >
              {groups.map((group) => (
                <button
                  key={group.slug}
                  type="button"
                  {...radioProps(group.slug === category)}
                  onKeyDown={(event) =>
                    moveInRadioGroup(
                      event,
                      groups.map((choice) => choice.slug),
                      chooseCategory,
                    )
                  }
                  data-testid="category-tab"
                  onClick={() => chooseCategory(group.slug)}
                  className={`flex min-w-0 flex-col items-center gap-1 rounded-card px-2 py-3 text-sm font-semibold transition sm:flex-row sm:gap-2 sm:px-4 sm:text-base ${
                    group.slug === category ? 'bg-white text-ink' : 'bg-white/10 text-white hover:bg-white/20'
                  }`}
                >
                  <img src={group.image} alt="" width={28} height={28} className="h-7 w-7" />
                  {group.title}
                </button>
              ))}
            </div>
            <div className="mt-6">
              <Guarantees terms={guarantees} tone="onBrand" />
            </div>
          </div>
          <img
            src="/images/hero.svg"
            alt=""
            width={360}
            height={280}
            loading="lazy"
            className="hidden h-[280px] w-[360px] lg:block"
          />
        </div>
      </section>

      <section aria-label="Packages" className="mx-auto max-w-5xl px-4 py-8">
        {load.status === 'loading' || !selection ? (
          <div className="flex justify-center py-16">
            <Spinner label="Loading services" />
          </div>
        ) : (
          <PackageChooser detail={load.detail} selection={selection} onChange={setSelection} />
        )}
      </section>

      {loaderData.subscriptions ? <SubscriptionOffers {...loaderData.subscriptions} /> : null}
      <DescriptionBlock items={details} />
      <ReliabilityText paragraphs={reliability} />
      <ReviewsCarousel reviews={loaderData.reviews} />
      <PrivacySafety features={privacy} />
      <section aria-labelledby="faq-heading" className="mx-auto max-w-3xl px-4 py-12">
        <h2 id="faq-heading" className="mb-6 text-center text-2xl font-bold">
          Frequently asked questions
        </h2>
        <Accordion items={faq} idPrefix="home-faq" />
      </section>
    </>
  );
}

function PackageChooser({
  detail,
  selection,
  onChange,
}: {
  detail: ChooserDetail;
  selection: Selection;
  onChange: (selection: Selection) => void;
}) {
  const { service, plan, tier } = resolveSelection(detail.services, selection);
  return (
    <div className="space-y-6">
      <ServiceTabs
        services={detail.services}
        selected={service.slug}
        onSelect={(slug) => onChange(selectService(detail.services.find((s) => s.slug === slug) ?? service))}
      />
      <PlanTabs plans={service.plans} selected={plan.type} onSelect={(type) => onChange(selectPlan(service, type))} />
      <PriceCards
        tiers={plan.list}
        currency={plan.currency}
        selectedQty={tier.qty}
        onSelect={(qty) => onChange({ ...selection, service: service.slug, plan: plan.type, qty })}
      />
      <div className="flex flex-col items-center justify-between gap-4 rounded-card bg-surface p-5 shadow-card sm:flex-row">
        <p className="text-gray-800">
          <span className="block text-sm">
            {tier.text} · {service.name} · {plan.title}
          </span>
          <span data-testid="price-block" className="text-3xl font-extrabold text-ink">
            <TierPrice price={tier.price} listPrice={tier.listPrice} />
          </span>
        </p>
        <Link
          to={orderPath(service.slug, tier.qty, plan.type)}
          className="rounded-card bg-brand-700 px-8 py-3 text-lg font-bold text-white hover:bg-brand-800"
        >
          Buy Now
        </Link>
      </div>
    </div>
  );
}

/** The subscriptions the store sells now, each with its terms and a link to its page. */
function SubscriptionOffers({
  heading,
  offers,
  terms,
}: {
  heading: string;
  offers: { slug: string; name: string; line: string }[];
  terms: string[];
}) {
  return (
    <section
      aria-labelledby="subscriptions-heading"
      className="mx-auto max-w-5xl px-4 py-8"
      data-testid="home-subscriptions"
    >
      <h2 id="subscriptions-heading" className="text-2xl font-bold text-ink">
        {heading.charAt(0).toUpperCase() + heading.slice(1)}
      </h2>
      <ul className="mt-4 grid gap-3 sm:grid-cols-2">
        {offers.map((offer) => (
          <li key={offer.slug} className="rounded-card bg-surface p-4 shadow-card">
            <Link to={`/service/${offer.slug}`} className="font-semibold text-brand-700 underline hover:text-brand-800">
              {offer.name}
            </Link>
            <p className="mt-1 text-sm text-gray-700">{offer.line}.</p>
          </li>
        ))}
      </ul>
      {terms.map((text) => (
        <p key={text} className="mt-3 text-sm text-gray-700">
          {text}
        </p>
      ))}
    </section>
  );
}
