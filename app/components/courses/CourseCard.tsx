import type { Ref } from 'react';
import { Link } from '../Link.tsx';
import type { Course } from '../../../core/courses/catalogue.ts';
import { coursePath } from '../../../core/courses/paths.ts';
import { courseImageAttributes } from '../../../core/courses/images.ts';
import { formatMoney } from '../../../core/money/money.ts';
import { EditorRating } from './EditorRating.tsx';

/** What a card shows: the loader sends only these fields, not the whole course text. */
export type CourseCardData = Pick<Course, 'slug' | 'name' | 'tag' | 'shortDesc' | 'price' | 'rating'>;

export function courseCardData(course: Course): CourseCardData {
  const { slug, name, tag, shortDesc, price, rating } = course;
  return { slug, name, tag, shortDesc, price, rating };
}

export interface CourseCardProps {
  course: CourseCardData;
  /** The first card's image is the likely largest paint: loaded at once; the others lazily. */
  eager?: boolean;
  /** The card's link, for Load More to focus the first newly shown course. */
  linkRef?: Ref<HTMLAnchorElement> | undefined;
}

/** Cards are 1 column on phones, 2 from 640 px, 4 from 1024 px in a 1280 px container. */
const CARD_IMAGE_SIZES = '(min-width: 1024px) 300px, (min-width: 640px) 50vw, 100vw';

/**
 * One course in the list: image, tag, name, short description, price and the editor's rating.
 * The name is the card's one link, stretched over the card, so a screen reader hears one link per
 * course.
 */
export function CourseCard({ course, eager = false, linkRef }: CourseCardProps) {
  return (
    <article
      data-testid="course-card"
      className="relative flex h-full flex-col overflow-hidden rounded-2xl border border-gray-200 bg-white shadow-sm focus-within:ring-2 focus-within:ring-brand-700 hover:shadow-md"
    >
      <img
        {...courseImageAttributes(course.slug, 'main')}
        sizes={CARD_IMAGE_SIZES}
        alt=""
        loading={eager ? 'eager' : 'lazy'}
        fetchPriority={eager ? 'high' : undefined}
        decoding="async"
        className="aspect-[16/9] w-full bg-brand-50 object-cover"
      />
      <div className="flex flex-1 flex-col gap-3 p-5">
        <p className="text-sm font-semibold text-brand-700">{course.tag}</p>
        <h2 className="text-lg font-bold text-gray-900">
          <Link
            ref={linkRef}
            to={coursePath(course.slug)}
            className="after:absolute after:inset-0 hover:text-brand-700 focus-visible:outline-none"
          >
            {course.name}
          </Link>
        </h2>
        <p className="flex-1 text-gray-700">{course.shortDesc}</p>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-lg font-bold text-gray-900" data-testid="course-price">
            {formatMoney(course.price, 'INR')}
          </p>
          <EditorRating rating={course.rating} />
        </div>
      </div>
    </article>
  );
}
