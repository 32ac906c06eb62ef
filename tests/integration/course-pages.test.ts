/**
 * The course pages (decision 027), server-rendered by the real app on both dialects:
 * /courses with 4 cards and a working Load More link, ?all=1 with all 8, every /course/{slug}
 * with its sections, the honest rating and class-size wording, Course and BreadcrumbList JSON-LD
 * that parse, an unknown slug answering 404 with the not-found page, and /contact?course=
 * prefilling the message. Needs the production build (`npm run build`), like
 * tests/integration/pages.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COURSES } from '../../core/courses/catalogue.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { bodyText, jsonLdBlocks } from '../support/html.ts';
import { dialects } from '../support/databases.ts';

const PUBLIC_URL = 'https://shop.example.com';

function jsonLd(html: string): Record<string, unknown>[] {
  return jsonLdBlocks(html).map((block) => JSON.parse(block) as Record<string, unknown>);
}

function count(html: string, needle: string): number {
  return html.split(needle).length - 1;
}

describe.each(dialects)('course pages on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { withPages: true, env: { PUBLIC_URL } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = async (url: string, status = 200) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode, url).toBe(status);
    return response;
  };

  it('/courses shows the first 4 courses and a Load More link to ?all=1', async () => {
    const response = await get('/courses');
    expect(response.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
    const html = response.body;
    expect(html).toContain('<title>Courses | Boostly</title>');
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/courses"/>`);
    expect(html).toMatch(/<h1[^>]*>Courses<\/h1>/);
    expect(count(html, 'data-testid="course-card"')).toBe(4);
    for (const course of COURSES.slice(0, 4)) expect(html).toContain(`href="/course/${course.slug}"`);
    for (const course of COURSES.slice(4)) expect(html).not.toContain(`href="/course/${course.slug}"`);
    expect(html).toMatch(/<a[^>]*href="\/courses\?all=1#more-courses"[^>]*>Load More<\/a>/);
    const text = bodyText(html);
    expect(text).toContain('₹449.00');
    expect(text).toContain('Showing 4 of 8 courses');
    // The stars say what they are: the editor's rating, not customer reviews.
    expect(html).toContain('aria-label="Editor&#x27;s rating: 4.5 out of 5"');
    expect(text).not.toMatch(/reviews|enrolled|students/i);
    // Images at their slot size, with the 2x file offered, lazily below the first card.
    expect(html).toContain(
      'srcSet="/images/courses/project-management-main-640.webp 640w, /images/courses/project-management-main-1280.webp 1280w"',
    );
    expect(html).toMatch(/<img[^>]*width="640"[^>]*height="360"[^>]*loading="lazy"/);
    // Linked from the footer so visitors and crawlers find it.
    expect((await get('/faq')).body).toMatch(/<a[^>]*href="\/courses"[^>]*>Courses<\/a>/);
  });

  it('/courses?all=1 shows all 8 and no Load More', async () => {
    const html = (await get('/courses?all=1')).body;
    expect(count(html, 'data-testid="course-card"')).toBe(8);
    for (const course of COURSES) expect(html).toContain(`href="/course/${course.slug}"`);
    expect(html).not.toContain('Load More');
    expect(html).toContain('id="more-courses"');
    expect(bodyText(html)).toContain('Showing 8 of 8 courses');
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/courses"/>`);
  });

  it.each(COURSES.map((c) => c.slug))('/course/%s: every section, honest wording and JSON-LD', async (slug) => {
    const course = COURSES.find((c) => c.slug === slug)!;
    const response = await get(`/course/${slug}`);
    expect(response.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
    const html = response.body;
    const text = bodyText(html);
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/course/${slug}"/>`);
    expect(html).toContain(`<meta property="og:image" content="${PUBLIC_URL}/images/courses/${slug}-main-1280.webp"/>`);
    for (const heading of ['About this course', 'What you will learn', 'Benefits', 'Course Includes']) {
      expect(html).toMatch(new RegExp(`<h2[^>]*>${heading}</h2>`));
    }
    expect(text).toContain(course.name);
    expect(text).toContain(course.shortDesc);
    for (const paragraph of course.description) expect(text).toContain(paragraph);
    expect(text).toContain(course.learn);
    for (const item of [...course.list, ...course.benefits]) expect(text).toContain(item);
    expect(text).toContain(`₹${course.price}.00`);
    for (const value of [
      course.instructor,
      course.language,
      course.deadline,
      course.skillLevel,
      course.certification,
    ]) {
      expect(text).toContain(value);
    }
    expect(text).toContain(`Lessons ${course.lesson}`);
    expect(text).toContain(`Class size Up to ${course.students} learners`);
    expect(html).toContain(`aria-label="Editor&#x27;s rating: ${Number(course.rating)} out of 5"`);
    // The honest stand-in for "Buy Course", and no dead buy link.
    expect(html).toMatch(new RegExp(`<a[^>]*href="/contact\\?course=${slug}"[^>]*>Ask about this course</a>`));
    expect(text).not.toMatch(/Buy Course/i);
    // The three image slots, each at its layout size.
    expect(html).toMatch(
      new RegExp(`<img[^>]*src="/images/courses/${slug}-main-640.webp"[^>]*width="640"[^>]*height="360"`),
    );
    expect(html).toMatch(
      new RegExp(`<img[^>]*src="/images/courses/${slug}-side-400.webp"[^>]*width="400"[^>]*height="500"`),
    );
    expect(html).toMatch(
      new RegExp(`<img[^>]*src="/images/courses/${slug}-avatar-64.webp"[^>]*width="64"[^>]*height="64"`),
    );

    const blocks = jsonLd(html);
    const courseLd = blocks.find((b) => b['@type'] === 'Course');
    expect(courseLd).toMatchObject({
      '@context': 'https://schema.org',
      name: course.name,
      description: course.shortDesc,
      url: `${PUBLIC_URL}/course/${slug}`,
      provider: { '@type': 'Organization', name: 'Boostly', url: `${PUBLIC_URL}/` },
      offers: [{ '@type': 'Offer', category: 'Paid', price: String(course.price), priceCurrency: 'INR' }],
      hasCourseInstance: [
        { '@type': 'CourseInstance', courseMode: 'Online', courseWorkload: `PT${course.workloadHours}H` },
      ],
    });
    expect(JSON.stringify(courseLd)).not.toMatch(/aggregateRating|"review/);
    const breadcrumb = blocks.find((b) => b['@type'] === 'BreadcrumbList') as
      { itemListElement: { position: number; name: string; item: string }[] } | undefined;
    expect(breadcrumb?.itemListElement.map((c) => [c.position, c.name, c.item])).toEqual([
      [1, 'Home', `${PUBLIC_URL}/`],
      [2, 'Courses', `${PUBLIC_URL}/courses`],
      [3, course.name, `${PUBLIC_URL}/course/${slug}`],
    ]);
  });

  it('an unknown course is the not-found page with HTTP 404', async () => {
    for (const url of ['/course/not-a-course', '/course/AI-FOR-BEGINNERS']) {
      const response = await get(url, 404);
      const text = bodyText(response.body);
      expect(text).toContain('The page you are looking for could not be found');
      expect(response.body).not.toContain('data-testid="course-page"');
    }
  });

  it('/contact?course= prefills the message for a real course only', async () => {
    const html = (await get('/contact?course=agile-jira')).body;
    expect(html).toMatch(
      /<textarea[^>]*>I would like to know more about the course &quot;Agile with Jira&quot;\.<\/textarea>/,
    );
    for (const url of ['/contact', '/contact?course=not-a-course', '/contact?course=%3Cscript%3E']) {
      const other = (await get(url)).body;
      expect(other, url).toMatch(/<textarea[^>]*><\/textarea>/);
      expect(other, url).not.toContain('know more about the course');
    }
  });
});
