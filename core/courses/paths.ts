/**
 * The small, data-free part of the course catalogue that the browser needs (addresses and the
 * list's page size). Kept apart from catalogue.ts so the course texts and their zod schema stay
 * on the server: a page that links to a course does not download the whole catalogue.
 */

/** How many courses /courses shows before Load More (spec section 8). */
export const COURSE_PREVIEW_COUNT = 4;

/** The course page's address. */
export function coursePath(slug: string): string {
  return `/course/${slug}`;
}
