/**
 * Image uploads end to end (docs/decisions/019-uploads-and-stored-html.md), on both dialects:
 * `POST /api/uploads` decides the type by the bytes, re-encodes (EXIF/GPS gone, orientation
 * applied, capped, WebP variants), rasterises SVG, refuses what is not an image or too large;
 * `GET /uploads/<name>` serves exactly the stored files with their headers; the recurring cleanup
 * deletes only old images no blog post references.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { enqueueJob } from '../../core/jobs/queue.ts';
import { UPLOADS_CLEANUP_JOB, UPLOAD_GRACE_MS } from '../../core/uploads/cleanup.ts';
import { IMAGE_TYPE_MESSAGE, type StoredImage, responsiveImage, uploadsDir } from '../../core/uploads/images.ts';
import { NO_TOKEN_MESSAGE } from '../../server/api/admin-guard.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { adminToken } from '../support/admin-session.ts';
import { dialects } from '../support/databases.ts';

const MAX_BYTES = 1024 * 1024;

/** A multipart/form-data body with one file part (and optional text fields before it). */
function multipart(
  file: { field?: string; filename: string; contentType: string; bytes: Buffer },
  fields: Record<string, string> = {},
) {
  const boundary = `----boostly-test-${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'image'}"; filename="${file.filename}"\r\n` +
        `Content-Type: ${file.contentType}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } });

/** A PNG whose header claims `width`×`height` (a decompression bomb's shape), with a valid CRC. */
function pngClaiming(source: Buffer, width: number, height: number): Buffer {
  const bytes = Buffer.from(source);
  // Signature (8) + IHDR length (4) + 'IHDR' (4): width and height follow, then the CRC at 29.
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}

describe.each(dialects)('image uploads on %s', (dialect) => {
  let t: TestApp;
  let dataDir: string;
  let token = '';
  let remote = 0;
  const address = () => `10.91.${Math.floor(remote / 250)}.${(remote++ % 250) + 1}`;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'boostly-uploads-'));
    t = await startTestApp(dialect, { env: { DATA_DIR: dataDir, UPLOAD_MAX_BYTES: String(MAX_BYTES) } });
    const email = 'uploads.admin@example.com';
    const password = 'a long enough uploads password';
    await t.store.adminAuth.createAdmin(email, password);
    token = await adminToken(t, { email, password }, '10.90.0.1');
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    rmSync(uploadsDir(dataDir), { recursive: true, force: true });
  });

  const upload = (file: Parameters<typeof multipart>[0], auth = true) => {
    const body = multipart(file);
    return t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      payload: body.payload,
      headers: { ...body.headers, ...(auth ? { authorization: `Bearer ${token}` } : {}) },
      remoteAddress: address(),
    });
  };
  const stored = async (file: Parameters<typeof multipart>[0]): Promise<StoredImage> => {
    const response = await upload(file);
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json<{ isSuccessful: boolean; data: StoredImage }>();
    expect(body.isSuccessful).toBe(true);
    return body.data;
  };
  const fetchUpload = (url: string) => t.app.inject({ method: 'GET', url });
  const files = () => (existsSync(uploadsDir(dataDir)) ? readdirSync(uploadsDir(dataDir)).sort() : []);

  it('needs an admin token', async () => {
    const png = await solid(10, 10, '#123456').png().toBuffer();
    const response = await upload({ filename: 'a.png', contentType: 'image/png', bytes: png }, false);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ isSuccessful: false, message: NO_TOKEN_MESSAGE });
  });

  it('takes a PNG named .svg as the PNG it is, and serves it with its type, nosniff and immutable caching', async () => {
    const png = await solid(300, 200, '#ff8800').png().toBuffer();
    const image = await stored({ filename: 'logo.svg', contentType: 'image/svg+xml', bytes: png });
    expect(image).toMatchObject({ width: 300, height: 200, contentType: 'image/png' });
    expect(image.url).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);

    const response = await fetchUpload(image.url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Opened on its own, an upload can run, load and frame nothing.
    expect(response.headers['content-security-policy']).toContain("default-src 'none'");
    expect(await fileTypeFromBuffer(response.rawPayload)).toMatchObject({ mime: 'image/png' });
    expect(await sharp(response.rawPayload).metadata()).toMatchObject({ width: 300, height: 200 });
  });

  it('refuses an HTML file named .png and sent as image/png, and stores nothing', async () => {
    const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
    const response = await upload({ filename: 'photo.png', contentType: 'image/png', bytes: html });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ isSuccessful: false, message: IMAGE_TYPE_MESSAGE });
    expect(files().filter((name) => !name.startsWith('.'))).toEqual([]);
  });

  it('refuses other real file types, text, truncated images and an HTML page holding an <svg>', async () => {
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
    const jpeg = await solid(64, 64, '#336699').jpeg().toBuffer();
    const cases = [
      gif,
      pdf,
      Buffer.from('just some text'),
      jpeg.subarray(0, 40),
      Buffer.from('<html><body><svg xmlns="http://www.w3.org/2000/svg"></svg></body></html>'),
      Buffer.from('<?xml version="1.0"?><note><to>Tove</to></note>'),
      Buffer.from(
        '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>',
      ),
    ];
    for (const bytes of cases) {
      const response = await upload({ filename: 'x.jpg', contentType: 'image/jpeg', bytes });
      expect(response.statusCode, bytes.subarray(0, 30).toString()).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(IMAGE_TYPE_MESSAGE);
    }
  });

  it('rasterises an SVG: no script, handler, foreignObject or external reference survives or is fetched', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'boostly-svg-ref-'));
    const red = path.join(dir, 'red.png');
    writeFileSync(red, await solid(50, 50, '#ff0000').png().toBuffer());
    const svg = Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="100" onload="alert(1)">
        <script>window.__xss('svg')</script>
        <rect width="200" height="100" fill="#0000ff"/>
        <image href="file://${red}" width="200" height="100"/>
        <image xlink:href="${red}" width="200" height="100"/>
        <image href="http://127.0.0.1:9/red.png" width="200" height="100"/>
        <foreignObject width="200" height="100"><div xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="alert(1)"/></div></foreignObject>
        <a href="javascript:alert(1)"><text x="10" y="50">click</text></a>
      </svg>`,
    );
    try {
      const image = await stored({ filename: 'drawing.svg', contentType: 'image/svg+xml', bytes: svg });
      expect(image.contentType).toBe('image/png');
      expect(image.url).toMatch(/\.png$/);
      // Rendered bigger than its 200×100 (vectors scale): at least 960 on the long edge.
      expect(image).toMatchObject({ width: 960, height: 480 });
      expect(files().some((name) => name.endsWith('.svg'))).toBe(false);

      const response = await fetchUpload(image.url);
      expect(response.headers['content-type']).toBe('image/png');
      expect(response.rawPayload.includes('script')).toBe(false);
      expect(response.rawPayload.includes('alert')).toBe(false);
      // Blue everywhere: the red file on disk was never drawn.
      const { channels } = await sharp(response.rawPayload).stats();
      expect(channels[0]?.max).toBe(0);
      expect(channels[2]?.mean).toBeGreaterThan(240);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('removes EXIF (GPS included) after applying its orientation, in the fallback and every variant', async () => {
    const photo = await solid(1200, 800, '#228844')
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({
        IFD0: { Make: 'Test camera', Copyright: 'someone' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
      })
      .toBuffer();
    const before = await sharp(photo).metadata();
    expect(before.exif?.includes('GPS') || before.exif?.length).toBeTruthy();
    expect(before.orientation).toBe(6);

    const image = await stored({ filename: 'holiday.jpg', contentType: 'image/jpeg', bytes: photo });
    // Orientation 6 is a quarter turn: the stored image is upright, 800 wide and 1200 tall.
    expect(image).toMatchObject({ width: 800, height: 1200, contentType: 'image/jpeg' });
    const names = files();
    expect(names.length).toBeGreaterThan(1);
    for (const name of names) {
      const metadata = await sharp(path.join(uploadsDir(dataDir), name)).metadata();
      expect(metadata.exif, name).toBeUndefined();
      expect(metadata.xmp, name).toBeUndefined();
      expect(metadata.orientation ?? 1, name).toBe(1);
    }
    const served = await fetchUpload(image.url);
    expect(served.rawPayload.includes('Test camera')).toBe(false);
  });

  it('caps the size and makes WebP variants at standard widths that srcset names and the server serves', async () => {
    const wide = await solid(2400, 1200, '#aa3366').png().toBuffer();
    const image = await stored({ filename: 'banner.png', contentType: 'image/png', bytes: wide });
    expect(image).toMatchObject({ width: 1600, height: 800 });

    const responsive = responsiveImage(image.url, image.width, image.height);
    expect(responsive.src).toBe(image.url);
    const candidates = (responsive.srcSet ?? '').split(', ').map((entry) => entry.split(' '));
    expect(candidates.map(([, width]) => width)).toEqual(['480w', '960w', '1600w']);
    for (const [url, width] of candidates) {
      const response = await fetchUpload(url ?? '');
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const metadata = await sharp(response.rawPayload).metadata();
      expect(`${metadata.width}w`).toBe(width);
      expect(metadata.format).toBe('webp');
    }

    // A small image is not enlarged: one variant at its own width.
    const small = await stored({
      filename: 'icon.webp',
      contentType: 'image/webp',
      bytes: await solid(300, 300, '#000000').webp().toBuffer(),
    });
    expect(small).toMatchObject({ width: 300, height: 300, contentType: 'image/webp' });
    expect(responsiveImage(small.url, small.width).srcSet).toBe(`${small.url.replace('.webp', '-300w.webp')} 300w`);
    // Other images (seeded, or none) render as they are.
    expect(responsiveImage('/images/blog/post.svg', 1200)).toEqual({ src: '/images/blog/post.svg' });
    expect(responsiveImage('', null)).toEqual({ src: '' });
  });

  it('stores the same image twice as one set of files under one URL', async () => {
    const png = await solid(500, 400, '#445566').png().toBuffer();
    const first = await stored({ filename: 'a.png', contentType: 'image/png', bytes: png });
    const before = files();
    const second = await stored({ filename: 'b.jpg', contentType: 'image/jpeg', bytes: png });
    expect(second).toEqual(first);
    expect(files()).toEqual(before);
    expect(before.filter((name) => name.startsWith('.'))).toEqual([]);
  });

  it('answers 413 with a clear message above the size limit, and refuses decompression bombs', async () => {
    const tooBig = Buffer.alloc(MAX_BYTES + 1, 1);
    const response = await upload({ filename: 'big.png', contentType: 'image/png', bytes: tooBig });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ isSuccessful: false, message: 'The image is too large: the limit is 1 MB.' });

    // A real PNG whose header claims 50,000 × 50,000 pixels: too large an image, not the wrong type.
    const bomb = pngClaiming(await solid(1, 1, '#000000').png().toBuffer(), 50_000, 50_000);
    const refused = await upload({ filename: 'bomb.png', contentType: 'image/png', bytes: bomb });
    expect(refused.statusCode).toBe(413);
    expect(refused.json<{ message: string }>().message).toBe(
      'The image is too large: at most 40 megapixels (width × height); this one is 50000 × 50000.',
    );
    expect(refused.json<{ message: string }>().message).not.toBe(IMAGE_TYPE_MESSAGE);
  });

  it('refuses a request that is not multipart or has no image field', async () => {
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      payload: { image: 'x' },
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: address(),
    });
    expect(json.statusCode).toBe(400);
    const png = await solid(10, 10, '#000000').png().toBuffer();
    const wrongField = await upload({ field: 'file', filename: 'a.png', contentType: 'image/png', bytes: png });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json<{ isSuccessful: boolean }>().isSuccessful).toBe(false);
    // A form cut off in the middle of a part is the client's error, not a 500.
    const cutOff = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      payload:
        '--cut\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=cut' },
      remoteAddress: address(),
    });
    expect(cutOff.statusCode).toBe(400);
    expect(cutOff.json<{ isSuccessful: boolean }>().isSuccessful).toBe(false);
  });

  it('serves nothing but stored uploads: traversal, encoded slashes, NUL and unknown names are 404', async () => {
    const image = await stored({
      filename: 'a.png',
      contentType: 'image/png',
      bytes: await solid(20, 20, '#010203').png().toBuffer(),
    });
    const name = image.url.slice('/uploads/'.length);
    const hash = name.slice(0, 32);
    writeFileSync(path.join(uploadsDir(dataDir), 'notes.txt'), 'TOP-SECRET-CONTENT');
    writeFileSync(path.join(uploadsDir(dataDir), `${hash}.svg`), '<svg onload="alert(1)"/>');
    writeFileSync(path.join(dataDir, 'secret.png'), 'TOP-SECRET-CONTENT');
    const urls = [
      '/uploads/notes.txt',
      `/uploads/${hash}.svg`,
      `/uploads/${'0'.repeat(32)}.png`,
      `/uploads/${hash}-123w.webp`,
      '/uploads/../secret.png',
      '/uploads/..%2Fsecret.png',
      '/uploads/%2e%2e%2fsecret.png',
      '/uploads/%2E%2E/secret.png',
      '/uploads/..%5Csecret.png',
      `/uploads/${name}%00`,
      `/uploads/${name}%00.txt`,
      `/uploads/%00${name}`,
      `/uploads/${name.toUpperCase()}`,
      `/uploads/${name}/`,
      `/uploads/x/${name}`,
      '/uploads/',
    ];
    for (const url of urls) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('TOP-SECRET-CONTENT');
      expect(response.body, url).not.toContain('alert(1)');
    }
    expect((await fetchUpload(image.url)).statusCode).toBe(200);
    const head = await t.app.inject({ method: 'HEAD', url: image.url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('image/png');
  });

  it('deletes, in the recurring job, only old uploads that no blog post references', async () => {
    const upload4 = async (colour: string) =>
      stored({ filename: 'x.png', contentType: 'image/png', bytes: await solid(600, 300, colour).png().toBuffer() });
    const cover = await upload4('#100000');
    const inBody = await upload4('#001000');
    const orphan = await upload4('#000010');
    const fresh = await upload4('#101010');
    const hashOf = (image: StoredImage) => image.url.slice('/uploads/'.length, '/uploads/'.length + 32);

    const now = new Date().toISOString();
    const post = {
      short_desc: '',
      short_desc_is_custom: 0,
      search_title: '',
      search_body: '',
      category_id: null,
      image_width: null,
      image_height: null,
      created_at: now,
      updated_at: now,
    };
    await t.database.db
      .insertInto('blog_posts')
      .values([
        { ...post, slug: 'cleanup-cover', title: 'Cover', description: '<p>text</p>', image_url: cover.url },
        {
          ...post,
          slug: 'cleanup-body',
          title: 'Body',
          description: `<p>see</p><img src="${inBody.url.replace('.png', '-480w.webp')}" alt="">`,
          image_url: '',
        },
      ])
      .execute();

    // Everything but `fresh` is older than the grace period; an interrupted write left a temp file.
    const dir = uploadsDir(dataDir);
    writeFileSync(path.join(dir, '.tmp-0123456789abcdef-stale.png'), 'partial');
    const old = new Date(Date.now() - UPLOAD_GRACE_MS - 60_000);
    for (const name of readdirSync(dir)) {
      if (!name.startsWith(hashOf(fresh))) utimesSync(path.join(dir, name), old, old);
    }

    await enqueueJob(t.database.db, UPLOADS_CLEANUP_JOB, { slot: 1 });
    while ((await t.store.worker.runOnce()) > 0) {
      // run every job that is due, the cleanup among them
    }
    const job = await t.database.db
      .selectFrom('jobs')
      .select('status')
      .where('kind', '=', UPLOADS_CLEANUP_JOB.kind)
      .executeTakeFirstOrThrow();
    expect(job.status).toBe('done');

    const left = new Set(files().map((name) => name.slice(0, 32)));
    expect(left).toEqual(new Set([hashOf(cover), hashOf(inBody), hashOf(fresh)]));
    expect(files().some((name) => name.startsWith('.tmp-'))).toBe(false);
    expect((await fetchUpload(orphan.url)).statusCode).toBe(404);
    expect((await fetchUpload(cover.url)).statusCode).toBe(200);
    // Every variant of a kept image stays.
    expect(files().filter((name) => name.startsWith(hashOf(inBody)))).toHaveLength(3);

    // Once the post is gone, its image goes at the next run.
    await t.database.db.deleteFrom('blog_posts').where('slug', '=', 'cleanup-cover').execute();
    await enqueueJob(t.database.db, UPLOADS_CLEANUP_JOB, { slot: 2 });
    while ((await t.store.worker.runOnce()) > 0) {
      // as above
    }
    expect(new Set(files().map((name) => name.slice(0, 32)))).toEqual(new Set([hashOf(inBody), hashOf(fresh)]));
  });
});
