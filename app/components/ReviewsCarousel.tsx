import { useId, useRef } from 'react';

export interface Review {
  name: string;
  /** Social handle, shown with a leading @. */
  handle: string;
  /** 0–5. */
  rating: number;
  text: string;
}

export interface ReviewsCarouselProps {
  reviews: Review[];
}

/** Sample testimonials for the store's reviews carousel (illustrative, not real customers). */
export const sampleReviews: Review[] = [
  {
    name: 'Maya Thompson',
    handle: 'mayabakes',
    rating: 5,
    text: 'I ordered 5,000 followers for my baking page. Delivery started the next day and came in steadily over a week, so it looked natural.',
  },
  {
    name: 'Daniel Okafor',
    handle: 'danfitcoach',
    rating: 5,
    text: 'Only needed my username and e-mail, no password. That was the reason I trusted them, and the order arrived exactly as described.',
  },
  {
    name: 'Lucía Fernández',
    handle: 'lucia.travels',
    rating: 4,
    text: 'A few followers dropped after two weeks, but support topped them back up under the refill guarantee without any fuss.',
  },
  {
    name: 'Ethan Park',
    handle: 'ethanplaysguitar',
    rating: 5,
    text: 'Bought YouTube views for a new cover video. The views came in gradually and the video started showing up in suggestions.',
  },
  {
    name: 'Priya Nair',
    handle: 'priyadesigns',
    rating: 5,
    text: 'Checkout took a minute and the receipt landed in my inbox straight away. I could track the order status by e-mail too.',
  },
  {
    name: 'Tom Becker',
    handle: 'tomscoffeecorner',
    rating: 4,
    text: 'Support answered on a Sunday evening when I asked about the start time. Followers began arriving within 48 hours.',
  },
  {
    name: 'Aisha Rahman',
    handle: 'aisha.styles',
    rating: 5,
    text: 'TikTok likes on my latest post helped it get picked up. Clear prices and no surprises at checkout.',
  },
  {
    name: 'Marco Rossi',
    handle: 'marcocooks',
    rating: 5,
    text: 'Second order now. I placed separate orders for my two pages as the FAQ suggests and both were delivered on time.',
  },
  {
    name: 'Sofia Lindqvist',
    handle: 'sofia.paints',
    rating: 4,
    text: 'Made sure my account was public before ordering, as they ask. Growth was smooth and nothing looked suspicious.',
  },
  {
    name: 'James Walker',
    handle: 'jwalkerphoto',
    rating: 5,
    text: 'Good value for the bulk package. The bonus followers on top of my order were a nice touch.',
  },
];

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
 * Horizontally scrolling testimonials. How many show at once (1 / 2 / 3 / 4 / 5 at
 * <500 / 500 / 900 / 1200 / 1500px) is pure CSS, so the server render is already right.
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

  return (
    <section aria-labelledby={headingId} className="py-12">
      <div className="mb-6 flex items-end justify-between gap-4 px-4">
        <div>
          <h2 id={headingId} className="text-2xl font-bold text-gray-900 sm:text-3xl">
            What our customers say
          </h2>
          <p className="mt-1 text-gray-600">Reviews from people who grew their accounts with Boostly.</p>
        </div>
        <div className="flex shrink-0 gap-2">
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
      </div>
      <ul
        ref={trackRef}
        data-testid="reviews-track"
        aria-label="Customer reviews"
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- the track scrolls sideways, so keyboard users focus it to scroll (WCAG 2.1.1, axe scrollable-region-focusable); it stays a <ul> so the reviews keep list semantics
        tabIndex={0}
        className="flex snap-x snap-mandatory scroll-px-2 overflow-x-auto px-2 pb-2 [scrollbar-width:none] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 [&::-webkit-scrollbar]:hidden"
      >
        {reviews.map((review, index) => (
          <li
            key={`${review.handle}-${index}`}
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
                  <span className="block truncate text-sm text-gray-600">@{review.handle.replace(/^@/, '')}</span>
                </span>
              </figcaption>
            </figure>
          </li>
        ))}
      </ul>
    </section>
  );
}
