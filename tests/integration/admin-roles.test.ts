/**
 * Admin roles, invitations and the audit log (decision 041) through the real app, per dialect:
 *
 * - every /api route has a role decision in ROUTE_ROLES below: a new route without one fails
 *   here, and each guarded route answers 401 without a token, 403 to a support admin exactly when
 *   it is owner-only, and never 401/403 to an owner;
 * - every mutating admin route writes an audit entry (also when refused), without secrets;
 * - the invitation lifecycle: mailed link, hash-only storage, check, weak password, a race of two
 *   accepts, reuse, replacement by a re-invite, expiry, the second factor before the first session;
 * - role changes and removals: never yourself, never the last owner (also when two owners race);
 * - the audit list: newest first, search, filters, pages.
 */
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashInvitationToken } from '../../core/auth/invitations.ts';
import { ROLE_MESSAGES } from '../../core/auth/roles.ts';
import { seedAdmin } from '../support/admin-accounts.ts';
import { adminToken } from '../support/admin-session.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { loggerOptions } from '../../server/logging.ts';
import { type Store, openStore } from '../../server/store.ts';
import { type TestApp, TEST_TOTP_ENCRYPTION_KEY, root, startTestApp } from '../support/app.ts';
import { createTestClock } from '../support/clock.ts';
import { type TestDatabase, dialects, openTestDatabase } from '../support/databases.ts';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a long enough new password 42';

type Decision = 'public' | 'owner' | 'owner+support';

/**
 * Who may call each /api route (method + OpenAPI path). Adding a route means adding it here with
 * its role decision (decision 041); the test fails for a route missing from this table.
 */
const ROUTE_ROLES: Record<string, Decision> = {
  // Storefront and customer calls.
  'GET /api/services': 'public',
  'GET /api/services/{slug}': 'public',
  'GET /api/blog': 'public',
  'GET /api/blog/categories': 'public',
  'GET /api/blog/{slug}': 'public',
  'POST /api/services/verify-youtube-url': 'public',
  'POST /api/services/verify-insta-url': 'public',
  'POST /api/services/verify-tiktok-url': 'public',
  'POST /api/order/form-detail': 'public',
  'POST /api/order': 'public',
  'POST /api/order/verify-payment': 'public',
  'POST /api/order/payment-failed': 'public',
  'GET /api/order/order-status': 'public',
  // Each provider's signed webhook (Razorpay, Cryptomus, Solidgate), checked by its signature.
  'POST /api/payments/{provider}/webhook': 'public',
  // The buyer back from a hosted payment page: asks the providers about one order.
  'POST /api/order/check-payment': 'public',
  'POST /api/sandbox/pay': 'public',
  'POST /api/sandbox/fail': 'public',
  'POST /api/order/order-history/code': 'public',
  'PATCH /api/order/order-history': 'public',
  'POST /api/contact': 'public',
  'POST /api/reviews': 'public',
  // A crypto refund's wallet address, from the customer's e-mailed link.
  'POST /api/refunds/address': 'public',
  // A customer's refill request (decision 040): its order id and e-mail, no admin.
  'POST /api/order/refill': 'public',
  // A subscription's cancel and reminders from /client or the e-mail: the per-order proof (decision 057).
  'POST /api/order/subscription/cancel': 'public',
  'POST /api/order/subscription/reminders': 'public',
  // The login and the invitation link (their own credentials are in the body).
  'POST /api/auth/login': 'public',
  'POST /api/auth/verify-otp': 'public',
  'POST /api/auth/resend-otp': 'public',
  'POST /api/auth/invitation': 'public',
  'POST /api/auth/invitation/accept': 'public',
  // Owner only: blog, uploads, mail log, admins, audit.
  'POST /api/blog': 'owner',
  'PATCH /api/blog/{idOrSlug}': 'owner',
  'DELETE /api/blog/{idOrSlug}': 'owner',
  'POST /api/uploads': 'owner',
  // The catalogue editor (decision 044).
  'GET /api/admin/catalogue': 'owner',
  'POST /api/admin/catalogue/groups': 'owner',
  'POST /api/admin/catalogue/groups/{slug}/move': 'owner',
  'DELETE /api/admin/catalogue/groups/{slug}': 'owner',
  'PATCH /api/admin/catalogue/groups/{slug}': 'owner',
  'POST /api/admin/catalogue/groups/{slug}/services': 'owner',
  'GET /api/admin/catalogue/services/{slug}': 'owner',
  'PATCH /api/admin/catalogue/services/{slug}': 'owner',
  'POST /api/admin/catalogue/services/{slug}/move': 'owner',
  'GET /api/admin/catalogue/panels': 'owner',
  'GET /api/admin/catalogue/panels/{panelId}/services': 'owner',
  // The price floor: below it a catalogue save asks first (owner only, like the prices).
  'GET /api/admin/catalogue/price-floor': 'owner',
  'PUT /api/admin/catalogue/price-floor': 'owner',
  'GET /api/admin/mail/failed': 'owner',
  'GET /api/admin/mail/failed/count': 'owner',
  'POST /api/admin/mail/{id}/resend': 'owner',
  'GET /api/admin/admins': 'owner',
  'POST /api/admin/admins/invitations': 'owner',
  'DELETE /api/admin/admins/invitations/{id}': 'owner',
  'PATCH /api/admin/admins/{id}': 'owner',
  'DELETE /api/admin/admins/{id}': 'owner',
  'GET /api/admin/audit': 'owner',
  'GET /api/admin/audit/actions': 'owner',
  // The owner's dashboard (revenue, refunds, supplier balance).
  'GET /api/admin/dashboard': 'owner',
  // Supplier panels (decision 045).
  'GET /api/admin/suppliers': 'owner',
  'GET /api/admin/suppliers/balances': 'owner',
  'POST /api/admin/suppliers': 'owner',
  'PATCH /api/admin/suppliers/{id}': 'owner',
  'DELETE /api/admin/suppliers/{id}': 'owner',
  'POST /api/admin/suppliers/{id}/import': 'owner',
  'GET /api/admin/suppliers/{id}/services': 'owner',
  // The price change per payment method: owner only, like the catalogue's prices.
  'GET /api/admin/payment-methods': 'owner',
  'PUT /api/admin/payment-methods': 'owner',
  // Owner and support: orders, messages, reviews, their own session and security page.
  // Money going back is the owner's (REFUND_ROLES); support sees the payments on the detail.
  'POST /api/admin/orders/{orderId}/refunds': 'owner',
  'GET /api/order/all-orders': 'owner+support',
  'GET /api/order/all-orders.csv': 'owner+support',
  'GET /api/order/detail/{orderId}': 'owner+support',
  // The team's internal note on an order.
  'PUT /api/order/note/{orderId}': 'owner+support',
  'POST /api/order/reorder': 'owner+support',
  'POST /api/order/apply-service': 'owner+support',
  // Refills and cancels at the supplier from the order detail (decision 040).
  'GET /api/order/supplier-actions/{orderId}': 'owner+support',
  'POST /api/order/refill-at-supplier': 'owner+support',
  'POST /api/order/cancel-at-supplier': 'owner+support',
  'POST /api/admin/orders/{orderId}/cancel-subscription': 'owner+support',
  'GET /api/admin/messages': 'owner+support',
  'GET /api/admin/messages/unread-count': 'owner+support',
  'GET /api/admin/messages/{id}': 'owner+support',
  'POST /api/admin/messages/{id}/handled': 'owner+support',
  'POST /api/admin/messages/{id}/reopen': 'owner+support',
  'POST /api/admin/messages/{id}/replies': 'owner+support',
  'GET /api/admin/reviews': 'owner+support',
  'GET /api/admin/reviews/pending-count': 'owner+support',
  'POST /api/admin/reviews/{id}/approve': 'owner+support',
  'POST /api/admin/reviews/{id}/reject': 'owner+support',
  'GET /api/auth/logout': 'owner+support',
  'GET /api/auth/me': 'owner+support',
  'GET /api/auth/second-factor': 'owner+support',
  'POST /api/auth/totp/setup': 'owner+support',
  'POST /api/auth/totp/confirm': 'owner+support',
  'POST /api/auth/totp/disable': 'owner+support',
};

describe.each(dialects)('admin roles, invitations and audit on %s', (dialect) => {
  let t: TestApp;
  const clock = createTestClock();
  let ownerId = 0;
  let ownerToken = '';
  let supportToken = '';
  let supportId = 0;
  let ownerEmail = '';
  let supportEmail = '';
  let clients = 0;
  const nextAddress = () => `10.9.${Math.floor(++clients / 250)}.${clients % 250}`;
  let seq = 0;
  const freshEmail = (label: string) => `${label}-${++seq}-${dialect}@roles.example`;

  const call = (method: string, url: string, token?: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url,
      remoteAddress: nextAddress(),
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  async function loggedInAdmin(label: string, role: 'owner' | 'support') {
    const admin = await seedAdmin(t.database.db, freshEmail(label), PASSWORD, { verified: true, at: clock.now() });
    await t.database.db.updateTable('admins').set({ role }).where('id', '=', admin.id).execute();
    const token = await adminToken(t, { email: admin.email, password: PASSWORD }, nextAddress(), clock.now);
    return { ...admin, token };
  }

  async function auditCount(): Promise<number> {
    const row = await t.database.db
      .selectFrom('admin_audit')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The token in the newest invitation e-mail queued for `email`. */
  async function invitationToken(email: string): Promise<string> {
    const jobs = await t.database.db
      .selectFrom('jobs')
      .select(['payload_json'])
      .where('kind', '=', 'mail.send')
      .orderBy('id', 'desc')
      .execute();
    for (const job of jobs) {
      const mail = JSON.parse(job.payload_json) as { to: string; subject: string; text: string };
      if (mail.to !== email) continue;
      expect(mail.subject).not.toMatch(/token/i);
      const match = /\/accept-invitation#token=([A-Za-z0-9_-]{43})/.exec(mail.text);
      expect(match, mail.text).not.toBeNull();
      return match![1];
    }
    throw new Error(`no invitation mail to ${email}`);
  }

  beforeAll(async () => {
    t = await startTestApp(dialect, {
      env: { PUBLIC_URL: 'https://shop.example' },
      overrides: { clock: clock.now },
    });
    const owner = await loggedInAdmin('owner', 'owner');
    ownerId = owner.id;
    ownerEmail = owner.email;
    ownerToken = owner.token;
    const support = await loggedInAdmin('support', 'support');
    supportId = support.id;
    supportEmail = support.email;
    supportToken = support.token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('makes admins that existed before the migration owners, and says the role in /auth/me', async () => {
    const plain = await seedAdmin(t.database.db, freshEmail('legacy'), PASSWORD, { verified: true });
    const row = await t.database.db
      .selectFrom('admins')
      .select('role')
      .where('id', '=', plain.id)
      .executeTakeFirstOrThrow();
    expect(row.role).toBe('owner');
    const me = await call('GET', '/api/auth/me', supportToken);
    expect(me.json()).toMatchObject({ data: { role: 'support' } });
  });

  it('has a role decision for every /api route, and each guarded route enforces it', async () => {
    await t.app.ready();
    const spec = t.app.swagger() as {
      paths: Record<string, Record<string, { security?: { adminBearer?: unknown }[] }>>;
    };
    const operations: { key: string; method: string; path: string; guarded: boolean }[] = [];
    for (const [path, methods] of Object.entries(spec.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const upper = method.toUpperCase();
        if (upper === 'HEAD') continue;
        const guarded = (operation.security ?? []).some((entry) => 'adminBearer' in entry);
        operations.push({ key: `${upper} ${path}`, method: upper, path, guarded });
      }
    }
    const missing = operations.filter((op) => !(op.key in ROUTE_ROLES)).map((op) => op.key);
    expect(missing, 'routes without a role decision: add them to ROUTE_ROLES').toEqual([]);

    // Logging out revokes the token used: those go last.
    operations.sort((a, b) => Number(a.path.endsWith('/logout')) - Number(b.path.endsWith('/logout')));
    for (const op of operations) {
      const decision = ROUTE_ROLES[op.key];
      expect(op.guarded, `${op.key}: documented guard vs ROUTE_ROLES`).toBe(decision !== 'public');
      if (decision === 'public') continue;
      const url = op.path.replace(/\{[^}]+\}/g, '1');
      const payload = ['POST', 'PUT', 'PATCH'].includes(op.method) ? {} : undefined;

      const anonymous = await call(op.method, url, undefined, payload);
      expect(anonymous.statusCode, `${op.key} without a token`).toBe(401);

      if (op.path.endsWith('/logout')) continue;
      const before = await auditCount();
      const bySupport = await call(op.method, url, supportToken, payload);
      if (decision === 'owner') {
        expect(bySupport.statusCode, `${op.key} as support`).toBe(403);
        expect(bySupport.json()).toMatchObject({ isSuccessful: false, message: ROLE_MESSAGES.ownerOnly });
      } else {
        expect([401, 403], `${op.key} as support: ${bySupport.body}`).not.toContain(bySupport.statusCode);
      }
      const byOwner = await call(op.method, url, ownerToken, payload);
      expect([401, 403], `${op.key} as owner: ${byOwner.body}`).not.toContain(byOwner.statusCode);

      // Every mutating call is audited, the refused ones too; reads are not.
      const written = (await auditCount()) - before;
      expect(written, `${op.key}: audit entries`).toBe(op.method === 'GET' ? 0 : 2);
    }
  });

  it('records who did what to which target, with the outcome and no secrets', async () => {
    const email = freshEmail('audited');
    const invited = await call('POST', '/api/admin/admins/invitations', ownerToken, { email, role: 'support' });
    expect(invited.statusCode, invited.body).toBe(201);
    const token = await invitationToken(email);
    const refused = await call('POST', '/api/auth/totp/disable', supportToken, { code: '123456' });
    expect(refused.statusCode).toBe(400);

    const rows = await t.database.db.selectFrom('admin_audit').selectAll().orderBy('id', 'desc').execute();
    const invite = rows.find((row) => row.action === 'admin.invite' && row.target_id === email);
    expect(invite).toMatchObject({ admin_id: ownerId, target_type: 'invitation', outcome: 201 });
    expect(JSON.parse(invite!.summary!)).toMatchObject({ after: { email, role: 'support' } });
    const disable = rows.find((row) => row.action === 'POST /auth/totp/disable' && row.admin_id === supportId);
    expect(disable).toMatchObject({ outcome: 400, target_type: 'auth' });
    expect(JSON.parse(disable!.summary!)).toEqual({ after: { code: '[redacted]' } });

    const everything = JSON.stringify(rows);
    for (const secret of [PASSWORD, ownerToken, supportToken, token, '123456']) {
      expect(everything).not.toContain(secret);
    }
  });

  it('invites by e-mail: a single-use, hashed, expiring link; the password rules; e-mailed code before the first session', async () => {
    const email = freshEmail('invitee');
    const invited = await call('POST', '/api/admin/admins/invitations', ownerToken, { email, role: 'support' });
    expect(invited.statusCode, invited.body).toBe(201);
    const token = await invitationToken(email);
    const stored = await t.database.db
      .selectFrom('admin_invitations')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(hashInvitationToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    const validFor = Date.parse(stored.expires_at) - Date.parse(stored.created_at);
    expect(validFor).toBe(72 * 60 * 60_000);

    const listed = await call('GET', '/api/admin/admins', ownerToken);
    expect(listed.json()).toMatchObject({
      data: { invitations: expect.arrayContaining([expect.objectContaining({ email, role: 'support' })]) },
    });

    const checked = await call('POST', '/api/auth/invitation', undefined, { token });
    expect(checked.json()).toMatchObject({ data: { email, role: 'support' } });
    expect((await call('POST', '/api/auth/invitation', undefined, { token: 'x'.repeat(43) })).statusCode).toBe(400);

    const weak = await call('POST', '/api/auth/invitation/accept', undefined, { token, password: 'short' });
    expect(weak.statusCode).toBe(400);

    // Two tabs with one link: one admin, one refusal.
    const [first, second] = await Promise.all([
      call('POST', '/api/auth/invitation/accept', undefined, { token, password: NEW_PASSWORD }),
      call('POST', '/api/auth/invitation/accept', undefined, { token, password: NEW_PASSWORD }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 410]);
    const again = await call('POST', '/api/auth/invitation/accept', undefined, { token, password: NEW_PASSWORD });
    expect(again.statusCode).toBe(410);

    const admins = await t.database.db
      .selectFrom('admins')
      .select(['role', 'is_verified'])
      .where('email', '=', email)
      .execute();
    expect(admins).toEqual([{ role: 'support', is_verified: 0 }]);
    // No session before the second factor: the login asks for the e-mailed code.
    const login = await call('POST', '/api/auth/login', undefined, { email, password: NEW_PASSWORD });
    expect(login.statusCode, login.body).toBe(409);
    expect(login.json()).not.toHaveProperty('access_token');

    const accepted = await t.database.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('action', '=', 'admin.invitation.accept')
      .where('admin_email', '=', email)
      .execute();
    expect(accepted).toHaveLength(1);

    // An admin's e-mail cannot be invited again.
    const duplicate = await call('POST', '/api/admin/admins/invitations', ownerToken, { email, role: 'owner' });
    expect(duplicate.statusCode).toBe(409);
  });

  it('replaces an invitation on re-invite and lets it expire after 72 hours', async () => {
    const email = freshEmail('reinvited');
    await call('POST', '/api/admin/admins/invitations', ownerToken, { email, role: 'support' });
    const oldToken = await invitationToken(email);
    await call('POST', '/api/admin/admins/invitations', ownerToken, { email, role: 'owner' });
    const newToken = await invitationToken(email);
    expect(newToken).not.toBe(oldToken);
    expect((await call('POST', '/api/auth/invitation', undefined, { token: oldToken })).statusCode).toBe(400);
    expect((await call('POST', '/api/auth/invitation', undefined, { token: newToken })).json()).toMatchObject({
      data: { role: 'owner' },
    });

    clock.advance(72 * 60 * 60_000);
    const expired = await call('POST', '/api/auth/invitation/accept', undefined, {
      token: newToken,
      password: NEW_PASSWORD,
    });
    expect(expired.statusCode).toBe(410);
    expect(expired.json()).toMatchObject({ message: expect.stringMatching(/expired/) });
    // The admins' 12-hour sessions ended too: log in again for the cases below.
    ownerToken = await adminToken(t, { email: ownerEmail, password: PASSWORD }, nextAddress(), clock.now);
    supportToken = await adminToken(t, { email: supportEmail, password: PASSWORD }, nextAddress(), clock.now);
  });

  it('changes roles and removes admins, never yourself and never the last owner', async () => {
    const self = await call('PATCH', `/api/admin/admins/${ownerId}`, ownerToken, { role: 'support' });
    expect(self.statusCode).toBe(409);
    expect((await call('DELETE', `/api/admin/admins/${ownerId}`, ownerToken)).statusCode).toBe(409);

    const other = await loggedInAdmin('second-owner', 'owner');
    const promoted = await call('PATCH', `/api/admin/admins/${supportId}`, other.token, { role: 'owner' });
    expect(promoted.statusCode, promoted.body).toBe(200);
    const demoted = await call('PATCH', `/api/admin/admins/${supportId}`, other.token, { role: 'support' });
    expect(demoted.json()).toMatchObject({ data: { before: 'owner', after: 'support' } });
    const row = await t.database.db
      .selectFrom('admin_audit')
      .selectAll()
      .where('action', '=', 'admin.role.change')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.summary!)).toMatchObject({ before: { role: 'owner' }, after: { role: 'support' } });

    // Every other owner goes; then the last one cannot be demoted, even by core callers.
    const owners = await t.database.db.selectFrom('admins').select('id').where('role', '=', 'owner').execute();
    for (const { id } of owners) {
      if (id !== ownerId)
        await t.database.db.updateTable('admins').set({ role: 'support' }).where('id', '=', id).execute();
    }
    await expect(
      t.store.adminAuth.team.changeRole({ adminId: supportId, email: 'x' }, ownerId, 'support'),
    ).rejects.toThrow(/at least one owner/);
    await expect(t.store.adminAuth.team.remove({ adminId: supportId, email: 'x' }, ownerId)).rejects.toThrow(
      /at least one owner/,
    );

    // Two owners demoting each other at once: one wins, an owner remains.
    const a = await loggedInAdmin('race-a', 'owner');
    await t.database.db.updateTable('admins').set({ role: 'support' }).where('id', '=', ownerId).execute();
    const b = await loggedInAdmin('race-b', 'owner');
    const results = await Promise.all([
      call('PATCH', `/api/admin/admins/${b.id}`, a.token, { role: 'support' }),
      call('PATCH', `/api/admin/admins/${a.id}`, b.token, { role: 'support' }),
    ]);
    const statuses = results.map((r) => r.statusCode).sort();
    expect([
      [200, 409],
      [200, 403],
    ]).toContainEqual(statuses);
    const left = await t.database.db.selectFrom('admins').select('id').where('role', '=', 'owner').execute();
    expect(left.length).toBe(1);
    await t.database.db.updateTable('admins').set({ role: 'owner' }).where('id', '=', ownerId).execute();

    // A removed admin's sessions end at once.
    const leaving = await loggedInAdmin('leaving', 'support');
    expect((await call('GET', '/api/auth/me', leaving.token)).statusCode).toBe(200);
    const removed = await call('DELETE', `/api/admin/admins/${leaving.id}`, ownerToken);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await call('GET', '/api/auth/me', leaving.token)).statusCode).toBe(401);
  });

  it('lists the audit log newest first, with search, filters and pages', async () => {
    const marker = freshEmail('needle');
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      await call('POST', '/api/admin/admins/invitations', ownerToken, { email: marker, role: 'support' });
    }
    const found = await call('GET', `/api/admin/audit?q=${encodeURIComponent('NEEDLE')}`, ownerToken);
    const page = found.json<{ data: { entries: { id: number; targetId: string; createdAt: string }[] } }>().data;
    expect(page.entries).toHaveLength(3);
    expect(page.entries.every((e) => e.targetId === marker)).toBe(true);
    expect(page.entries.map((e) => e.createdAt)).toEqual([...page.entries.map((e) => e.createdAt)].sort().reverse());

    const first = await call('GET', '/api/admin/audit?action=admin.invite&q=needle', ownerToken);
    const firstData = first.json<{ data: { entries: unknown[]; next: string | null } }>().data;
    expect(firstData.entries).toHaveLength(3);
    expect(firstData.next).toBeNull();

    const byAdmin = await call('GET', `/api/admin/audit?adminId=${supportId}`, ownerToken);
    const byAdminData = byAdmin.json<{ data: { entries: { adminId: number }[] } }>().data;
    expect(byAdminData.entries.length).toBeGreaterThan(0);
    expect(byAdminData.entries.every((e) => e.adminId === supportId)).toBe(true);

    // Pages: 25 at a time, `next` continues where the page ended, no entry twice.
    const seen = new Set<number>();
    let before: string | null = null;
    let pages = 0;
    do {
      const url: string = `/api/admin/audit${before ? `?before=${encodeURIComponent(before)}` : ''}`;
      const reply = await call('GET', url, ownerToken);
      const data = reply.json<{ data: { entries: { id: number }[]; next: string | null } }>().data;
      for (const entry of data.entries) {
        expect(seen.has(entry.id)).toBe(false);
        seen.add(entry.id);
      }
      before = data.next;
      pages += 1;
    } while (before && pages < 50);
    expect(seen.size).toBe(await auditCount());

    expect((await call('GET', '/api/admin/audit', supportToken)).statusCode).toBe(403);
  });
});

describe.each(dialects)('invitation secrets stay out of the logs on %s', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  let app: FastifyInstance;
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    const config = loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: path.join(root, '.tmp/unused'),
      LOG_LEVEL: 'trace',
      PUBLIC_URL: 'https://shop.example',
      TOTP_ENCRYPTION_KEY: TEST_TOTP_ENCRYPTION_KEY,
    });
    const logger = pino(loggerOptions(config.LOG_LEVEL), stream);
    store = await openStore(config, database, { logger });
    app = await buildApp({ config, store, logger });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await store?.close();
    await database?.dispose();
  });

  it('logs the invitation calls without their token or password', async () => {
    const owner = await seedAdmin(database.db, `log-owner-${dialect}@roles.example`, PASSWORD, { verified: true });
    const email = `log-invitee-${dialect}@roles.example`;
    await store.adminAuth.team.invite({ adminId: owner.id, email: owner.email }, email, 'support');
    const job = await database.db
      .selectFrom('jobs')
      .select('payload_json')
      .where('kind', '=', 'mail.send')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const token = /#token=([A-Za-z0-9_-]{43})/.exec(job.payload_json)?.[1] ?? '';
    expect(token).toHaveLength(43);

    const post = (url: string, payload: object) =>
      app.inject({ method: 'POST', url, payload, remoteAddress: '10.77.0.1' });
    expect((await post('/api/auth/invitation', { token })).statusCode).toBe(200);
    expect((await post('/api/auth/invitation/accept', { token, password: NEW_PASSWORD })).statusCode).toBe(200);
    expect((await post('/api/auth/invitation/accept', { token, password: NEW_PASSWORD })).statusCode).toBe(410);

    const logged = chunks.join('');
    expect(logged).toContain('/api/auth/invitation/accept');
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(NEW_PASSWORD);
  });
});
