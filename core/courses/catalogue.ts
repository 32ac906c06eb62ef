/**
 * The static course catalogue, read by the /courses and /course/{slug} pages, the sitemap and
 * the Course JSON-LD. The data (./course-data.ts) is checked against the schema (./course.ts)
 * when this module loads, so a typo fails every test at once.
 */
import { z } from 'zod';
import { COURSE_SLUGS, type Course, courseSchema } from './course.ts';
import { COURSE_DATA } from './course-data.ts';

export {
  COURSE_PRICE_MAX_INR,
  COURSE_PRICE_MIN_INR,
  COURSE_SLUGS,
  type Course,
  type CourseSlug,
  courseSchema,
} from './course.ts';

/** The catalogue, validated once at load; frozen so no page can change it. */
export const COURSES: readonly Course[] = Object.freeze(
  z.array(courseSchema).length(COURSE_SLUGS.length).parse(COURSE_DATA),
);

const BY_SLUG = new Map<string, Course>(COURSES.map((c) => [c.slug, c]));

/** The course with this slug, or undefined (an unknown slug is the not-found page). */
export function findCourse(slug: string): Course | undefined {
  return BY_SLUG.get(slug);
}

/** All courses in catalogue order. */
export function listCourses(): readonly Course[] {
  return COURSES;
}

/**
 * The contact form's prefilled message for `/contact?course={slug}` (the honest stand-in for the
 * spec's dead "Buy Course" link), or '' when the slug names no course: only our own text is ever
 * put in the box, never what the query string says.
 */
export function courseEnquiryMessage(slug: string | null | undefined): string {
  const course = slug ? findCourse(slug) : undefined;
  return course ? `I would like to know more about the course "${course.name}".` : '';
}
