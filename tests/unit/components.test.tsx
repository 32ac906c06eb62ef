import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { Accordion } from '../../app/components/Accordion.tsx';
import { Footer } from '../../app/components/Footer.tsx';
import { NotFound } from '../../app/components/NotFound.tsx';
import { ReviewsCarousel } from '../../app/components/ReviewsCarousel.tsx';
import type { PublicReview } from '../../core/catalogue/reviews.ts';
import { Spinner } from '../../app/components/Spinner.tsx';
import { TopBar, formatCountdown } from '../../app/components/TopBar.tsx';
import { DescriptionBlock } from '../../app/components/marketing/DescriptionBlock.tsx';
import { HowToBuy } from '../../app/components/marketing/HowToBuy.tsx';
import { PrivacySafety } from '../../app/components/marketing/PrivacySafety.tsx';
import { HOW_TO_BUY_STEPS, PACKAGE_DETAILS, PRIVACY_FEATURES } from '../../app/components/marketing/copy.ts';
import { homeFaq, serviceFaq } from '../../app/components/marketing/faq-content.ts';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const SECOND = 1_000;

function inRouter(node: ReactNode): string {
  return renderToStaticMarkup(<StaticRouter location="/">{node}</StaticRouter>);
}

describe('formatCountdown', () => {
  it('formats hours, minutes and seconds with two digits', () => {
    expect(formatCountdown(4 * HOUR + 49 * MINUTE + 5 * SECOND)).toBe('04 hr 49 min 05 sec');
  });

  it('rounds partial seconds down', () => {
    expect(formatCountdown(5 * SECOND + 999)).toBe('00 hr 00 min 05 sec');
  });

  it('prints hours above 99 as they are', () => {
    expect(formatCountdown(123 * HOUR + 1 * SECOND)).toBe('123 hr 00 min 01 sec');
  });

  it('shows zeros at and below zero', () => {
    expect(formatCountdown(0)).toBe('00 hr 00 min 00 sec');
    expect(formatCountdown(-5 * SECOND)).toBe('00 hr 00 min 00 sec');
    expect(formatCountdown(Number.NaN)).toBe('00 hr 00 min 00 sec');
  });
});

describe('TopBar', () => {
  const renderedAt = 1_700_000_000_000;
  const sale = (services: 'all' | string[] = 'all') => ({
    text: 'Flash sale: 20% OFF',
    percent: 20,
    endsAt: renderedAt + 4 * HOUR + 49 * MINUTE + 5 * SECOND,
    services,
    at: renderedAt,
  });

  it('shows the configured sale text and the countdown to its real end', () => {
    const html = renderToStaticMarkup(<TopBar sale={sale()} pathname="/" renderedAt={renderedAt} />);
    expect(html).toContain('Flash sale: 20% OFF');
    expect(html).not.toContain('50% OFF');
    expect(html).toContain('data-testid="top-bar"');
    expect(html).toMatch(/data-testid="countdown"[^>]*>04 hr 49 min 05 sec</);
    expect(html).toContain('role="timer"');
  });

  it('renders nothing without a sale', () => {
    expect(renderToStaticMarkup(<TopBar sale={null} pathname="/" renderedAt={renderedAt} />)).toBe('');
  });

  it('a sale on some services shows on home and their pages only', () => {
    const some = sale(['tiktok-likes']);
    const at = (pathname: string) =>
      renderToStaticMarkup(<TopBar sale={some} pathname={pathname} renderedAt={renderedAt} />);
    expect(at('/')).toContain('data-testid="top-bar"');
    expect(at('/service/tiktok-likes')).toContain('data-testid="top-bar"');
    expect(at('/order/tiktok-likesGOI100')).toContain('data-testid="top-bar"');
    expect(at('/service/instagram-followers')).toBe('');
    expect(at('/order/instagram-followersGOI100')).toBe('');
    expect(at('/faq')).toBe('');
  });
});

describe('Footer', () => {
  const groups = [
    {
      slug: 'instagram',
      title: 'Instagram',
      image: '/images/groups/instagram.svg',
      services: [
        { name: 'Instagram Followers', slug: 'instagram-followers' },
        { name: 'Instagram Likes', slug: 'instagram-likes' },
      ],
    },
    {
      slug: 'youtube',
      title: 'YouTube',
      image: '/images/groups/youtube.svg',
      services: [{ name: 'YouTube Views', slug: 'youtube-views' }],
    },
  ];

  it('links every service to /service/{slug} under its group heading', () => {
    const html = inRouter(<Footer groups={groups} />);
    expect(html).toContain('data-testid="site-footer"');
    expect(html).toContain('href="/service/instagram-followers"');
    expect(html).toContain('href="/service/instagram-likes"');
    expect(html).toContain('href="/service/youtube-views"');
    expect(html).toMatch(/<h2[^>]*>.*Instagram<\/h2>/);
  });

  it('shows the logo, social labels as text and the legal lines', () => {
    const html = inRouter(<Footer groups={groups} />);
    // The logo is the inline mark plus the wordmark (decision 032), linking home.
    expect(html).toMatch(
      /<a[^>]*aria-label="Boostly home"[^>]*href="\/"|<a[^>]*href="\/"[^>]*aria-label="Boostly home"/,
    );
    expect(html).toContain('>Boostly</span>');
    for (const label of ['Instagram', 'YouTube', 'TikTok', 'Facebook', 'X']) {
      expect(html).toContain(`<li>${label}</li>`);
    }
    expect(html).toContain('© Boostly. For personal use only.');
    expect(html).toContain('Support 24 hours a day, 7 days a week, holidays included.');
  });
});

describe('NotFound', () => {
  it('shows the error screen with a link home', () => {
    const html = inRouter(<NotFound />);
    expect(html).toMatch(/<h1[^>]*>Error<\/h1>/);
    expect(html).toContain('The page you are looking for could not be found');
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>Back to home<\/a>/);
  });
});

describe('Accordion', () => {
  it('opens only the first item initially, as one group of native disclosures', () => {
    const html = renderToStaticMarkup(<Accordion items={homeFaq} idPrefix="faq" />);
    expect(html.match(/data-testid="accordion-item"/g)).toHaveLength(homeFaq.length);
    // One exclusive group (the browser keeps one open at a time), the first one open.
    expect(html.match(/<details name="faq"/g)).toHaveLength(homeFaq.length);
    expect(html.match(/<details name="faq" open=""/g)).toHaveLength(1);
    expect(html.indexOf('open=""')).toBeLessThan(html.indexOf('</details>'));
    // Each question is a heading inside the disclosure's summary.
    expect(html.match(/<summary[^>]*><h3[^>]*>/g)).toHaveLength(homeFaq.length);
  });
});

describe('ReviewsCarousel', () => {
  it('renders nothing when there are no approved reviews (decision 039)', () => {
    expect(renderToStaticMarkup(<ReviewsCarousel reviews={[]} />)).toBe('');
  });

  it('renders every review with a star text alternative and the responsive slide widths', () => {
    const reviews: PublicReview[] = Array.from({ length: 10 }, (_, i) => ({
      name: `Customer ${i}`,
      rating: 5 - (i % 2),
      text: `<b>Review ${i}</b> as plain text`,
      serviceName: 'Instagram Followers',
      createdAt: '2026-03-0' + String((i % 9) + 1) + 'T10:00:00.000Z',
    }));
    const html = renderToStaticMarkup(<ReviewsCarousel reviews={reviews} />);
    expect(html).toContain('What our customers say');
    expect(html).not.toContain('Example');
    // Customers' text is escaped, never HTML.
    expect(html).toContain('&lt;b&gt;Review 0&lt;/b&gt; as plain text');
    expect(html).toContain('Instagram Followers, March 2026');
    expect(html).toContain('data-testid="reviews-track"');
    expect(html.match(/data-testid="review-slide"/g)).toHaveLength(10);
    expect(html).toContain('aria-label="5 out of 5 stars"');
    expect(html).toContain('aria-label="Previous reviews"');
    expect(html).toContain('aria-label="Next reviews"');
    for (const cls of [
      'basis-full',
      'min-[500px]:basis-1/2',
      'min-[900px]:basis-1/3',
      'min-[1200px]:basis-1/4',
      'min-[1500px]:basis-1/5',
    ]) {
      expect(html).toContain(cls);
    }
  });

  it('formats the review months with one formatter made once, not one per review', () => {
    const reviews: PublicReview[] = Array.from({ length: 12 }, (_, i) => ({
      name: `Customer ${i}`,
      rating: 5,
      text: `Review ${i}`,
      serviceName: 'Instagram Followers',
      createdAt: `2025-${String(i + 1).padStart(2, '0')}-15T10:00:00.000Z`,
    }));
    // Each call with options builds a formatter of its own (about 150 µs on the server).
    const perCall = vi.spyOn(Date.prototype, 'toLocaleDateString');
    const perCallString = vi.spyOn(Date.prototype, 'toLocaleString');
    try {
      const html = renderToStaticMarkup(<ReviewsCarousel reviews={reviews} />);
      expect(html).toContain('Instagram Followers, January 2025');
      expect(html).toContain('Instagram Followers, December 2025');
      expect(perCall).not.toHaveBeenCalled();
      expect(perCallString).not.toHaveBeenCalled();
    } finally {
      perCall.mockRestore();
      perCallString.mockRestore();
    }
  });

  const review = (i: number): PublicReview => ({
    name: `Customer ${i}`,
    rating: 5,
    text: `Review ${i}`,
    serviceName: 'Instagram Followers',
    createdAt: '2026-03-01T10:00:00.000Z',
  });

  it('with one review: no arrows and no scroll stop, on the page grid of its neighbours', () => {
    const html = renderToStaticMarkup(<ReviewsCarousel reviews={[review(0)]} />);
    expect(html).not.toContain('Previous reviews');
    expect(html).not.toContain('Next reviews');
    expect(html).not.toMatch(/data-testid="reviews-track"[^>]*tabindex/);
    expect(html).toMatch(/data-testid="reviews" class="mx-auto max-w-7xl px-4 /);
  });

  it('shows the arrows only at the widths where the reviews do not all fit', () => {
    const arrows = (count: number) =>
      /<div class="(shrink-0 gap-2 [^"]*)"><button[^>]*aria-label="Previous reviews"/.exec(
        renderToStaticMarkup(<ReviewsCarousel reviews={Array.from({ length: count }, (_, i) => review(i))} />),
      )?.[1];
    expect(arrows(2)).toBe('shrink-0 gap-2 flex min-[500px]:hidden');
    expect(arrows(3)).toBe('shrink-0 gap-2 flex min-[900px]:hidden');
    expect(arrows(4)).toBe('shrink-0 gap-2 flex min-[1200px]:hidden');
    expect(arrows(5)).toBe('shrink-0 gap-2 flex min-[1500px]:hidden');
    expect(arrows(6)).toBe('shrink-0 gap-2 flex');
  });
});

describe('marketing blocks', () => {
  it('keeps the refill guarantee and refund in the description block', () => {
    const html = renderToStaticMarkup(<DescriptionBlock items={PACKAGE_DETAILS} />);
    expect(html).toContain('Package details');
    expect(html).toContain('30-day guarantee');
    expect(html).not.toMatch(/no refill/i);
  });

  it('renders the four buying steps and the privacy cards', () => {
    const steps = renderToStaticMarkup(<HowToBuy steps={HOW_TO_BUY_STEPS} />);
    for (const step of ['Choose a package', 'Enter your username', 'Complete payment', 'That&#x27;s all']) {
      expect(steps).toContain(step);
    }
    expect(renderToStaticMarkup(<PrivacySafety features={PRIVACY_FEATURES} />)).toContain('Privacy and safety');
  });

  it('has the expected number of FAQ entries', () => {
    expect(homeFaq).toHaveLength(8);
    expect(serviceFaq).toHaveLength(6);
  });

  it('renders a status spinner with a hidden label', () => {
    const html = renderToStaticMarkup(<Spinner label="Loading services" />);
    expect(html).toContain('role="status"');
    expect(html).toContain('Loading services');
  });
});
