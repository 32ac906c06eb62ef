/**
 * JSON-LD builders that only some pages need (Organization, FAQPage, Product). Apart from
 * meta.ts, which every page loads, so a page downloads only the builders its own meta uses
 * (docs/decisions/029-search-engines-and-sharing.md).
 */
import { DEFAULT_SHARE_IMAGE, type JsonLd, LOGO_IMAGE, SCHEMA_CONTEXT, SITE_NAME, absoluteUrl } from './meta.ts';

/** The store as a schema.org Organization: in every page's head (app/root.tsx) and as a publisher. */
export function organizationJsonLd(publicUrl: string | undefined, supportEmail?: string): JsonLd {
  return {
    '@context': SCHEMA_CONTEXT,
    '@type': 'Organization',
    name: SITE_NAME,
    url: absoluteUrl(publicUrl, '/'),
    logo: absoluteUrl(publicUrl, LOGO_IMAGE),
    ...(supportEmail
      ? {
          contactPoint: {
            '@type': 'ContactPoint',
            contactType: 'customer support',
            email: supportEmail,
            url: absoluteUrl(publicUrl, '/contact'),
            availableLanguage: 'English',
          },
        }
      : {}),
  };
}

interface FaqForJsonLd {
  question: string;
  /** Plain text, the same words the accordion shows. */
  answer: string;
}

/** schema.org FAQPage for an accordion's questions and answers (only plain-text answers qualify). */
export function faqPageJsonLd(entries: readonly FaqForJsonLd[], url: string): JsonLd {
  return {
    '@context': SCHEMA_CONTEXT,
    '@type': 'FAQPage',
    url,
    mainEntity: entries.map((entry) => ({
      '@type': 'Question',
      name: entry.question,
      acceptedAnswer: { '@type': 'Answer', text: entry.answer },
    })),
  };
}

interface OfferForJsonLd {
  /** E.g. "1000 Instagram Followers (Standard)". */
  name: string;
  /** What the buyer is charged, as a decimal text in `currency` (e.g. "12.99"). */
  price: string;
  /** ISO 4217 code (orders are charged in USD). */
  currency: string;
  /** The tier's order page. */
  path: string;
}

interface ProductForJsonLd {
  name: string;
  description: string;
  /** The page's own path. */
  path: string;
  image?: string | undefined;
  offers: readonly OfferForJsonLd[];
  /** From customers' approved reviews of this service's orders (decision 039); absent when there are none. */
  rating?: { ratingValue: number; reviewCount: number } | null | undefined;
}

/**
 * schema.org Product with one Offer per price tier, and an AggregateRating only from customers'
 * approved reviews (decision 039): never an invented one, none at all without reviews.
 */
export function productJsonLd(publicUrl: string | undefined, product: ProductForJsonLd): JsonLd {
  return {
    '@context': SCHEMA_CONTEXT,
    '@type': 'Product',
    name: product.name,
    description: product.description,
    url: absoluteUrl(publicUrl, product.path),
    image: absoluteUrl(publicUrl, product.image || DEFAULT_SHARE_IMAGE),
    brand: { '@type': 'Brand', name: SITE_NAME },
    ...(product.rating && product.rating.reviewCount > 0
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: product.rating.ratingValue,
            reviewCount: product.rating.reviewCount,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
    offers: product.offers.map((offer) => ({
      '@type': 'Offer',
      name: offer.name,
      price: offer.price,
      priceCurrency: offer.currency,
      availability: 'https://schema.org/InStock',
      url: absoluteUrl(publicUrl, offer.path),
      seller: { '@type': 'Organization', name: SITE_NAME },
    })),
  };
}
