/**
 * The admin blog editor's pure rules (app/admin/blog/editor-helpers.ts): video addresses become
 * player addresses (and nothing else does), link text becomes a safe href (a bare e-mail gets
 * `mailto:`), the slug suggested from a title, and the image type check.
 */
import { describe, expect, it } from 'vitest';
import {
  INVALID_IMAGE_MESSAGE,
  isAllowedImageFile,
  isVideoEmbedSrc,
  linkTarget,
  linkText,
  slugFromTitle,
  videoEmbedFromUrl,
} from '../../app/admin/blog/editor-helpers.ts';

describe('videoEmbedFromUrl', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://youtube.com/watch?v=dQw4w9WgXcQ&list=PL123', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://m.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['youtu.be/dQw4w9WgXcQ?t=90', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=90'],
    [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1m30s',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?start=90',
    ],
    ['https://www.youtube.com/shorts/dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['  https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ  ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
    ['https://vimeo.com/76979871', 'https://player.vimeo.com/video/76979871'],
    ['https://vimeo.com/76979871/abc123def4', 'https://player.vimeo.com/video/76979871?h=abc123def4'],
    ['https://vimeo.com/channels/staffpicks/76979871', 'https://player.vimeo.com/video/76979871'],
    ['https://vimeo.com/groups/shortfilms/videos/76979871', 'https://player.vimeo.com/video/76979871'],
    ['https://player.vimeo.com/video/76979871', 'https://player.vimeo.com/video/76979871'],
  ])('%s → %s', (input, src) => {
    expect(videoEmbedFromUrl(input)?.src).toBe(src);
  });

  it('names the provider and the ID', () => {
    expect(videoEmbedFromUrl('https://youtu.be/dQw4w9WgXcQ')).toEqual({
      provider: 'youtube',
      id: 'dQw4w9WgXcQ',
      src: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    });
    expect(videoEmbedFromUrl('https://vimeo.com/76979871')?.provider).toBe('vimeo');
  });

  it.each([
    '',
    'dQw4w9WgXcQ',
    'https://www.youtube.com/',
    'https://www.youtube.com/watch?v=short',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ"><script>',
    'https://www.youtube.com/embed/dQw4w9WgXcQ/../../evil',
    'https://evil.example/watch?v=dQw4w9WgXcQ',
    'https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
    'javascript:alert(1)//youtu.be/dQw4w9WgXcQ',
    'https://vimeo.com/about',
    'https://vimeo.com/channels/staffpicks',
    'https://player.vimeo.com/76979871',
    'see https://youtu.be/dQw4w9WgXcQ',
  ])('is not a video: %j', (input) => {
    expect(videoEmbedFromUrl(input)).toBeNull();
  });

  it('recognises only the player addresses it makes itself when reading a post back', () => {
    expect(isVideoEmbedSrc('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ')).toBe(true);
    expect(isVideoEmbedSrc('https://player.vimeo.com/video/76979871')).toBe(true);
    expect(isVideoEmbedSrc('https://www.youtube.com/watch?v=dQw4w9WgXcQ')).toBe(false);
    expect(isVideoEmbedSrc('https://evil.example/embed/dQw4w9WgXcQ')).toBe(false);
  });
});

describe('linkTarget', () => {
  it('gives a bare e-mail a mailto: prefix', () => {
    expect(linkTarget('support@boostly.example')).toEqual({ ok: true, href: 'mailto:support@boostly.example' });
    expect(linkTarget('  first.last+tag@mail.example.co.uk ')).toEqual({
      ok: true,
      href: 'mailto:first.last+tag@mail.example.co.uk',
    });
  });

  it('keeps a mailto: link and a web address, and adds https:// to a bare domain', () => {
    expect(linkTarget('mailto:help@boostly.example')).toEqual({ ok: true, href: 'mailto:help@boostly.example' });
    expect(linkTarget('https://help.instagram.com/a?b=c')).toEqual({
      ok: true,
      href: 'https://help.instagram.com/a?b=c',
    });
    expect(linkTarget('instagram.com/boostly')).toEqual({ ok: true, href: 'https://instagram.com/boostly' });
  });

  it('keeps paths on this site', () => {
    expect(linkTarget('/service/instagram-followers')).toEqual({ ok: true, href: '/service/instagram-followers' });
    expect(linkTarget('#faq')).toEqual({ ok: true, href: '#faq' });
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example/x',
    'mailto:not an email',
    'just words',
    '',
  ])('refuses %j', (input) => {
    expect(linkTarget(input).ok).toBe(false);
  });

  it('shows a mailto link as the bare address', () => {
    expect(linkText('mailto:help@boostly.example')).toBe('help@boostly.example');
    expect(linkText('https://boostly.example/')).toBe('https://boostly.example/');
  });
});

describe('slugFromTitle', () => {
  it('lowercases, folds accents and joins words with hyphens', () => {
    expect(slugFromTitle('How to Grow an Instagram Account — Safely!')).toBe('how-to-grow-an-instagram-account-safely');
    expect(slugFromTitle('Café crème & TikTok')).toBe('cafe-creme-and-tiktok');
    expect(slugFromTitle('  --Already-a-slug--  ')).toBe('already-a-slug');
    expect(slugFromTitle('日本語')).toBe('');
  });

  it('cuts long titles at a word boundary within 80 characters', () => {
    const slug = slugFromTitle('word '.repeat(40));
    expect(slug.length).toBeLessThanOrEqual(80);
    expect(slug.endsWith('-')).toBe(false);
    expect(slug.split('-').every((part) => part === 'word')).toBe(true);
  });
});

describe('isAllowedImageFile', () => {
  it('allows jpeg, png, svg and webp and nothing else', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/svg+xml', 'image/webp']) {
      expect(isAllowedImageFile({ type })).toBe(true);
    }
    for (const type of ['image/gif', 'text/html', 'application/pdf', '']) {
      expect(isAllowedImageFile({ type })).toBe(false);
    }
    expect(INVALID_IMAGE_MESSAGE).toBe('Only jpg, png, svg, and webp files are allowed');
  });
});
