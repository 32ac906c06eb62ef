import { describe, expect, it } from 'vitest';
import type { TargetKind } from '../../core/catalogue/types.ts';
import {
  guessInstagramKind,
  guessTikTokKind,
  isBlankTarget,
  parseInstagramPostUrl,
  parseInstagramUsername,
  parseTarget,
  parseTikTokUsername,
  parseTikTokVideoUrl,
  parseYouTubeVideoUrl,
} from '../../core/verification/parse.ts';

const ID = 'dQw4w9WgXcQ';
const YT = `https://www.youtube.com/watch?v=${ID}`;

/** [kind, input, canonical URL or null for "rejected"] */
type Row = [TargetKind, string, string | null];

const youtubeRows: Row[] = [
  ['youtube_video_url', `https://www.youtube.com/watch?v=${ID}`, YT],
  ['youtube_video_url', `http://www.youtube.com/watch?v=${ID}`, YT],
  ['youtube_video_url', `youtube.com/watch?v=${ID}`, YT],
  ['youtube_video_url', `www.youtube.com/watch?v=${ID}`, YT],
  ['youtube_video_url', `HTTPS://WWW.YOUTUBE.COM/watch?v=${ID}`, YT],
  ['youtube_video_url', `https://m.youtube.com/watch?feature=share&v=${ID}`, YT],
  ['youtube_video_url', `https://www.youtube.com/watch?v=${ID}&list=PL123&index=2&t=42s`, YT],
  ['youtube_video_url', `https://www.youtube.com/watch?v=${ID}#t=10`, YT],
  ['youtube_video_url', `https://youtu.be/${ID}`, YT],
  ['youtube_video_url', `youtu.be/${ID}?t=10`, YT],
  ['youtube_video_url', `https://youtu.be/${ID}?si=abcDEF123`, YT],
  ['youtube_video_url', `https://youtu.be/${ID}/`, YT],
  ['youtube_video_url', `https://www.youtube.com/shorts/${ID}`, YT],
  ['youtube_video_url', `https://youtube.com/shorts/${ID}?feature=share`, YT],
  ['youtube_video_url', `https://www.youtube.com/embed/${ID}`, YT],
  ['youtube_video_url', `https://www.youtube.com/live/${ID}?si=x`, YT],
  ['youtube_video_url', `  https://youtu.be/${ID}  `, YT],
  ['youtube_video_url', '\thttps://youtu.be/a-B_c1D2e3F\n', 'https://www.youtube.com/watch?v=a-B_c1D2e3F'],
  // rejected
  ['youtube_video_url', 'https://www.youtube.com/watch?v=dQw4w9WgXc', null], // 10-char id
  ['youtube_video_url', 'https://www.youtube.com/watch?v=dQw4w9WgXcQQ', null], // 12-char id
  ['youtube_video_url', 'https://youtu.be/dQw4w9WgXc', null],
  ['youtube_video_url', 'https://youtu.be/dQw4w9WgXcQQ', null],
  ['youtube_video_url', 'https://www.youtube.com/watch?v=dQw4w9WgX!Q', null],
  ['youtube_video_url', `https://www.youtube.com/watch?v=${ID}&v=${ID}`, null],
  ['youtube_video_url', 'https://www.youtube.com/watch', null],
  ['youtube_video_url', `https://www.youtube.com/watch?vv=${ID}`, null],
  ['youtube_video_url', `https://youtube.com.evil.com/watch?v=${ID}`, null],
  ['youtube_video_url', `https://evilyoutube.com/watch?v=${ID}`, null],
  ['youtube_video_url', `https://music.youtube.com/watch?v=${ID}`, null],
  ['youtube_video_url', `https://www.youtube.com./watch?v=${ID}`, null],
  ['youtube_video_url', `https://user:pw@www.youtube.com/watch?v=${ID}`, null],
  ['youtube_video_url', `https://www.youtube.com@evil.com/watch?v=${ID}`, null],
  ['youtube_video_url', `https://www.youtube.com:8443/watch?v=${ID}`, null],
  ['youtube_video_url', `javascript:alert(1)//youtu.be/${ID}`, null],
  ['youtube_video_url', `ftp://youtu.be/${ID}`, null],
  ['youtube_video_url', `//youtu.be/${ID}`, null],
  ['youtube_video_url', `https://youtu.be/${ID}/extra`, null],
  ['youtube_video_url', `https://www.youtube.com/shorts/${ID}/extra`, null],
  ['youtube_video_url', `https://www.youtube.com/channel/${ID}`, null],
  ['youtube_video_url', `https://www.youtube.com/${ID}`, null],
  ['youtube_video_url', `https://youtu.be/watch?v=${ID}`, null],
  ['youtube_video_url', `https://www.youtube.com//shorts/${ID}`, null],
  ['youtube_video_url', `https://youtu.be/ ${ID}`, null],
  ['youtube_video_url', ID, null], // a bare id is not a URL
  ['youtube_video_url', '', null],
  ['youtube_video_url', '   ', null],
  ['youtube_video_url', `https://www.youtube.com/watch?v=${ID}&x=${'a'.repeat(480)}`, null], // > 500 chars
];

const instagramUsernameRows: Row[] = [
  ['instagram_username', 'natgeo', 'https://www.instagram.com/natgeo/'],
  ['instagram_username', '@natgeo', 'https://www.instagram.com/natgeo/'],
  ['instagram_username', ' @NatGeo ', 'https://www.instagram.com/natgeo/'],
  ['instagram_username', 'a', 'https://www.instagram.com/a/'],
  ['instagram_username', 'john.doe_99', 'https://www.instagram.com/john.doe_99/'],
  ['instagram_username', '_under_', 'https://www.instagram.com/_under_/'],
  ['instagram_username', 'a'.repeat(30), `https://www.instagram.com/${'a'.repeat(30)}/`],
  ['instagram_username', 'https://www.instagram.com/natgeo/', 'https://www.instagram.com/natgeo/'],
  ['instagram_username', 'instagram.com/natgeo', 'https://www.instagram.com/natgeo/'],
  ['instagram_username', 'https://m.instagram.com/natgeo?igsh=abc123', 'https://www.instagram.com/natgeo/'],
  // rejected
  ['instagram_username', 'a'.repeat(31), null],
  ['instagram_username', '.natgeo', null],
  ['instagram_username', 'natgeo.', null],
  ['instagram_username', 'nat..geo', null],
  ['instagram_username', 'nat-geo', null],
  ['instagram_username', 'nat geo', null],
  ['instagram_username', '@@natgeo', null],
  ['instagram_username', '@', null],
  ['instagram_username', 'natgeo@', null],
  ['instagram_username', 'https://www.instagram.com/', null],
  ['instagram_username', 'https://www.instagram.com/p/', null],
  ['instagram_username', 'https://www.instagram.com/explore/', null],
  ['instagram_username', 'https://www.instagram.com/natgeo/reels/', null],
  ['instagram_username', 'https://instagram.com.evil.com/natgeo', null],
  ['instagram_username', 'https://evilinstagram.com/natgeo', null],
  ['instagram_username', 'https://www.tiktok.com/@natgeo', null],
  ['instagram_username', 'instagram.com', null],
  ['instagram_username', 'javascript:alert(1)', null],
  ['instagram_username', 'nätgeo', null],
];

const instagramPostRows: Row[] = [
  ['instagram_post_url', 'https://www.instagram.com/p/C8abc-_12XY/', 'https://www.instagram.com/p/C8abc-_12XY/'],
  ['instagram_post_url', 'instagram.com/p/C8abc-_12XY', 'https://www.instagram.com/p/C8abc-_12XY/'],
  [
    'instagram_post_url',
    'https://www.instagram.com/p/C8abc-_12XY/?utm_source=ig_web_copy_link&igsh=x',
    'https://www.instagram.com/p/C8abc-_12XY/',
  ],
  ['instagram_post_url', 'https://www.instagram.com/reel/C8abc-_12XY/', 'https://www.instagram.com/reel/C8abc-_12XY/'],
  ['instagram_post_url', 'https://www.instagram.com/reels/C8abc-_12XY/', 'https://www.instagram.com/reel/C8abc-_12XY/'],
  ['instagram_post_url', 'https://www.instagram.com/tv/C8abc-_12XY', 'https://www.instagram.com/p/C8abc-_12XY/'],
  ['instagram_post_url', 'https://www.instagram.com/natgeo/p/C8abc-_12XY/', 'https://www.instagram.com/p/C8abc-_12XY/'],
  ['instagram_post_url', 'https://m.instagram.com/natgeo/reel/C8abc/', 'https://www.instagram.com/reel/C8abc/'],
  // rejected
  ['instagram_post_url', 'https://www.instagram.com/p/', null],
  ['instagram_post_url', 'https://www.instagram.com/p/C8a!bc/', null],
  ['instagram_post_url', 'https://www.instagram.com/x/C8abc/', null],
  ['instagram_post_url', 'https://www.instagram.com/natgeo/', null],
  ['instagram_post_url', 'https://www.instagram.com/.bad/p/C8abc/', null],
  ['instagram_post_url', 'https://www.instagram.com/a/b/p/C8abc/', null],
  ['instagram_post_url', 'https://www.instagram.com/p/C8abc/extra', null],
  ['instagram_post_url', 'https://instagram.com.evil.com/p/C8abc/', null],
  ['instagram_post_url', 'https://www.instagr.am/p/C8abc/', null],
  ['instagram_post_url', 'C8abc-_12XY', null],
];

const TT_VIDEO = 'https://www.tiktok.com/@scout2015/video/6718335390845095173';
const tiktokUsernameRows: Row[] = [
  ['tiktok_username', 'scout2015', 'https://www.tiktok.com/@scout2015'],
  ['tiktok_username', '@scout2015', 'https://www.tiktok.com/@scout2015'],
  ['tiktok_username', ' @Scout.2015_ ', 'https://www.tiktok.com/@scout.2015_'],
  ['tiktok_username', 'ab', 'https://www.tiktok.com/@ab'],
  ['tiktok_username', 'a'.repeat(24), `https://www.tiktok.com/@${'a'.repeat(24)}`],
  ['tiktok_username', 'https://www.tiktok.com/@scout2015', 'https://www.tiktok.com/@scout2015'],
  ['tiktok_username', 'tiktok.com/@scout2015/?lang=en', 'https://www.tiktok.com/@scout2015'],
  ['tiktok_username', 'https://m.tiktok.com/@scout2015', 'https://www.tiktok.com/@scout2015'],
  // rejected
  ['tiktok_username', 'a', null],
  ['tiktok_username', '@a', null],
  ['tiktok_username', 'a'.repeat(25), null],
  ['tiktok_username', 'scout2015.', null],
  ['tiktok_username', 'scout-2015', null],
  ['tiktok_username', 'scout 2015', null],
  ['tiktok_username', 'https://www.tiktok.com/scout2015', null],
  ['tiktok_username', 'https://www.tiktok.com/@scout2015.', null],
  ['tiktok_username', 'https://tiktok.com.evil.com/@scout2015', null],
  ['tiktok_username', 'https://eviltiktok.com/@scout2015', null],
  ['tiktok_username', 'https://vm.tiktok.com/@scout2015', null],
  ['tiktok_username', 'tiktok.com', null],
];

const tiktokVideoRows: Row[] = [
  ['tiktok_post_url', TT_VIDEO, TT_VIDEO],
  ['tiktok_post_url', 'tiktok.com/@scout2015/video/6718335390845095173?is_from_webapp=1&sender_device=pc', TT_VIDEO],
  ['tiktok_post_url', 'https://m.tiktok.com/@Scout2015/video/6718335390845095173/', TT_VIDEO],
  ['tiktok_post_url', `  ${TT_VIDEO}  `, TT_VIDEO],
  ['tiktok_post_url', 'https://vm.tiktok.com/ZMabc123/', 'https://vm.tiktok.com/ZMabc123/'],
  ['tiktok_post_url', 'vm.tiktok.com/ZMabc123', 'https://vm.tiktok.com/ZMabc123/'],
  ['tiktok_post_url', 'https://vt.tiktok.com/ZSxyz789/', 'https://vt.tiktok.com/ZSxyz789/'],
  ['tiktok_post_url', 'https://www.tiktok.com/t/ZTabc123/', 'https://www.tiktok.com/t/ZTabc123/'],
  // rejected
  ['tiktok_post_url', 'https://www.tiktok.com/@scout2015/video/67183353908450951a3', null],
  ['tiktok_post_url', 'https://www.tiktok.com/@scout2015/video/', null],
  ['tiktok_post_url', 'https://www.tiktok.com/@scout2015', null],
  ['tiktok_post_url', 'https://www.tiktok.com/scout2015/video/6718335390845095173', null],
  ['tiktok_post_url', 'https://www.tiktok.com/@scout2015./video/6718335390845095173', null],
  ['tiktok_post_url', 'https://www.tiktok.com/@scout2015/photo/6718335390845095173', null],
  ['tiktok_post_url', 'https://vm.tiktok.com/', null],
  ['tiktok_post_url', 'https://vm.tiktok.com/ZMabc123/extra', null],
  ['tiktok_post_url', 'https://vm.tiktok.com/ZM-abc/', null],
  ['tiktok_post_url', 'https://vx.tiktok.com/ZMabc123/', null],
  ['tiktok_post_url', 'https://tiktok.com.evil.com/@scout2015/video/6718335390845095173', null],
  ['tiktok_post_url', 'https://vm.tiktok.com.evil.com/ZMabc123/', null],
  ['tiktok_post_url', 'data:text/html,<script>alert(1)</script>', null],
  ['tiktok_post_url', '6718335390845095173', null],
];

const allRows = [
  ...youtubeRows,
  ...instagramUsernameRows,
  ...instagramPostRows,
  ...tiktokUsernameRows,
  ...tiktokVideoRows,
];

describe('target format parsing', () => {
  it('has a large table', () => {
    expect(allRows.length).toBeGreaterThanOrEqual(60);
  });

  it.each(allRows)('%s %j → %s', (kind, input, canonical) => {
    const parsed = parseTarget(kind, input);
    expect(parsed?.canonicalUrl ?? null).toBe(canonical);
    if (parsed) expect(parsed.kind).toBe(kind);
  });
});

describe('parser details', () => {
  it('returns the YouTube id', () => {
    expect(parseYouTubeVideoUrl(`youtu.be/${ID}?t=10`)).toEqual({ id: ID, canonicalUrl: YT });
  });

  it('returns lowercased usernames', () => {
    expect(parseInstagramUsername('@NatGeo')).toEqual({
      username: 'natgeo',
      canonicalUrl: 'https://www.instagram.com/natgeo/',
    });
    expect(parseTikTokUsername('https://www.tiktok.com/@Scout2015')).toEqual({
      username: 'scout2015',
      canonicalUrl: 'https://www.tiktok.com/@scout2015',
    });
  });

  it('tells posts from reels', () => {
    expect(parseInstagramPostUrl('instagram.com/reels/C8abc/')).toMatchObject({ code: 'C8abc', type: 'reel' });
    expect(parseInstagramPostUrl('instagram.com/tv/C8abc/')).toMatchObject({ code: 'C8abc', type: 'post' });
  });

  it('marks share links as unresolved and full video URLs as resolved', () => {
    expect(parseTikTokVideoUrl('vm.tiktok.com/ZMabc123/')).toEqual({
      canonicalUrl: 'https://vm.tiktok.com/ZMabc123/',
      resolved: false,
    });
    expect(parseTikTokVideoUrl(TT_VIDEO)).toEqual({
      canonicalUrl: TT_VIDEO,
      resolved: true,
      username: 'scout2015',
      videoId: '6718335390845095173',
    });
  });

  it('rejects non-string input without throwing', () => {
    for (const value of [undefined, null, 42, {}, ['x']]) {
      expect(parseYouTubeVideoUrl(value)).toBeNull();
      expect(parseInstagramUsername(value)).toBeNull();
      expect(parseTikTokVideoUrl(value)).toBeNull();
    }
  });

  it('accepts exactly 500 characters and rejects 501', () => {
    const base = `https://www.youtube.com/watch?v=${ID}&x=`;
    expect(parseYouTubeVideoUrl(base + 'a'.repeat(500 - base.length))).not.toBeNull();
    expect(parseYouTubeVideoUrl(base + 'a'.repeat(501 - base.length))).toBeNull();
  });

  it('tells blank input from malformed input', () => {
    expect(isBlankTarget('')).toBe(true);
    expect(isBlankTarget('  \n')).toBe(true);
    expect(isBlankTarget(undefined)).toBe(true);
    expect(isBlankTarget('x')).toBe(false);
  });

  it.each([
    ['natgeo', 'username'],
    ['@natgeo', 'username'],
    ['https://www.instagram.com/natgeo/', 'username'],
    ['https://www.instagram.com/p/C8abc/', 'post'],
    ['instagram.com/natgeo/reel/C8abc', 'post'],
    ['https://www.instagram.com/reels/C8abc/', 'post'],
    ['https://www.instagram.com/tv/C8abc/', 'post'],
  ] as const)('guesses Instagram %s as a %s', (input, kind) => {
    expect(guessInstagramKind(input)).toBe(kind);
  });

  it.each([
    ['scout2015', 'username'],
    ['https://www.tiktok.com/@scout2015', 'username'],
    [TT_VIDEO, 'video'],
    ['vm.tiktok.com/ZMabc123', 'video'],
    ['https://vt.tiktok.com/ZSxyz789/', 'video'],
    ['https://www.tiktok.com/t/ZTabc123/', 'video'],
  ] as const)('guesses TikTok %s as a %s', (input, kind) => {
    expect(guessTikTokKind(input)).toBe(kind);
  });
});
