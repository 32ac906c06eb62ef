import { data } from 'react-router';
import { Link } from '../components/Link.tsx';
import type { Course } from '../../core/courses/catalogue.ts';
import { coursePath } from '../../core/courses/paths.ts';
import { findCourse } from '../components/courses/catalogue.server.ts';
import { courseImageAttributes } from '../../core/courses/images.ts';
import { formatMoney } from '../../core/money/money.ts';
import type { Route } from './+types/course';
import { CacheStrategy } from '../cache.ts';
import { EditorRating } from '../components/courses/EditorRating.tsx';
import { ShareCourse } from '../components/courses/ShareCourse.tsx';
import { COURSES_PAGE, courseBreadcrumbJsonLd, courseJsonLd } from '../components/courses/seo.ts';
import { requestContext } from '../context.ts';
import { absoluteUrl, pageMeta } from '../seo/meta.ts';
import { FRAMEWORK_FREE } from '../page-handle.ts';

/**
 * A course's page (spec "Course pages"): everything rendered on the server from the
 * static catalogue. Where the spec has a "Buy Course" link that goes nowhere, the page offers
 * "Ask about this course", the contact form with the course named (decision 027). An unknown
 * slug is the not-found page with HTTP 404 (the root error boundary shows it).
 */

export function loader({ params, context }: Route.LoaderArgs) {
  const course = findCourse(params.slug);
  if (!course) throw data(null, { status: 404 });
  const { publicUrl } = context.get(requestContext).services;
  return { course, publicUrl };
}

/** Text, links and disclosures: no framework JavaScript in the browser (page-handle.ts). */
export const handle = FRAMEWORK_FREE;

export const headers: Route.HeadersFunction = () => ({ 'Cache-Control': CacheStrategy.catalogue });

export const meta: Route.MetaFunction = ({ loaderData }) => {
  if (!loaderData) return [{ title: 'Page not found | Boostly' }];
  const { course, publicUrl } = loaderData;
  return pageMeta({
    publicUrl,
    path: coursePath(course.slug),
    title: course.name,
    description: course.shortDesc,
    image: course.mainImage,
    jsonLd: [courseJsonLd(publicUrl, course), courseBreadcrumbJsonLd(publicUrl, course)],
  });
};

const askButton =
  'inline-flex items-center justify-center rounded-xl bg-brand-700 px-6 py-3 font-bold text-white hover:bg-brand-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700';

function askPath(course: Course): string {
  return `/contact?course=${encodeURIComponent(course.slug)}`;
}

export default function CoursePage({ loaderData }: Route.ComponentProps) {
  const { course, publicUrl } = loaderData;
  const price = formatMoney(course.price, 'INR');
  return (
    <article className="mx-auto max-w-7xl px-4 py-10" data-testid="course-page">
      <nav aria-label="Breadcrumb" className="text-sm text-gray-700">
        <ol className="flex flex-wrap gap-2">
          <li>
            <Link to="/" className="hover:text-brand-700 hover:underline">
              Home
            </Link>
            <span aria-hidden="true" className="ml-2">
              ›
            </span>
          </li>
          <li>
            <Link to={COURSES_PAGE.path} className="hover:text-brand-700 hover:underline">
              Courses
            </Link>
            <span aria-hidden="true" className="ml-2">
              ›
            </span>
          </li>
          <li aria-current="page" className="font-semibold text-gray-900">
            {course.name}
          </li>
        </ol>
      </nav>

      <header className="mt-6 grid items-center gap-8 lg:grid-cols-2">
        <div>
          <p className="font-semibold text-brand-700">{course.tag}</p>
          <h1 className="mt-2 text-3xl font-extrabold text-gray-900 sm:text-4xl">{course.name}</h1>
          <p className="mt-4 text-lg text-gray-700" data-testid="course-short-desc">
            {course.shortDesc}
          </p>
          <div className="mt-4">
            <EditorRating rating={course.rating} />
          </div>
          <p className="mt-6 text-3xl font-bold text-gray-900" data-testid="course-price">
            {price}
          </p>
          <div className="mt-6 flex flex-wrap items-center gap-4">
            <Link to={askPath(course)} className={askButton} data-testid="ask-about-course">
              Ask about this course
            </Link>
            <ShareCourse
              title={course.name}
              text={course.shortDesc}
              url={absoluteUrl(publicUrl, coursePath(course.slug))}
            />
          </div>
          <p className="mt-3 text-sm text-gray-600">
            Courses are not sold online yet: send us a message and our team replies by e-mail.
          </p>
        </div>
        <img
          {...courseImageAttributes(course.slug, 'main')}
          sizes="(min-width: 1024px) 608px, calc(100vw - 2rem)"
          alt=""
          loading="eager"
          fetchPriority="high"
          decoding="async"
          className="aspect-[16/9] w-full rounded-2xl bg-brand-50 object-cover"
        />
      </header>

      <div className="mt-12 grid gap-10 lg:grid-cols-[2fr_1fr]">
        <div className="space-y-10">
          <section aria-labelledby="course-description">
            <h2 id="course-description" className="text-2xl font-bold text-gray-900">
              About this course
            </h2>
            {course.description.map((paragraph) => (
              <p key={paragraph} className="mt-4 text-gray-700">
                {paragraph}
              </p>
            ))}
          </section>

          <section aria-labelledby="course-learn" className="grid gap-8 md:grid-cols-[3fr_2fr]">
            <div>
              <h2 id="course-learn" className="text-2xl font-bold text-gray-900">
                What you will learn
              </h2>
              <p className="mt-4 text-gray-700">{course.learn}</p>
              <ul className="mt-4 space-y-2" data-testid="course-topics">
                {course.list.map((item) => (
                  <li key={item} className="flex gap-3 text-gray-800">
                    <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-1 h-4 w-4 shrink-0 fill-brand-700">
                      <path d="M7.6 13.2L4.4 10l-1.4 1.4 4.6 4.6 9.4-9.4-1.4-1.4z" />
                    </svg>
                    {item}
                  </li>
                ))}
              </ul>
            </div>
            <img
              {...courseImageAttributes(course.slug, 'side')}
              sizes="(min-width: 1024px) 280px, (min-width: 768px) 40vw, calc(100vw - 2rem)"
              alt=""
              loading="lazy"
              decoding="async"
              className="aspect-[4/5] w-full max-w-sm rounded-2xl bg-brand-50 object-cover"
            />
          </section>

          <section aria-labelledby="course-benefits">
            <h2 id="course-benefits" className="text-2xl font-bold text-gray-900">
              Benefits
            </h2>
            <ul className="mt-4 list-disc space-y-2 pl-6 text-gray-800" data-testid="course-benefits">
              {course.benefits.map((benefit) => (
                <li key={benefit}>{benefit}</li>
              ))}
            </ul>
          </section>
        </div>

        <aside
          aria-labelledby="course-includes"
          className="self-start rounded-2xl border border-gray-200 bg-white p-6 shadow-sm"
        >
          <h2 id="course-includes" className="text-xl font-bold text-gray-900">
            Course Includes
          </h2>
          <div className="mt-4 flex items-center gap-3">
            <img
              {...courseImageAttributes(course.slug, 'avatar')}
              alt=""
              loading="lazy"
              decoding="async"
              className="h-12 w-12 rounded-full"
            />
            <div>
              <p className="text-sm text-gray-600">Instructor</p>
              <p className="font-semibold text-gray-900" data-testid="course-instructor">
                {course.instructor}
              </p>
            </div>
          </div>
          <dl className="mt-4 divide-y divide-gray-200 text-sm" data-testid="course-includes">
            {(
              [
                ['Lessons', String(course.lesson)],
                ['Duration', `${course.duration} (about ${course.workloadHours} hours)`],
                ['Class size', `Up to ${course.students} learners`],
                ['Language', course.language],
                ['Deadline', course.deadline],
                ['Skill level', course.skillLevel],
                ['Certification', course.certification],
              ] as const
            ).map(([term, value]) => (
              <div key={term} className="flex justify-between gap-4 py-2">
                <dt className="text-gray-600">{term}</dt>
                <dd className="text-right font-medium text-gray-900">{value}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-4 text-2xl font-bold text-gray-900">{price}</p>
          <Link to={askPath(course)} className={`${askButton} mt-4 w-full`}>
            Ask about this course
          </Link>
        </aside>
      </div>
    </article>
  );
}
