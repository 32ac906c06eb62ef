/**
 * The course catalogue as route loaders read it. `.server` keeps it (the course texts and their
 * zod schema) out of the browser bundles: components get courses from loader data.
 */
export { courseEnquiryMessage, findCourse, listCourses } from '../../../core/courses/catalogue.ts';
