/**
 * What the audit log keeps of an upload, per dialect, through the real app: a blog form carrying a
 * 405 KB file that is not an image (named .png) is refused, and its audit row names the file by
 * its size instead of holding its bytes, so the log page and its API stay small.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken } from '../support/admin-session.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

/** The most one audit row's summary may hold (16 KB of JSON). */
const ROW_CAP = 16 * 1024;
const ADMIN = { email: 'upload.owner@example.com', password: 'a long enough upload password' };

describe.each(dialects)('audit rows of uploads on %s', (dialect) => {
  let t: TestApp;
  let token = '';
  let dataDir = '';

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'boostly-audit-upload-'));
    t = await startTestApp(dialect, { env: { DATA_DIR: dataDir } });
    await t.store.adminAuth.createAdmin(ADMIN.email, ADMIN.password);
    token = await adminToken(t, ADMIN, '10.43.0.1');
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('records a refused 405 KB non-image as "[file, 405 KB]", never its bytes, and under the row cap', async () => {
    const notAnImage = Buffer.alloc(405 * 1024, 'this is plain text, not a picture. ');
    const boundary = '----auditupload';
    const field = (name: string, value: string) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    const payload = Buffer.concat([
      field('title', 'A post with a fake picture'),
      field('category', 'instagram-updates'),
      field('description', '<p>Some words for the post.</p>'),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="photo.png"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      ),
      notAnImage,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/blog',
      payload,
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      remoteAddress: '10.43.0.2',
    });
    expect(refused.statusCode, refused.body).toBe(400);

    const row = await t.database.db
      .selectFrom('admin_audit')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.action).toContain('/blog');
    const summary = row.summary ?? '';
    expect(summary.length).toBeLessThanOrEqual(ROW_CAP);
    expect(summary).not.toMatch(/"0":\d/);
    expect(summary).not.toContain('this is plain text');
    expect(JSON.parse(summary)).toMatchObject({
      after: { title: 'A post with a fake picture', image: '[file, 405 KB]' },
    });

    const page = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit',
      headers: { authorization: `Bearer ${token}` },
      remoteAddress: '10.43.0.3',
    });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body.length).toBeLessThan(50_000);
  });
});
