/**
 * The static course catalogue (decision 027): exactly the spec's eight slugs, every
 * field present and typed, prices within the spec's rupee range, ratings 0–5 in halves, honest
 * wording, the contact form's course enquiry, and every committed image file at the pixel size
 * its slot is laid out for (read with sharp, not trusted from the file name).
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  COURSES,
  COURSE_PRICE_MAX_INR,
  COURSE_PRICE_MIN_INR,
  courseEnquiryMessage,
  courseSchema,
  findCourse,
  listCourses,
} from '../../core/courses/catalogue.ts';
import { COURSE_IMAGE_SIZES, courseImageAttributes } from '../../core/courses/images.ts';
import { courseImageFiles } from '../support/course-images.ts';
import { starFills } from '../../app/components/courses/EditorRating.tsx';
import { courseJsonLd } from '../../app/components/courses/seo.ts';

const SPEC_SLUGS = [
  'ai-for-beginners',
  'project-management',
  'cybersecurity',
  'english-for-career-development',
  'ibm-data-science',
  'google-cloud-data-engineer',
  'leadership-skills',
  'agile-jira',
];

const publicDir = path.resolve(import.meta.dirname, '../../public');

describe('course catalogue', () => {
  it('has exactly the spec’s eight slugs, in order, each once', () => {
    expect(COURSES.map((c) => c.slug)).toEqual(SPEC_SLUGS);
    expect(listCourses()).toBe(COURSES);
  });

  it.each(SPEC_SLUGS)('%s: every spec field passes the schema, price in rupees 449–1499', (slug) => {
    const course = findCourse(slug);
    expect(course).toBeDefined();
    expect(courseSchema.parse(course)).toEqual(course);
    expect(Number.isInteger(course!.price)).toBe(true);
    expect(course!.price).toBeGreaterThanOrEqual(COURSE_PRICE_MIN_INR);
    expect(course!.price).toBeLessThanOrEqual(COURSE_PRICE_MAX_INR);
    expect([COURSE_PRICE_MIN_INR, COURSE_PRICE_MAX_INR]).toEqual([449, 1499]);
  });

  it.each(SPEC_SLUGS)('%s: rating is 0–5 in steps of one half', (slug) => {
    const rating = Number(findCourse(slug)!.rating);
    expect(rating).toBeGreaterThanOrEqual(0);
    expect(rating).toBeLessThanOrEqual(5);
    expect(Number.isInteger(rating * 2)).toBe(true);
  });

  it('names are unique', () => {
    expect(new Set(COURSES.map((c) => c.name)).size).toBe(COURSES.length);
  });

  it('rejects a price or rating outside the rules', () => {
    const course = findCourse('cybersecurity')!;
    expect(courseSchema.safeParse({ ...course, price: 448 }).success).toBe(false);
    expect(courseSchema.safeParse({ ...course, price: 1500 }).success).toBe(false);
    expect(courseSchema.safeParse({ ...course, rating: '4.3' }).success).toBe(false);
    expect(courseSchema.safeParse({ ...course, rating: '5.5' }).success).toBe(false);
    expect(courseSchema.safeParse({ ...course, slug: 'not-a-course' }).success).toBe(false);
  });

  it('does not find an unknown slug', () => {
    expect(findCourse('not-a-course')).toBeUndefined();
    expect(findCourse('')).toBeUndefined();
  });

  it('makes no claim the store cannot back: vendor courses disclaim the vendor, no invented person', () => {
    for (const slug of ['ibm-data-science', 'google-cloud-data-engineer'] as const) {
      const course = findCourse(slug)!;
      expect(course.description.join(' ')).toMatch(/not affiliated with (IBM|Google)/);
      expect(course.certification).toMatch(/separate/);
    }
    for (const course of COURSES) expect(course.instructor).toMatch(/^Boostly Academy/);
  });
});

describe('course enquiry for the contact form', () => {
  it('names a real course', () => {
    expect(courseEnquiryMessage('agile-jira')).toBe('I would like to know more about the course "Agile with Jira".');
  });

  it.each([null, undefined, '', 'unknown', '<script>alert(1)</script>'])('is empty for %s', (slug) => {
    expect(courseEnquiryMessage(slug)).toBe('');
  });
});

describe('editor rating stars', () => {
  it.each([
    ['0', [0, 0, 0, 0, 0]],
    ['4', [1, 1, 1, 1, 0]],
    ['4.5', [1, 1, 1, 1, 0.5]],
    ['0.5', [0.5, 0, 0, 0, 0]],
    ['5', [1, 1, 1, 1, 1]],
  ])('%s → %j', (rating, fills) => {
    expect(starFills(Number(rating))).toEqual(fills);
  });
});

describe('Course JSON-LD', () => {
  it('has provider, INR offer with category, an online instance, and no aggregateRating', () => {
    const ld = courseJsonLd('https://shop.example.com', findCourse('cybersecurity')!);
    expect(ld).toMatchObject({
      '@type': 'Course',
      name: 'Cybersecurity Fundamentals',
      url: 'https://shop.example.com/course/cybersecurity',
      image: 'https://shop.example.com/images/courses/cybersecurity-main-1280.webp',
      provider: { '@type': 'Organization', name: 'Boostly', url: 'https://shop.example.com/' },
      offers: [{ '@type': 'Offer', price: '1199', priceCurrency: 'INR', category: 'Paid' }],
      hasCourseInstance: [{ '@type': 'CourseInstance', courseMode: 'Online', courseWorkload: 'PT20H' }],
    });
    expect(JSON.stringify(ld)).not.toMatch(/aggregateRating|review/i);
  });
});

describe('course images', () => {
  const files = COURSES.flatMap((course) => courseImageFiles(course.slug));

  it('six files per course (three slots at 1x and 2x)', () => {
    expect(files).toHaveLength(SPEC_SLUGS.length * 6);
  });

  it.each(files)('$path is a $width×$height WebP', async ({ path: urlPath, width, height }) => {
    const file = path.join(publicDir, urlPath);
    expect(existsSync(file), urlPath).toBe(true);
    const metadata = await sharp(file).metadata();
    expect(metadata.format).toBe('webp');
    expect([metadata.width, metadata.height]).toEqual([width, height]);
  });

  it('each course’s spec image fields point at its 2x files', () => {
    for (const course of COURSES) {
      const sizes = Object.fromEntries(courseImageFiles(course.slug).map((f) => [f.path, f]));
      expect(sizes[course.mainImage]).toMatchObject({ width: 1280, height: 720 });
      expect(sizes[course.sideImage]).toMatchObject({ width: COURSE_IMAGE_SIZES.side.width * 2 });
      expect(sizes[course.instructorImg]).toMatchObject({ width: COURSE_IMAGE_SIZES.avatar.width * 2 });
    }
  });

  it('srcset offers the 1x and 2x files at their widths', () => {
    expect(courseImageAttributes('agile-jira', 'main')).toEqual({
      src: '/images/courses/agile-jira-main-640.webp',
      srcSet: '/images/courses/agile-jira-main-640.webp 640w, /images/courses/agile-jira-main-1280.webp 1280w',
      width: 640,
      height: 360,
    });
  });

  it('stay small: under 400 KB for all 48 files together', () => {
    const total = files.reduce((sum, f) => sum + statSync(path.join(publicDir, f.path)).size, 0);
    expect(total).toBeLessThan(400_000);
  });
});
