import { Link } from '../Link.tsx';
import { BlogImage } from './BlogImage.tsx';
import { categoryPath, formatPostDate, postPath, publishedDateOf } from './format.ts';
import type { BlogCard } from './types.ts';

export interface PostCardProps {
  card: BlogCard;
  /** The first card's image loads eagerly; every other one lazily. */
  eager?: boolean;
  /** The heading level fitting where the card sits (h2 in a list, h3 under "Related posts"). */
  headingLevel?: 2 | 3;
}

/** The spec's card: image (or fallback), category, long US date, title, shortDesc, Read more. */
export function PostCard({ card, eager = false, headingLevel = 2 }: PostCardProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const href = postPath(card.slug);
  return (
    <article
      data-testid="blog-card"
      className="flex flex-col overflow-hidden rounded-2xl border border-gray-200 bg-white shadow-sm"
    >
      <BlogImage picture={card.picture} alt="" eager={eager} />
      <div className="flex flex-1 flex-col gap-3 p-5">
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          {card.category && card.categorySlug ? (
            <Link
              to={categoryPath(card.categorySlug)}
              className="font-semibold text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
            >
              {card.category}
            </Link>
          ) : card.category ? (
            <span className="font-semibold text-brand-700">{card.category}</span>
          ) : null}
          <time dateTime={publishedDateOf(card)} className="text-gray-600">
            {formatPostDate(publishedDateOf(card))}
          </time>
        </p>
        <Heading className="text-xl font-bold text-gray-900">
          <Link
            to={href}
            className="hover:text-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            {card.title}
          </Link>
        </Heading>
        <p className="flex-1 text-gray-700">{card.shortDesc}</p>
        <Link
          to={href}
          data-testid="read-more"
          className="self-start font-semibold text-brand-700 underline hover:text-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
        >
          Read more<span className="sr-only">{` about ${card.title}`}</span>
        </Link>
      </div>
    </article>
  );
}
