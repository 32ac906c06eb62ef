/**
 * Search and sharing data of the course pages (decisions 027, 029): schema.org `Course` for each course
 * page, the breadcrumb trail, and the pages' titles. No `aggregateRating` and no review: the
 * stars are our editor's rating, not customers' (docs/decisions/027-course-catalogue.md).
 */
import type { Course } from '../../../core/courses/catalogue.ts';
import { coursePath } from '../../../core/courses/paths.ts';
import { type JsonLd, SITE_NAME, absoluteUrl, breadcrumbJsonLd } from '../../seo/meta.ts';

export const COURSES_PAGE = {
  path: '/courses',
  title: 'Courses',
  description:
    'Eight practical online courses from Boostly Academy: AI, project management, cybersecurity, English for work, data and leadership, priced in rupees.',
} as const;

/** schema.org Course with its offer (rupees) and an online course instance. */
export function courseJsonLd(publicUrl: string | undefined, course: Course): JsonLd {
  const url = absoluteUrl(publicUrl, coursePath(course.slug));
  return {
    '@context': 'https://schema.org',
    '@type': 'Course',
    name: course.name,
    description: course.shortDesc,
    url,
    image: absoluteUrl(publicUrl, course.mainImage),
    inLanguage: 'en',
    educationalLevel: course.skillLevel,
    teaches: course.list,
    provider: { '@type': 'Organization', name: SITE_NAME, url: absoluteUrl(publicUrl, '/') },
    offers: [
      {
        '@type': 'Offer',
        category: 'Paid',
        price: String(course.price),
        priceCurrency: 'INR',
        url,
      },
    ],
    hasCourseInstance: [
      {
        '@type': 'CourseInstance',
        courseMode: 'Online',
        courseWorkload: `PT${course.workloadHours}H`,
        inLanguage: 'en',
      },
    ],
  };
}

/** Home › Courses › the course. */
export function courseBreadcrumbJsonLd(publicUrl: string | undefined, course: Course): JsonLd {
  return breadcrumbJsonLd(publicUrl, [
    { name: COURSES_PAGE.title, path: COURSES_PAGE.path },
    { name: course.name, path: coursePath(course.slug) },
  ]);
}
