/**
 * Admin login through the real app, on each dialect, with a real SMTP sink: the first login's
 * e-mailed code, tokens, the lockout (with a clock the test moves), replies that never reveal
 * whether an e-mail is an admin's, logout and password resets revoking tokens, and the
 * per-client rate limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminAuthError, hashToken } from '../../core/auth/admins.ts';
import { type SmtpSink, startSmtpSink } from '../fakes/smtp.ts';
import { type TestApp, startTestApp } from '../support/app.ts';
import { createTestClock } from '../support/clock.ts';
import { dialects } from '../support/databases.ts';

const PASSWORD = 'correct horse battery staple';
const INVALID_LOGIN = { isSuccessful: false, status: 401, message: 'Invalid email or password.' };
const LOCKED_OUT = { isSuccessful: false, status: 429, message: 'Too many attempts. Try again later.' };
const NOT_VERIFIED = {
  isSuccessful: false,
  status: 409,
  isVerified: false,
  message: 'Your account is not verified yet. Enter the 6-digit code we sent to your e-mail.',
};
const CODE_SENT = { isSuccessful: true, message: 'A new code has been sent to your e-mail.' };
const SESSION_EXPIRED = { isSuccessful: false, message: 'Your session has expired. Please log in again.' };
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let mailboxes = 0;
const freshEmail = (label: string) => `${label}.${Date.now().toString(36)}.${(mailboxes += 1)}@example.com`;

describe.each(dialects)('admin auth on %s', (dialect) => {
  let t: TestApp;
  let smtp: SmtpSink;
  /** The store's clock; tests only ever move it forward. */
  const clock = createTestClock();
  const advance = (ms: number) => clock.advance(ms);

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp(dialect, {
      env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://shop.example' },
      overrides: { clock: clock.now },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  // Each call comes from its own address, so the per-client rate limits do not interfere.
  let clients = 0;
  const nextAddress = () => `10.2.${Math.floor(++clients / 250)}.${clients % 250}`;
  const post = (url: string, payload: unknown, remoteAddress = nextAddress()) =>
    t.app.inject({ method: 'POST', url, payload: payload as object, remoteAddress });
  const get = (url: string, token?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      remoteAddress: nextAddress(),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  const login = (email: string, password: string, from?: string) => post('/api/auth/login', { email, password }, from);
  const verifyOtp = (email: string, otp: unknown) => post('/api/auth/verify-otp', { email, otp });
  const resendOtp = (email: string) => post('/api/auth/resend-otp', { email });
  const me = (token?: string) => get('/api/auth/me', token);
  const logout = (token?: string) => get('/api/auth/logout', token);

  async function mailJobCount(): Promise<number> {
    const rows = await t.database.db.selectFrom('jobs').select('id').where('kind', '=', 'mail.send').execute();
    return rows.length;
  }

  /** Sends queued mail and returns the code in the newest admin e-mail to `email` after `since` messages. */
  async function codeMailFor(email: string, since: number) {
    await t.store.worker.runOnce();
    const mail = await smtp.waitForMessage(
      (m) => smtp.messages.indexOf(m) >= since && m.to === email && m.subject.startsWith('Your Boostly admin code'),
      5_000,
    );
    const match = /^\s*(\d{6})\s*$/m.exec(mail.text);
    expect(match, `no code line in:\n${mail.text}`).not.toBeNull();
    return { mail, code: match![1] };
  }

  /** An admin that has verified its account (the e-mailed code step is skipped). */
  async function verifiedAdmin(label: string): Promise<string> {
    const email = freshEmail(label);
    await t.store.adminAuth.createAdmin(email, PASSWORD);
    await t.database.db.updateTable('admins').set({ is_verified: 1 }).where('email', '=', email).execute();
    return email;
  }

  async function tokenFor(email: string, password = PASSWORD): Promise<string> {
    const response = await login(email, password);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().access_token;
  }

  describe('first login and the e-mailed code', () => {
    it('answers 409 and e-mails a code; the code verifies the account; the next login returns a token', async () => {
      const email = freshEmail('first');
      const created = await t.store.adminAuth.createAdmin(` ${email.toUpperCase()} `, PASSWORD);
      expect(created.email).toBe(email);

      const since = smtp.messages.length;
      const first = await login(email.toUpperCase(), PASSWORD);
      expect(first.statusCode).toBe(409);
      expect(first.headers['cache-control']).toBe('private, no-store');
      expect(first.json()).toEqual(NOT_VERIFIED);

      const { mail, code } = await codeMailFor(email, since);
      expect(mail.subject).toBe(`Your Boostly admin code: ${code}`);
      expect(mail.text).toContain('valid for 10 minutes');
      expect(mail.text).toContain('https://shop.example/login');
      const stored = await t.database.db
        .selectFrom('one_time_codes')
        .selectAll()
        .where('purpose', '=', 'admin-login')
        .where('subject', '=', email)
        .executeTakeFirstOrThrow();
      expect(stored.code_hash).not.toContain(code);

      // Without the code there is still no token.
      expect((await login(email, PASSWORD)).statusCode).toBe(409);

      const verified = await verifyOtp(email, code);
      expect(verified.statusCode, verified.body).toBe(200);
      expect(verified.json()).toEqual({ isSuccessful: true, message: 'Your account is verified. Log in to continue.' });
      // Single use.
      expect((await verifyOtp(email, code)).json()).toEqual({ isSuccessful: false, message: 'Ask for a code first.' });

      const second = await login(email, PASSWORD);
      expect(second.statusCode, second.body).toBe(200);
      const body = second.json();
      expect(body).toEqual({
        isSuccessful: true,
        status: 200,
        isVerified: true,
        access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        expiresAt: expect.any(String),
        message: 'Logged in',
      });
      expect(Date.parse(body.expiresAt) - clock.now().getTime()).toBeGreaterThan(12 * HOUR - MINUTE);
      expect(Date.parse(body.expiresAt) - clock.now().getTime()).toBeLessThanOrEqual(12 * HOUR);

      // Only the token's SHA-256 is stored.
      const tokens = await t.database.db
        .selectFrom('admin_tokens')
        .selectAll()
        .where('admin_id', '=', created.id)
        .execute();
      expect(tokens).toHaveLength(1);
      expect(tokens[0].token_hash).toBe(hashToken(body.access_token));
      expect(JSON.stringify(tokens)).not.toContain(body.access_token);

      const who = await me(body.access_token);
      expect(who.statusCode).toBe(200);
      expect(who.headers['cache-control']).toBe('private, no-store');
      expect(who.json()).toEqual({ isSuccessful: true, message: 'Success', data: { email } });
      const used = await t.database.db
        .selectFrom('admin_tokens')
        .select('last_used_at')
        .where('admin_id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(used.last_used_at).not.toBeNull();
    });

    it('a second login while the resend is throttled still answers 409 and queues no second e-mail', async () => {
      const email = freshEmail('throttled.login');
      await t.store.adminAuth.createAdmin(email, PASSWORD);
      expect((await login(email, PASSWORD)).statusCode).toBe(409);
      const jobs = await mailJobCount();
      const again = await login(email, PASSWORD);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual(NOT_VERIFIED);
      expect(await mailJobCount()).toBe(jobs);
    });

    it('a wrong password for an unverified admin is a 401 and sends nothing', async () => {
      const email = freshEmail('unverified.wrong');
      await t.store.adminAuth.createAdmin(email, PASSWORD);
      const jobs = await mailJobCount();
      const response = await login(email, 'not the password at all');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(INVALID_LOGIN);
      expect(await mailJobCount()).toBe(jobs);
    });

    it('locks the code after 5 wrong guesses', async () => {
      const email = freshEmail('guesses');
      await t.store.adminAuth.createAdmin(email, PASSWORD);
      const since = smtp.messages.length;
      expect((await login(email, PASSWORD)).statusCode).toBe(409);
      const { code } = await codeMailFor(email, since);
      const wrong = code === '000000' ? '111111' : '000000';
      const messages: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        const response = await verifyOtp(email, wrong);
        expect(response.statusCode).toBe(400);
        messages.push(response.json().message);
      }
      expect(messages).toEqual([
        'Invalid code',
        'Invalid code',
        'Invalid code',
        'Invalid code',
        'Too many wrong codes. Ask for a new one.',
      ]);
      const right = await verifyOtp(email, code);
      expect(right.statusCode).toBe(400);
      expect(right.json()).toEqual({ isSuccessful: false, message: 'Too many wrong codes. Ask for a new one.' });
      expect((await login(email, PASSWORD)).statusCode).toBe(409);
    });

    it('refuses an expired code', async () => {
      const email = freshEmail('expired.code');
      await t.store.adminAuth.createAdmin(email, PASSWORD);
      const since = smtp.messages.length;
      await login(email, PASSWORD);
      const { code } = await codeMailFor(email, since);
      // The codes service reads the store's clock: ten minutes on, the code is dead.
      advance(10 * MINUTE + 1_000);
      const response = await verifyOtp(email, code);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ isSuccessful: false, message: 'This code has expired. Ask for a new one.' });
    });

    it('resend e-mails a new code that replaces the old one, and is throttled with 429', async () => {
      const email = freshEmail('resend');
      await t.store.adminAuth.createAdmin(email, PASSWORD);
      let since = smtp.messages.length;
      await login(email, PASSWORD);
      const { code: first } = await codeMailFor(email, since);

      const throttled = await resendOtp(email);
      expect(throttled.statusCode).toBe(429);
      expect(throttled.headers['cache-control']).toBe('private, no-store');
      expect(throttled.json()).toEqual({
        isSuccessful: false,
        message: expect.stringMatching(/^Please wait \d+ seconds? before asking for a new code\.$/),
      });
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);

      // Two minutes later (on the store's clock) the throttle has passed.
      advance(2 * MINUTE);
      since = smtp.messages.length;
      const resent = await resendOtp(email);
      expect(resent.statusCode, resent.body).toBe(200);
      expect(resent.json()).toEqual(CODE_SENT);
      const { code: second } = await codeMailFor(email, since);
      if (first !== second) expect((await verifyOtp(email, first)).json().message).toBe('Invalid code');
      expect((await verifyOtp(email, second)).statusCode).toBe(200);
      expect((await login(email, PASSWORD)).statusCode).toBe(200);
    });

    it('answers an unknown e-mail exactly like an admin one, and e-mails nothing', async () => {
      const admin = freshEmail('known');
      await t.store.adminAuth.createAdmin(admin, PASSWORD);
      const stranger = freshEmail('stranger');

      // Never asked: both get the same answer.
      const [adminFirst, strangerFirst] = [await verifyOtp(admin, '123456'), await verifyOtp(stranger, '123456')];
      expect(strangerFirst.statusCode).toBe(adminFirst.statusCode);
      expect(strangerFirst.body).toBe(adminFirst.body);

      const jobs = await mailJobCount();
      const adminResend = await resendOtp(admin);
      const strangerResend = await resendOtp(stranger);
      expect(strangerResend.statusCode).toBe(200);
      expect(strangerResend.body).toBe(adminResend.body);
      expect(strangerResend.json()).toEqual(CODE_SENT);
      expect(await mailJobCount()).toBe(jobs + 1); // the admin's code only

      // A guess: 'Invalid code' for both.
      const adminGuess = await verifyOtp(admin, '000000');
      const strangerGuess = await verifyOtp(stranger, '000000');
      expect(strangerGuess.json()).toEqual({ isSuccessful: false, message: 'Invalid code' });
      expect(strangerGuess.body).toBe(adminGuess.body);

      // Throttled alike.
      const adminAgain = await resendOtp(admin);
      const strangerAgain = await resendOtp(stranger);
      expect(strangerAgain.statusCode).toBe(429);
      expect(adminAgain.statusCode).toBe(429);
    });

    it.each([
      ['/api/auth/verify-otp', { otp: '123456' }, 'Email is required', 'email'],
      ['/api/auth/verify-otp', { email: 'nope', otp: '123456' }, 'Invalid email', 'email'],
      ['/api/auth/verify-otp', { email: 'someone@example.com' }, 'Code is required', 'otp'],
      ['/api/auth/resend-otp', {}, 'Email is required', 'email'],
      ['/api/auth/resend-otp', { email: 'a@b' }, 'Invalid email', 'email'],
    ])('%s answers %j with 400 %s', async (url, body, message, field) => {
      const response = await post(url, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ isSuccessful: false, message, errors: [{ field, message }] });
    });
  });

  describe('passwords and lockout', () => {
    it('answers a wrong password and an unknown e-mail with the same 401', async () => {
      const email = await verifiedAdmin('wrong.password');
      const wrongPassword = await login(email, 'not the password at all');
      const unknown = await login(freshEmail('nobody'), PASSWORD);
      expect(wrongPassword.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrongPassword.json()).toEqual(INVALID_LOGIN);
      expect(unknown.body).toBe(wrongPassword.body);
      expect(wrongPassword.headers['cache-control']).toBe('private, no-store');
    });

    const EMAIL_REQUIRED = { field: 'email', message: 'Email is required' };
    const PASSWORD_REQUIRED = { field: 'password', message: 'Password is required' };
    it.each([
      [{}, 'nothing', [EMAIL_REQUIRED, PASSWORD_REQUIRED]],
      [{ email: 'admin@example.com' }, 'no password', [PASSWORD_REQUIRED]],
      [{ password: PASSWORD }, 'no e-mail', [EMAIL_REQUIRED]],
      [{ email: '  ', password: PASSWORD }, 'a blank e-mail', [EMAIL_REQUIRED]],
    ])('answers %j (%s) with 400, naming each missing field', async (body, _what, errors) => {
      const response = await post('/api/auth/login', body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        isSuccessful: false,
        status: 400,
        message: 'Email and password are required',
        errors,
      });
    });

    it('locks an account for 15 minutes after 5 failures, refusing even the right password, then lets it in', async () => {
      const email = await verifiedAdmin('lockout');
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await login(email, `wrong password ${i}`)).statusCode);
      expect(statuses).toEqual([401, 401, 401, 401, 429]);

      const locked = await login(email, PASSWORD);
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual(LOCKED_OUT);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
      const listed = (await t.store.adminAuth.listAdmins()).find((admin) => admin.email === email);
      expect(listed?.lockedUntil).not.toBeNull();

      advance(14 * MINUTE);
      expect((await login(email, PASSWORD)).statusCode).toBe(429);
      advance(MINUTE + 1_000);
      const open = await login(email, PASSWORD);
      expect(open.statusCode, open.body).toBe(200);
      // The success ended the run: it takes 5 new failures to lock again.
      for (let i = 0; i < 4; i += 1) expect((await login(email, 'wrong password')).statusCode).toBe(401);
      expect((await login(email, PASSWORD)).statusCode).toBe(200);
    });

    it('locks an unknown e-mail the same way, so a lockout reveals nothing', async () => {
      const email = freshEmail('unknown.lockout');
      const statuses: number[] = [];
      const bodies: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        const response = await login(email, `wrong password ${i}`);
        statuses.push(response.statusCode);
        bodies.push(response.body);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
      expect(JSON.parse(bodies[4])).toEqual(LOCKED_OUT);
      expect(JSON.parse(bodies[0])).toEqual(INVALID_LOGIN);
      expect((await login(email, PASSWORD)).json()).toEqual(LOCKED_OUT);
      advance(15 * MINUTE + 1_000);
      expect((await login(email, PASSWORD)).json()).toEqual(INVALID_LOGIN);
    });

    it('forgets failures 15 minutes after the last one', async () => {
      const email = await verifiedAdmin('slow.guesses');
      const stranger = freshEmail('slow.stranger');
      for (const who of [email, stranger]) {
        for (let i = 0; i < 4; i += 1) expect((await login(who, 'wrong password')).statusCode).toBe(401);
      }
      advance(15 * MINUTE + 1_000);
      for (const who of [email, stranger]) {
        for (let i = 0; i < 4; i += 1) expect((await login(who, 'wrong password')).statusCode).toBe(401);
      }
      expect((await login(email, PASSWORD)).statusCode).toBe(200);
    });

    it('counts parallel guesses', async () => {
      const email = await verifiedAdmin('parallel');
      const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => login(email, `wrong password ${i}`)));
      expect(responses.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(4);
      expect((await login(email, PASSWORD)).statusCode).toBe(429);
      advance(15 * MINUTE + 1_000);
    });
  });

  describe('tokens', () => {
    it('answers 401 "No access token found." without a token', async () => {
      for (const response of [await me(), await logout()]) {
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ isSuccessful: false, message: 'No access token found.' });
      }
      const basic = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: 'Basic abc' } });
      expect(basic.json()).toEqual({ isSuccessful: false, message: 'No access token found.' });
    });

    it('refuses an unknown or malformed token', async () => {
      for (const token of ['x'.repeat(43), 'not-a-token', 'A'.repeat(200)]) {
        const response = await me(token);
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual(SESSION_EXPIRED);
      }
    });

    it('expires a token 12 hours after the login', async () => {
      const email = await verifiedAdmin('expiry');
      const token = await tokenFor(email);
      advance(11 * HOUR + 59 * MINUTE);
      expect((await me(token)).statusCode).toBe(200);
      advance(MINUTE + 1_000);
      const expired = await me(token);
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toEqual(SESSION_EXPIRED);
    });

    it('logout revokes the token, and only that one', async () => {
      const email = await verifiedAdmin('logout');
      const token = await tokenFor(email);
      const other = await tokenFor(email);
      const out = await logout(token);
      expect(out.statusCode).toBe(200);
      expect(out.headers['cache-control']).toBe('private, no-store');
      expect(out.json()).toEqual({ isSuccessful: true, message: 'Logged out' });
      expect((await me(token)).json()).toEqual(SESSION_EXPIRED);
      expect((await logout(token)).statusCode).toBe(401);
      expect((await me(other)).statusCode).toBe(200);
    });

    it('a password reset revokes every token of that admin and ends a lockout', async () => {
      const email = await verifiedAdmin('reset');
      const bystander = await verifiedAdmin('bystander');
      const tokens = [await tokenFor(email), await tokenFor(email)];
      const theirs = await tokenFor(bystander);
      for (let i = 0; i < 5; i += 1) await login(email, 'wrong password');
      expect((await login(email, PASSWORD)).statusCode).toBe(429);

      const newPassword = 'a brand new passphrase';
      const result = await t.store.adminAuth.resetPassword(email.toUpperCase(), newPassword);
      expect(result).toEqual({ email, revokedTokens: 2 });
      for (const token of tokens) expect((await me(token)).statusCode).toBe(401);
      expect((await me(theirs)).statusCode).toBe(200);
      expect((await login(email, PASSWORD)).json()).toEqual(INVALID_LOGIN);
      expect((await login(email, newPassword)).statusCode).toBe(200);
    });
  });

  describe('accounts', () => {
    it('refuses a duplicate e-mail, a weak password and a bad e-mail', async () => {
      const email = freshEmail('duplicate');
      await t.store.adminAuth.createAdmin(email, PASSWORD);
      await expect(t.store.adminAuth.createAdmin(email.toUpperCase(), PASSWORD)).rejects.toMatchObject({
        statusCode: 409,
        message: 'An admin with this e-mail already exists.',
      });
      await expect(t.store.adminAuth.createAdmin(freshEmail('weak'), 'short')).rejects.toMatchObject({
        statusCode: 400,
        message: 'The password must be at least 12 characters long.',
      });
      await expect(t.store.adminAuth.createAdmin('not-an-email', PASSWORD)).rejects.toBeInstanceOf(AdminAuthError);
      await expect(t.store.adminAuth.resetPassword(freshEmail('ghost'), PASSWORD)).rejects.toMatchObject({
        statusCode: 404,
      });
      const listed = await t.store.adminAuth.listAdmins();
      expect(listed.filter((admin) => admin.email === email)).toEqual([
        {
          id: expect.any(Number),
          email,
          isVerified: false,
          lockedUntil: null,
          createdAt: expect.any(String),
          activeTokens: 0,
        },
      ]);
    });
  });

  describe('rate limits per client', () => {
    it('allows 10 logins a minute, then 429', async () => {
      const from = '192.0.2.20';
      const statuses: number[] = [];
      for (let i = 0; i < 10; i += 1) statuses.push((await login('', '', from)).statusCode);
      expect(statuses.every((s) => s === 400)).toBe(true);
      const limited = await login(freshEmail('limited'), PASSWORD, from);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['cache-control']).toBe('private, no-store');
      expect(limited.json()).toMatchObject({
        isSuccessful: false,
        message: expect.stringMatching(/^Too many requests/),
      });
    });

    it('allows 3 resends a minute, then 429', async () => {
      const from = '192.0.2.21';
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1)
        statuses.push((await post('/api/auth/resend-otp', { email: 'nope' }, from)).statusCode);
      expect(statuses).toEqual([400, 400, 400]);
      const limited = await post('/api/auth/resend-otp', { email: freshEmail('limited') }, from);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({
        isSuccessful: false,
        message: expect.stringMatching(/^Too many requests/),
      });
    });
  });
});
