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

export interface FaqForJsonLd {
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

export interface OfferForJsonLd {
  /** E.g. "1000 Instagram Followers (Standard)". */
  name: string;
  /** What the buyer is charged, as a decimal text in `currency` (e.g. "12.99"). */
  price: string;
  /** ISO 4217 code (orders are charged in USD). */
  currency: string;
  /** The tier's order page. */
  path: string;
}

export interface ProductForJsonLd {
  name: string;
  description: string;
  /** The page's own path. */
  path: string;
  image?: string | undefined;
  offers: readonly OfferForJsonLd[];
}

/**
 * schema.org Product with one Offer per price tier. No aggregateRating or review: the store has
 * no real reviews yet (the carousel shows samples), and made-up ratings break Google's rules.
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
