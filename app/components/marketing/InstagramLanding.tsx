import { useId } from 'react';
import { Link } from '../Link.tsx';

export interface ArticleSection {
  heading: string;
  paragraphs: string[];
}

export interface LandingArticle {
  title: string;
  intro: string;
  sections: ArticleSection[];
}

/**
 * The long 'why buy' article of the Instagram followers landing tail. Its text comes from the
 * route's loader (why-buy-followers.server.ts), so it is in the server's HTML and the page data,
 * never in a JavaScript bundle.
 */
export function WhyBuyArticle({ article }: { article: LandingArticle }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-3xl px-4 py-12" data-testid="why-buy">
      <h2 id={headingId} className="text-2xl font-bold text-ink sm:text-3xl">
        {article.title}
      </h2>
      <p className="mt-4 text-lg text-gray-800">{article.intro}</p>
      {article.sections.map((section) => (
        <div key={section.heading} className="mt-8">
          <h3 className="text-xl font-semibold text-ink">{section.heading}</h3>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph} className="mt-3 text-gray-700">
              {paragraph}
            </p>
          ))}
        </div>
      ))}
      <p className="mt-8 text-gray-700">
        The details are in our{' '}
        <Link to="/refund-policy" className="font-medium text-brand-700 underline">
          Refund Policy
        </Link>{' '}
        and{' '}
        <Link to="/terms-condition" className="font-medium text-brand-700 underline">
          Terms of Service
        </Link>
        ; questions go to{' '}
        <Link to="/contact" className="font-medium text-brand-700 underline">
          support
        </Link>
        .
      </p>
    </section>
  );
}

export interface ServiceLink {
  slug: string;
  name: string;
  description: string;
}

/** Links to the platform's other services: real /service/{slug} pages, from the catalogue. */
export function OtherServices({ heading, services }: { heading: string; services: readonly ServiceLink[] }) {
  const headingId = useId();
  if (services.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="mx-auto max-w-7xl px-4 py-12" data-testid="other-services">
      <h2 id={headingId} className="text-center text-2xl font-bold text-ink sm:text-3xl">
        {heading}
      </h2>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {services.map((service) => (
          <li key={service.slug}>
            <Link
              to={`/service/${service.slug}`}
              className="block h-full rounded-card border border-line bg-white p-5 shadow-card hover:border-brand-600"
            >
              <span className="block text-lg font-semibold text-brand-800">{service.name}</span>
              <span className="mt-2 line-clamp-3 block text-sm text-gray-700">{service.description}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
