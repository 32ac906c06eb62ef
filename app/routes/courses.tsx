import { useEffect, useRef } from 'react';
import { Link } from '../components/Link.tsx';
import { COURSE_PREVIEW_COUNT } from '../../core/courses/paths.ts';
import { listCourses } from '../components/courses/catalogue.server.ts';
import type { Route } from './+types/courses';
import { CacheStrategy } from '../cache.ts';
import { CourseCard, courseCardData } from '../components/courses/CourseCard.tsx';
import { COURSES_PAGE } from '../components/courses/seo.ts';
import { requestContext } from '../context.ts';
import { breadcrumbJsonLd, pageMeta } from '../seo/meta.ts';
import { FRAMEWORK_FREE } from '../page-handle.ts';

/**
 * The course list (spec: 4 courses and Load More; decision 002 put it at /courses). Load More is
 * a real link to `?all=1`, so it works without JavaScript; with it, the page stays where it is and
 * focus moves to the first newly shown course. Decision 027.
 */

/** The id of the first course Load More reveals: the no-JavaScript link scrolls to it. */
const FIRST_REVEALED_ID = 'more-courses';

export function loader({ request, context }: Route.LoaderArgs) {
  const { publicUrl } = context.get(requestContext).services;
  const showAll = new URL(request.url).searchParams.get('all') === '1';
  const courses = listCourses();
  return {
    publicUrl,
    showAll,
    total: courses.length,
    cards: (showAll ? courses : courses.slice(0, COURSE_PREVIEW_COUNT)).map(courseCardData),
  };
}

/** Text, links and disclosures: no framework JavaScript in the browser (page-handle.ts). */
export const handle = FRAMEWORK_FREE;

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.catalogue });

export const meta: Route.MetaFunction = ({ data }) =>
  pageMeta({
    publicUrl: data?.publicUrl,
    // `?all=1` shows the same catalogue: one canonical address for both.
    path: COURSES_PAGE.path,
    title: COURSES_PAGE.title,
    description: COURSES_PAGE.description,
    jsonLd: breadcrumbJsonLd(data?.publicUrl, [{ name: COURSES_PAGE.title, path: COURSES_PAGE.path }]),
  });

export default function CoursesPage({ loaderData }: Route.ComponentProps) {
  const { cards, showAll, total } = loaderData;
  const firstRevealed = useRef<HTMLAnchorElement>(null);
  const wasShowingAll = useRef(showAll);

  // After Load More in the browser, focus the first new course (keyboard and screen-reader users
  // continue where the new content starts), not on a first visit to ?all=1.
  useEffect(() => {
    if (showAll && !wasShowingAll.current) firstRevealed.current?.focus();
    wasShowingAll.current = showAll;
  }, [showAll]);

  return (
    <section aria-labelledby="courses-heading" className="mx-auto max-w-7xl px-4 py-12">
      <h1 id="courses-heading" className="text-center text-3xl font-bold text-gray-900 sm:text-4xl">
        Courses
      </h1>
      <p className="mx-auto mt-3 max-w-2xl text-center text-gray-700">
        Practical online courses from Boostly Academy, written by our course team. Courses are not sold online yet: ask
        about one and we reply by e-mail.
      </p>
      <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4" data-testid="course-list">
        {cards.map((course, index) => (
          <li key={course.slug} id={index === COURSE_PREVIEW_COUNT ? FIRST_REVEALED_ID : undefined}>
            <CourseCard
              course={course}
              eager={index === 0}
              linkRef={index === COURSE_PREVIEW_COUNT ? firstRevealed : undefined}
            />
          </li>
        ))}
      </ul>
      <p className="mt-6 text-center text-sm text-gray-600" data-testid="course-count">
        Showing {cards.length} of {total} courses
      </p>
      {showAll ? null : (
        <div className="mt-6 text-center">
          <Link
            to={`?all=1#${FIRST_REVEALED_ID}`}
            preventScrollReset
            data-testid="load-more-courses"
            className="inline-flex items-center rounded-xl bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            Load More
          </Link>
        </div>
      )}
    </section>
  );
}
