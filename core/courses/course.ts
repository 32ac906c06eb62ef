/**
 * What a course is: its slug, from a fixed list, and the schema every course is checked against
 * (docs/decisions/027-course-catalogue.md). The courses themselves are in ./course-data.ts.
 */
import { z } from 'zod';

export const COURSE_SLUGS = [
  'ai-for-beginners',
  'project-management',
  'cybersecurity',
  'english-for-career-development',
  'ibm-data-science',
  'google-cloud-data-engineer',
  'leadership-skills',
  'agile-jira',
] as const;

export type CourseSlug = (typeof COURSE_SLUGS)[number];

/** Course price bounds in whole rupees (spec: from 449 to 1499). */
export const COURSE_PRICE_MIN_INR = 449;
export const COURSE_PRICE_MAX_INR = 1499;

/** "0" to "5" in steps of one half, written as the spec does ("4.5", "4"). */
const RATING = /^(?:[0-4](?:\.[05])?|5(?:\.0)?)$/;

export const courseSchema = z.object({
  name: z.string().min(3),
  slug: z.enum(COURSE_SLUGS),
  /** A short category label on the card ("Technology"). */
  tag: z.string().min(2),
  /** One sentence for the card and the meta description. */
  shortDesc: z.string().min(20).max(160),
  /** What the course is and who it is for (paragraphs). */
  description: z.array(z.string().min(20)).min(1),
  /** Path of the 2x main image (1280×720), also the Open Graph image. */
  mainImage: z.string().startsWith('/images/courses/'),
  sideImage: z.string().startsWith('/images/courses/'),
  /** The "what you will learn" paragraph. */
  learn: z.string().min(20),
  /** Price in whole rupees. */
  price: z.number().int().min(COURSE_PRICE_MIN_INR).max(COURSE_PRICE_MAX_INR),
  /** The bullet list of topics. */
  list: z.array(z.string().min(3)).min(3),
  /** Why take it (bullets). */
  benefits: z.array(z.string().min(3)).min(2),
  /** The team that writes and answers questions on the course. */
  instructor: z.string().min(3),
  instructorImg: z.string().startsWith('/images/courses/'),
  /** Number of lessons. */
  lesson: z.number().int().positive(),
  /** Human text, e.g. "6 weeks". */
  duration: z.string().min(3),
  /** Total study time in hours (JSON-LD courseWorkload). */
  workloadHours: z.number().int().positive(),
  /** Class size: the most learners one cohort takes. Not a count of buyers. */
  students: z.number().int().positive(),
  language: z.string().min(2),
  /** When the course must be finished by, relative to the start. */
  deadline: z.string().min(3),
  skillLevel: z.enum(['Beginner', 'Intermediate', 'Advanced', 'All levels']),
  certification: z.string().min(3),
  /** The editor's rating, "0" to "5" in halves. */
  rating: z.string().regex(RATING),
});

export type Course = z.infer<typeof courseSchema>;
