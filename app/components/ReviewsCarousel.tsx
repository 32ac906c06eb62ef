import { useId, useRef } from 'react';
import type { PublicReview } from '../../core/catalogue/reviews.ts';

export interface ReviewsCarouselProps {
  /** Customers' approved reviews from the loader, newest first; none: the carousel renders nothing (decision 039). */
  reviews: PublicReview[];
}

/**
 * Made once: `toLocaleDateString` with options builds a formatter on every call, about 150 µs on
 * the server, which a carousel of twelve reviews paid on every render of the home page.
 */
const MONTH_AND_YEAR = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** "March 2026": when a review was written, in words that read the same on the server and in the browser. */
function monthOf(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : MONTH_AND_YEAR.format(date);
}

const STAR_PATH = 'M10 1.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L10 14.9l-5.2 2.7 1-5.8L1.5 7.7l5.9-.9L10 1.5z';

function Stars({ rating }: { rating: number }) {
  const value = Math.max(0, Math.min(5, Math.round(Number.isFinite(rating) ? rating : 0)));
  return (
    <span role="img" aria-label={`${value} out of 5 stars`} className="flex gap-0.5">
      {[0, 1, 2, 3, 4].map((i) => (
        <svg
          key={i}
          aria-hidden="true"
          viewBox="0 0 20 20"
          className={`h-4 w-4 ${i < value ? 'fill-amber-400' : 'fill-gray-200'}`}
        >
          <path d={STAR_PATH} />
        </svg>
      ))}
    </span>
  );
}

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

function Chevron({ direction }: { direction: 'left' | 'right' }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="2" className="h-5 w-5">
      <path
        d={direction === 'left' ? 'M12.5 5l-5 5 5 5' : 'M7.5 5l5 5-5 5'}
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

const navButtonClass =
  'flex h-10 w-10 items-center justify-center rounded-full border border-gray-300 bg-white text-brand-700 shadow-sm hover:border-brand-600 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700';

/**
 * Where the arrows show, by how many reviews there are: only at the widths where there are more
 * than one view holds (1 / 2 / 3 / 4 / 5 at <500 / 500 / 900 / 1200 / 1500 px), so nobody is
 * offered a button that scrolls nowhere. CSS, so the server render is already right.
 */
const ARROWS_SHOWN: Readonly<Record<number, string>> = {
  2: 'flex min-[500px]:hidden',
  3: 'flex min-[900px]:hidden',
  4: 'flex min-[1200px]:hidden',
  5: 'flex min-[1500px]:hidden',
};

/**
 * Horizontally scrolling testimonials, on the page grid like the sections around it. How many
 * show at once (1 / 2 / 3 / 4 / 5 at <500 / 500 / 900 / 1200 / 1500px) is pure CSS, so the server
 * render is already right.
 */
export function ReviewsCarousel({ reviews }: ReviewsCarouselProps) {
  const trackRef = useRef<HTMLUListElement>(null);
  const headingId = useId();

  const scrollBySlide = (direction: -1 | 1) => {
    const track = trackRef.current;
    if (!track) return;
    const slide = track.firstElementChild;
    const width = slide instanceof HTMLElement ? slide.getBoundingClientRect().width : track.clientWidth;
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    track.scrollBy({ left: direction * width, behavior: reduceMotion ? 'auto' : 'smooth' });
  };

  if (reviews.length === 0) return null;
  // One review never scrolls: no arrows, and the track is no Tab stop.
  const scrolls = reviews.length > 1;
  return (
    <section aria-labelledby={headingId} data-testid="reviews" className="mx-auto max-w-7xl px-4 py-12">
      <div className="mb-6 flex items-end justify-between gap-4">
        <div>
          <h2 id={headingId} className="text-2xl font-bold text-gray-900 sm:text-3xl">
            What our customers say
          </h2>
          <p data-testid="reviews-note" className="mt-1 text-gray-600">
            Reviews written by customers after their order was completed, published once our team checked them.
          </p>
        </div>
        {scrolls ? (
          <div className={`shrink-0 gap-2 ${ARROWS_SHOWN[reviews.length] ?? 'flex'}`}>
            <button
              type="button"
              aria-label="Previous reviews"
              className={navButtonClass}
              onClick={() => scrollBySlide(-1)}
            >
              <Chevron direction="left" />
            </button>
            <button type="button" aria-label="Next reviews" className={navButtonClass} onClick={() => scrollBySlide(1)}>
              <Chevron direction="right" />
            </button>
          </div>
        ) : null}
      </div>
      <ul
        ref={trackRef}
        data-testid="reviews-track"
        aria-label="Customer reviews"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- the track scrolls sideways, so keyboard users focus it to scroll (WCAG 2.1.1, axe scrollable-region-focusable); it stays a <ul> so the reviews keep list semantics
        tabIndex={scrolls ? 0 : undefined}
        // -mx-4 px-2 with each slide's px-2: the first card's edge on the grid line the heading starts at.
        className="-mx-4 flex snap-x snap-mandatory scroll-px-2 overflow-x-auto px-2 pb-2 [scrollbar-width:none] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 [&::-webkit-scrollbar]:hidden"
      >
        {reviews.map((review, index) => (
          <li
            key={`${review.createdAt}-${index}`}
            data-testid="review-slide"
            className="min-w-0 shrink-0 grow-0 basis-full snap-start px-2 min-[500px]:basis-1/2 min-[900px]:basis-1/3 min-[1200px]:basis-1/4 min-[1500px]:basis-1/5"
          >
            <figure className="flex h-full flex-col rounded-2xl border border-gray-200 bg-white p-5 shadow-sm">
              <Stars rating={review.rating} />
              <blockquote className="mt-3 flex-1 text-gray-700">
                <p>{review.text}</p>
              </blockquote>
              <figcaption className="mt-4 flex items-center gap-3">
                <span
                  aria-hidden="true"
                  className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-bold text-brand-800"
                >
                  {initials(review.name)}
                </span>
                <span className="min-w-0">
                  <span className="block truncate font-semibold text-gray-900">{review.name}</span>
                  <span className="block truncate text-sm text-gray-600">
                    {review.serviceName}
                    {monthOf(review.createdAt) ? `, ${monthOf(review.createdAt)}` : ''}
                  </span>
                </span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}
