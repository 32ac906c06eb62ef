/**
 * Admin login through the real app, on each dialect, with a real SMTP sink: a second factor on
 * every login (the e-mailed code, or TOTP with single-use recovery codes), tokens, the lockout
 * per account and source address with its account-wide slowdown (with a clock the test moves),
 * replies that never reveal whether an e-mail is an admin's, logout and password resets revoking
 * tokens, and the per-client rate limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminAuthError, createAdminAuth, hashToken } from '../../core/auth/admins.ts';
import { createOneTimeCodes, loadCodePepper } from '../../core/auth/one-time-codes.ts';
import { SCRYPT_P, SCRYPT_R, needsRehash, newHashCost, verifyPassword } from '../../core/auth/passwords.ts';
import { totpCode } from '../support/totp.ts';
import { type SmtpSink, startSmtpSink } from '../fakes/smtp.ts';
import { seedAdmin } from '../support/admin-accounts.ts';
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
  secondFactor: 'email',
  message: 'Your account is not verified yet. Enter the 6-digit code we sent to your e-mail.',
};
const EMAILED_CODE = {
  isSuccessful: false,
  status: 409,
  isVerified: false,
  secondFactor: 'email',
  message: 'Enter the 6-digit code we sent to your e-mail to finish logging in.',
};
const TOTP_NEEDED = {
  isSuccessful: false,
  status: 409,
  isVerified: false,
  secondFactor: 'totp',
  message: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
};
const VERIFIED = { isSuccessful: true, message: 'Your account is verified. Log in to continue.' };
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
  const verifyOtp = (email: string, otp: unknown, from?: string) => post('/api/auth/verify-otp', { email, otp }, from);
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

  /**
   * An admin that has verified its account (the e-mailed code step is skipped). Its row holds a
   * cheaper hash than `createAdmin` writes (tests/support/admin-accounts.ts): these cases test what
   * comes after the password, and the first right password re-hashes it anyway.
   */
  async function verifiedAdmin(label: string): Promise<string> {
    return (await seedAdmin(t.database.db, freshEmail(label), PASSWORD, { verified: true, at: clock.now() })).email;
  }

  /** An admin that has not yet entered its first e-mailed code, with the same cheaper hash. */
  async function unverifiedAdmin(label: string): Promise<string> {
    return (await seedAdmin(t.database.db, freshEmail(label), PASSWORD, { verified: false, at: clock.now() })).email;
  }

  /** The whole login with the e-mailed code, from one address: 409, the code, verify, 200. */
  async function emailLogin(email: string, password = PASSWORD, from = nextAddress()): Promise<string> {
    // A code sent in the last minute is not sent again: step past the resend throttle, and
    // deliver any earlier code first, so the one read below is this login's.
    advance(61_000);
    await t.store.worker.runOnce();
    const since = smtp.messages.length;
    const challenged = await login(email, password, from);
    expect(challenged.statusCode, challenged.body).toBe(409);
    const { code } = await codeMailFor(email, since);
    const verified = await verifyOtp(email, code, from);
    expect(verified.statusCode, verified.body).toBe(200);
    const response = await login(email, password, from);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().access_token;
  }

  /** A verified admin enrolled in TOTP through the store; its secret and recovery codes. */
  async function totpAdmin(label: string) {
    const email = await verifiedAdmin(label);
    const { id } = await t.database.db
      .selectFrom('admins')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    const { secret, otpauthUrl } = await t.store.adminAuth.startTotp(id, email);
    const { recoveryCodes } = await t.store.adminAuth.confirmTotp(id, totpCode(secret, clock.now()));
    return { email, id, secret, otpauthUrl, recoveryCodes };
  }

  /** The whole login with a TOTP code from the app, from one address (a fresh step each time). */
  async function totpLogin(email: string, secret: string, from = nextAddress()): Promise<string> {
    advance(30_000);
    const challenged = await login(email, PASSWORD, from);
    expect(challenged.json()).toEqual(TOTP_NEEDED);
    const verified = await verifyOtp(email, totpCode(secret, clock.now()), from);
    expect(verified.statusCode, verified.body).toBe(200);
    const response = await login(email, PASSWORD, from);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().access_token;
  }

  async function tokenFor(email: string): Promise<string> {
    return emailLogin(email);
  }

  describe('first login and the e-mailed code', () => {
    it('answers 409 and e-mails a code; the code verifies the account; the next login returns a token', async () => {
      const email = freshEmail('first');
      const created = await t.store.adminAuth.createAdmin(` ${email.toUpperCase()} `, PASSWORD);
      expect(created.email).toBe(email);

      const from = nextAddress();
      const since = smtp.messages.length;
      const first = await login(email.toUpperCase(), PASSWORD, from);
      expect(first.statusCode).toBe(409);
      expect(first.headers['cache-control']).toBe('private, no-store');
      expect(first.json()).toEqual(NOT_VERIFIED);

      const { mail, code } = await codeMailFor(email, since);
      expect(mail.subject).toBe('Your Boostly admin code');
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
      expect((await login(email, PASSWORD, from)).statusCode).toBe(409);

      const verified = await verifyOtp(email, code, from);
      expect(verified.statusCode, verified.body).toBe(200);
      expect(verified.json()).toEqual(VERIFIED);
      // Single use.
      expect((await verifyOtp(email, code, from)).json()).toEqual({
        isSuccessful: false,
        message: 'Ask for a code first.',
      });

      const second = await login(email, PASSWORD, from);
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
      // An admin made by the CLI is an owner (decision 041).
      expect(who.json()).toEqual({ isSuccessful: true, message: 'Success', data: { email, role: 'owner' } });
      const used = await t.database.db
        .selectFrom('admin_tokens')
        .select('last_used_at')
        .where('admin_id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(used.last_used_at).not.toBeNull();
    });

    it('asks a verified admin for a new e-mailed code on every login', async () => {
      const email = await verifiedAdmin('every.login');
      const from = nextAddress();
      const since = smtp.messages.length;
      const challenged = await login(email, PASSWORD, from);
      expect(challenged.statusCode).toBe(409);
      expect(challenged.json()).toEqual(EMAILED_CODE);
      const { code } = await codeMailFor(email, since);
      expect((await verifyOtp(email, code, from)).json()).toEqual(VERIFIED);
      expect((await login(email, PASSWORD, from)).statusCode).toBe(200);
      // The grant was for that one login: the next one asks again, with a new code.
      advance(61_000);
      const sinceSecond = smtp.messages.length;
      expect((await login(email, PASSWORD, from)).json()).toEqual(EMAILED_CODE);
      const { code: second } = await codeMailFor(email, sinceSecond);
      expect((await verifyOtp(email, second, from)).statusCode).toBe(200);
      expect((await login(email, PASSWORD, from)).statusCode).toBe(200);
    });

    it('a passed second factor lets in only the next right password, from that address, within 5 minutes', async () => {
      const email = await verifiedAdmin('grant');
      const [home, elsewhere] = [nextAddress(), nextAddress()];
      let since = smtp.messages.length;
      await login(email, PASSWORD, home);
      let { code } = await codeMailFor(email, since);
      expect((await verifyOtp(email, code, home)).statusCode).toBe(200);
      // Another address, even with the password, gets no token from this grant.
      expect((await login(email, PASSWORD, elsewhere)).statusCode).toBe(409);
      // A wrong password from home neither logs in nor uses the grant up.
      expect((await login(email, 'not the password at all', home)).statusCode).toBe(401);
      expect((await login(email, PASSWORD, home)).statusCode).toBe(200);

      advance(61_000);
      await t.store.worker.runOnce(); // deliver the code the login from elsewhere asked for first
      since = smtp.messages.length;
      await login(email, PASSWORD, home);
      ({ code } = await codeMailFor(email, since));
      expect((await verifyOtp(email, code, home)).statusCode).toBe(200);
      advance(5 * MINUTE + 1_000);
      expect((await login(email, PASSWORD, home)).statusCode).toBe(409);
    });

    it("resends without the password cannot use up the admin's codes: the next login still gets one", async () => {
      const email = await verifiedAdmin('resend.spam');
      for (let i = 0; i < 6; i += 1) {
        await resendOtp(email);
        advance(61_000);
      }
      expect((await resendOtp(email)).statusCode).toBe(429); // the hourly cap of the decoy
      const since = smtp.messages.length;
      const from = nextAddress();
      expect((await login(email, PASSWORD, from)).json()).toEqual(EMAILED_CODE);
      const { code } = await codeMailFor(email, since);
      expect((await verifyOtp(email, code, from)).statusCode).toBe(200);
      expect((await login(email, PASSWORD, from)).statusCode).toBe(200);
    });

    it('a second login while the resend is throttled still answers 409 and queues no second e-mail', async () => {
      const email = await unverifiedAdmin('throttled.login');
      const from = nextAddress();
      expect((await login(email, PASSWORD, from)).statusCode).toBe(409);
      const jobs = await mailJobCount();
      const again = await login(email, PASSWORD, from);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual(NOT_VERIFIED);
      expect(await mailJobCount()).toBe(jobs);
    });

    it('a wrong password for an unverified admin is a 401 and sends nothing', async () => {
      const email = await unverifiedAdmin('unverified.wrong');
      const jobs = await mailJobCount();
      const response = await login(email, 'not the password at all');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(INVALID_LOGIN);
      expect(await mailJobCount()).toBe(jobs);
    });

    it('locks the code after 5 wrong guesses', async () => {
      const email = await unverifiedAdmin('guesses');
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
      const email = await unverifiedAdmin('expired.code');
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
      const email = await unverifiedAdmin('resend');
      const from = nextAddress();
      let since = smtp.messages.length;
      await login(email, PASSWORD, from);
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
      expect((await verifyOtp(email, second, from)).statusCode).toBe(200);
      expect((await login(email, PASSWORD, from)).statusCode).toBe(200);
    });

    it('answers an unknown e-mail exactly like an admin one, and e-mails nothing without the password', async () => {
      const admin = await unverifiedAdmin('known');
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
      // The admin has not given the password: resend-otp alone e-mails nobody.
      expect(await mailJobCount()).toBe(jobs);

      // A guess: no login code was ever sent to either, the same answer for both.
      const adminGuess = await verifyOtp(admin, '000000');
      const strangerGuess = await verifyOtp(stranger, '000000');
      expect(strangerGuess.json()).toEqual({ isSuccessful: false, message: 'Ask for a code first.' });
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

    it("re-hashes an older, cheaper password hash with today's parameters at the first right password", async () => {
      const email = await verifiedAdmin('rehash');
      const storedHash = async () =>
        (
          await t.database.db
            .selectFrom('admins')
            .select('password_hash')
            .where('email', '=', email)
            .executeTakeFirstOrThrow()
        ).password_hash;
      const older = await storedHash();
      expect(older).toMatch(/^scrypt\$1024\$8\$1\$/);
      expect((await login(email, 'not the password at all')).statusCode).toBe(401);
      expect(await storedHash()).toBe(older);
      expect((await login(email, PASSWORD)).json()).toEqual(EMAILED_CODE);
      const upgraded = await storedHash();
      expect(upgraded).toMatch(new RegExp(`^scrypt\\$${newHashCost()}\\$${SCRYPT_R}\\$${SCRYPT_P}\\$`));
      expect(await verifyPassword(PASSWORD, upgraded)).toBe(true);
      expect(needsRehash(upgraded)).toBe(false);
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

    it('locks a source out of an account for 15 minutes after 5 failures, refusing even the right password from it', async () => {
      const email = await verifiedAdmin('lockout');
      const from = nextAddress();
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await login(email, `wrong password ${i}`, from)).statusCode);
      expect(statuses).toEqual([401, 401, 401, 401, 429]);

      const locked = await login(email, PASSWORD, from);
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual(LOCKED_OUT);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(14 * 60);
      // The second factor from a locked source is refused unchecked as well.
      const code = await verifyOtp(email, '123456', from);
      expect(code.statusCode).toBe(429);
      expect(code.json()).toEqual({ isSuccessful: false, message: 'Too many attempts. Try again later.' });
      const listed = (await t.store.adminAuth.listAdmins()).find((admin) => admin.email === email);
      expect(listed?.lockedUntil).not.toBeNull();

      advance(14 * MINUTE);
      expect((await login(email, PASSWORD, from)).statusCode).toBe(429);
      advance(MINUTE + 1_000);
      // Open again: the right password goes on to the second factor.
      expect((await login(email, PASSWORD, from)).json()).toEqual(EMAILED_CODE);
    });

    it('an attacker from other addresses cannot keep the admin from logging in from their own', async () => {
      const email = await verifiedAdmin('besieged');
      const attackers = [nextAddress(), nextAddress()];
      const home = nextAddress();
      // The attack renews itself from the same addresses every 15 minutes, forever (through the
      // core service: the per-client rate limit of the HTTP route counts real minutes); the admin
      // logs in over HTTP every time.
      for (let round = 0; round < 2; round += 1) {
        for (const attacker of attackers) {
          const statuses: number[] = [];
          for (let i = 0; i < 5; i += 1)
            statuses.push((await t.store.adminAuth.login(email, `guess ${round}.${i}`, attacker)).status);
          expect(statuses).toEqual([401, 401, 401, 401, 429]);
          expect((await t.store.adminAuth.login(email, PASSWORD, attacker)).status).toBe(429);
        }
        expect((await login(email, PASSWORD, attackers[0])).statusCode).toBe(429);
        const token = await emailLogin(email, PASSWORD, home);
        expect((await me(token)).statusCode).toBe(200);
        advance(15 * MINUTE + 1_000);
      }
      // The right password alone never logs the attacker in, even from an open address.
      expect((await login(email, PASSWORD, attackers[0])).json()).toEqual(EMAILED_CODE);
    }, 90_000);

    it('slows every failed attempt on an account down once failures pile up across sources, capped', async () => {
      const email = await verifiedAdmin('slowdown');
      const delays: number[] = [];
      const auth = createAdminAuth({
        db: t.database.db,
        codes: createOneTimeCodes({ db: t.database.db, pepper: await loadCodePepper(t.database.db), now: clock.now }),
        publicUrl: 'https://shop.example',
        now: clock.now,
        sleep: (ms) => {
          delays.push(ms);
          return Promise.resolve();
        },
      });
      // 16 failures from 4 addresses: none is locked (4 each), but the account is under attack.
      for (let i = 0; i < 16; i += 1) {
        const result = await auth.login(email, `guess ${i}`, `198.51.100.${i % 4}`);
        expect(result.status).toBe(401);
      }
      // The first 10 are answered at once, then 250 ms doubling, capped at 5 s.
      expect(delays).toEqual([250, 500, 1_000, 2_000, 4_000, 5_000]);
      // The right password is never held back, and goes on to the second factor.
      const right = await auth.login(email, PASSWORD, '203.0.113.9');
      expect(right.status).toBe(409);
      expect(delays).toHaveLength(6);
      advance(15 * MINUTE + 1_000);
    }, 60_000);

    it('locks an unknown e-mail the same way, so a lockout reveals nothing', async () => {
      const email = freshEmail('unknown.lockout');
      const from = nextAddress();
      const statuses: number[] = [];
      const bodies: string[] = [];
      for (let i = 0; i < 5; i += 1) {
        const response = await login(email, `wrong password ${i}`, from);
        statuses.push(response.statusCode);
        bodies.push(response.body);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
      expect(JSON.parse(bodies[4])).toEqual(LOCKED_OUT);
      expect(JSON.parse(bodies[0])).toEqual(INVALID_LOGIN);
      expect((await login(email, PASSWORD, from)).json()).toEqual(LOCKED_OUT);
      expect((await login(email, PASSWORD)).json()).toEqual(INVALID_LOGIN);
      advance(15 * MINUTE + 1_000);
      expect((await login(email, PASSWORD, from)).json()).toEqual(INVALID_LOGIN);
    });

    it('forgets failures 15 minutes after the last one', async () => {
      const email = await verifiedAdmin('slow.guesses');
      const stranger = freshEmail('slow.stranger');
      const from = nextAddress();
      for (const who of [email, stranger]) {
        for (let i = 0; i < 4; i += 1) expect((await login(who, 'wrong password', from)).statusCode).toBe(401);
      }
      advance(15 * MINUTE + 1_000);
      const later = nextAddress();
      for (const who of [email, stranger]) {
        for (let i = 0; i < 4; i += 1)
          expect((await t.store.adminAuth.login(who, 'wrong password', from)).status).toBe(401);
      }
      expect((await login(email, PASSWORD, later)).statusCode).toBe(409);
    });

    it('counts parallel guesses', async () => {
      const email = await verifiedAdmin('parallel');
      const from = nextAddress();
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, i) => login(email, `wrong password ${i}`, from)),
      );
      expect(responses.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(4);
      expect((await login(email, PASSWORD, from)).statusCode).toBe(429);
      advance(15 * MINUTE + 1_000);
    });
  });

  describe('TOTP and recovery codes', () => {
    const post = (url: string, token: string, payload?: object) =>
      t.app.inject({
        method: 'POST',
        url,
        remoteAddress: nextAddress(),
        headers: { authorization: `Bearer ${token}` },
        ...(payload ? { payload } : {}),
      });

    it('an admin enrols from a session: the secret is shown once, kept encrypted, confirmed with a code', async () => {
      const email = await verifiedAdmin('enrol');
      const token = await emailLogin(email);
      const status = await get('/api/auth/second-factor', token);
      expect(status.json()).toEqual({
        isSuccessful: true,
        message: 'Success',
        data: {
          method: 'email',
          recoveryCodesLeft: 0,
          totpEnabledAt: null,
          totpSetup: { available: true, reason: null },
        },
      });

      const setup = await post('/api/auth/totp/setup', token);
      expect(setup.statusCode, setup.body).toBe(200);
      expect(setup.headers['cache-control']).toBe('private, no-store');
      const { secret, otpauthUrl } = setup.json().data as { secret: string; otpauthUrl: string };
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(otpauthUrl).toBe(
        `otpauth://totp/Boostly:${encodeURIComponent(email)}?secret=${secret}&period=30&digits=6&algorithm=SHA1&issuer=Boostly`,
      );
      const row = await t.database.db
        .selectFrom('admin_second_factors')
        .innerJoin('admins', 'admins.id', 'admin_second_factors.admin_id')
        .selectAll('admin_second_factors')
        .where('admins.email', '=', email)
        .executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(secret);
      expect(row.totp_secret).toBeNull();

      // Not yet enabled: logins still ask for the e-mailed code.
      advance(61_000);
      expect((await login(email, PASSWORD)).json()).toEqual(EMAILED_CODE);

      const wrong = await post('/api/auth/totp/confirm', token, {
        code: totpCode(secret, new Date(clock.now().getTime() + 5 * MINUTE)),
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ isSuccessful: false, message: 'Invalid code' });

      const confirmed = await post('/api/auth/totp/confirm', token, { code: totpCode(secret, clock.now()) });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      const { recoveryCodes } = confirmed.json().data as { recoveryCodes: string[] };
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
      const stored = await t.database.db.selectFrom('admin_recovery_codes').selectAll().execute();
      for (const code of recoveryCodes) expect(JSON.stringify(stored)).not.toContain(code.replace('-', ''));

      const after = await get('/api/auth/second-factor', token);
      expect(after.json().data).toEqual({
        method: 'totp',
        recoveryCodesLeft: 10,
        totpEnabledAt: expect.any(String),
        totpSetup: { available: true, reason: null },
      });
      expect(after.body).not.toContain(secret);

      // From now on: no e-mail, the app's code.
      const jobs = await mailJobCount();
      await totpLogin(email, secret);
      expect(await mailJobCount()).toBe(jobs);
    });

    it('needs a session to enrol', async () => {
      for (const url of ['/api/auth/totp/setup', '/api/auth/totp/confirm', '/api/auth/totp/disable']) {
        const response = await t.app.inject({
          method: 'POST',
          url,
          payload: { code: '123456' },
          remoteAddress: nextAddress(),
        });
        expect(response.statusCode).toBe(401);
      }
      expect((await get('/api/auth/second-factor')).statusCode).toBe(401);
    });

    it('accepts a code one step either side of now, never a code twice, nothing further off', async () => {
      const { email, secret } = await totpAdmin('window');
      const at = (offsetMs: number) => totpCode(secret, new Date(clock.now().getTime() + offsetMs));

      const tryCode = async (code: string) => {
        advance(2 * MINUTE); // a fresh step, later than any code accepted before
        const from = nextAddress();
        expect((await login(email, PASSWORD, from)).json()).toEqual(TOTP_NEEDED);
        const answer = await verifyOtp(email, code, from);
        return { answer, from };
      };

      for (const offset of [-30_000, 0, 30_000]) {
        advance(2 * MINUTE);
        const from = nextAddress();
        await login(email, PASSWORD, from);
        const code = at(offset);
        const first = await verifyOtp(email, code, from);
        expect(first.statusCode, `offset ${offset}: ${first.body}`).toBe(200);
        expect((await login(email, PASSWORD, from)).statusCode).toBe(200);
        // The same code again (a replay) is refused.
        await login(email, PASSWORD, from);
        expect((await verifyOtp(email, code, from)).json()).toEqual({ isSuccessful: false, message: 'Invalid code' });
      }
      for (const offset of [-90_000, 90_000]) {
        const code = at(offset + 2 * MINUTE);
        const { answer } = await tryCode(code);
        expect(answer.statusCode, `offset ${offset}`).toBe(400);
        expect(answer.json()).toEqual({ isSuccessful: false, message: 'Invalid code' });
      }
    }, 90_000);

    it('takes no code without the right password first', async () => {
      const { email, secret } = await totpAdmin('no.challenge');
      const response = await verifyOtp(email, totpCode(secret, clock.now()));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ isSuccessful: false, message: 'Ask for a code first.' });
      // A wrong password opens nothing either.
      const from = nextAddress();
      await login(email, 'not the password at all', from);
      expect((await verifyOtp(email, totpCode(secret, clock.now()), from)).json().message).toBe(
        'Ask for a code first.',
      );
    });

    it('a recovery code logs in once', async () => {
      const { email, recoveryCodes } = await totpAdmin('recovery');
      const recovery = recoveryCodes[3];
      const from = nextAddress();
      expect((await login(email, PASSWORD, from)).json()).toEqual(TOTP_NEEDED);
      expect((await verifyOtp(email, recovery.toUpperCase(), from)).statusCode).toBe(200);
      const token = (await login(email, PASSWORD, from)).json().access_token as string;
      expect((await me(token)).statusCode).toBe(200);
      expect((await get('/api/auth/second-factor', token)).json().data.recoveryCodesLeft).toBe(9);

      const again = nextAddress();
      expect((await login(email, PASSWORD, again)).statusCode).toBe(409);
      const reused = await verifyOtp(email, recovery, again);
      expect(reused.statusCode).toBe(400);
      expect(reused.json()).toEqual({ isSuccessful: false, message: 'Invalid code' });
      expect((await login(email, PASSWORD, again)).statusCode).toBe(409);
    });

    it('wrong codes count towards the source lockout', async () => {
      const { email, secret } = await totpAdmin('code.guesses');
      const from = nextAddress();
      expect((await login(email, PASSWORD, from)).statusCode).toBe(409);
      const right = totpCode(secret, clock.now());
      const wrong = right === '000000' ? '111111' : '000000';
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await verifyOtp(email, wrong, from)).statusCode);
      expect(statuses).toEqual([400, 400, 400, 400, 429]);
      expect((await verifyOtp(email, right, from)).statusCode).toBe(429);
      expect((await login(email, PASSWORD, from)).statusCode).toBe(429);
      advance(15 * MINUTE + 1_000);
    });

    it('limits code guesses per challenge and per account, whatever addresses they come from', async () => {
      const { email, secret } = await totpAdmin('many.addresses');
      const right = () => totpCode(secret, clock.now());
      const wrongCode = () => (right() === '000000' ? '111111' : '000000');
      const owner = nextAddress();
      expect((await login(email, PASSWORD, owner)).json()).toEqual(TOTP_NEEDED);
      // One right password, then 40 other addresses guess 5 codes each: the challenge takes 5.
      const messages: string[] = [];
      for (let source = 0; source < 40; source += 1) {
        const from = nextAddress();
        for (let guess = 0; guess < 5; guess += 1)
          messages.push((await verifyOtp(email, wrongCode(), from)).json().message);
      }
      expect(messages.slice(0, 5)).toEqual([
        'Invalid code',
        'Invalid code',
        'Invalid code',
        'Invalid code',
        // The fifth from one address also locks that address (the per-address lockout).
        'Too many attempts. Try again later.',
      ]);
      expect(new Set(messages.slice(5))).toEqual(new Set(['Ask for a code first.']));
      // The right code no longer works in that challenge: the password must come first again.
      expect((await verifyOtp(email, right(), owner)).json().message).toBe('Ask for a code first.');

      // Reopening the challenge from other addresses buys 5 more guesses at most: 10 a window.
      const second = nextAddress();
      await login(email, PASSWORD, second);
      for (let guess = 0; guess < 5; guess += 1) await verifyOtp(email, wrongCode(), nextAddress());
      const third = nextAddress();
      expect((await login(email, PASSWORD, third)).json()).toEqual(TOTP_NEEDED);
      const locked = await verifyOtp(email, right(), third);
      expect(locked.statusCode).toBe(429);
      expect(locked.json().message).toBe('Too many attempts. Try again later.');

      // Once the window has passed, the owner's password and code work again.
      advance(15 * MINUTE + 1_000);
      await totpLogin(email, secret);
    }, 90_000);

    it('counts parallel guesses: no more codes are checked than one challenge allows', async () => {
      const { email, secret } = await totpAdmin('parallel.guesses');
      const right = totpCode(secret, clock.now());
      const wrong = right === '000000' ? '111111' : '000000';
      expect((await login(email, PASSWORD, nextAddress())).json()).toEqual(TOTP_NEEDED);
      const replies = await Promise.all(Array.from({ length: 20 }, () => verifyOtp(email, wrong, nextAddress())));
      const messages = replies.map((reply) => reply.json<{ message: string }>().message);
      expect(
        messages.filter((message) => message !== 'Ask for a code first.'),
        messages.join('; '),
      ).toHaveLength(5);
      advance(15 * MINUTE + 1_000);
    });

    it('turns off with a current code, back to e-mailed codes; the operator can reset it', async () => {
      const { email, secret, recoveryCodes } = await totpAdmin('disable');
      const token = await totpLogin(email, secret);
      const wrong = await post('/api/auth/totp/disable', token, { code: 'zzzzz-zzzzz' });
      expect(wrong.statusCode).toBe(400);
      const off = await post('/api/auth/totp/disable', token, { code: recoveryCodes[0] });
      expect(off.statusCode, off.body).toBe(200);
      expect((await get('/api/auth/second-factor', token)).json().data.method).toBe('email');
      advance(61_000);
      expect((await login(email, PASSWORD)).json()).toEqual(EMAILED_CODE);

      const again = await totpAdmin('operator.reset');
      const sessionToken = await totpLogin(again.email, again.secret);
      const reset = await t.store.adminAuth.resetSecondFactor(again.email);
      expect(reset).toEqual({ email: again.email, revokedTokens: 1 });
      expect((await me(sessionToken)).statusCode).toBe(401);
      expect((await t.store.adminAuth.listAdmins()).find((a) => a.email === again.email)?.secondFactor).toBe('email');
      advance(61_000);
      expect((await login(again.email, PASSWORD)).json()).toEqual(EMAILED_CODE);
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
      const from = nextAddress();
      for (let i = 0; i < 5; i += 1) await login(email, 'wrong password', from);
      expect((await login(email, PASSWORD, from)).statusCode).toBe(429);

      const newPassword = 'a brand new passphrase';
      const result = await t.store.adminAuth.resetPassword(email.toUpperCase(), newPassword);
      expect(result).toEqual({ email, revokedTokens: 2 });
      for (const token of tokens) expect((await me(token)).statusCode).toBe(401);
      expect((await me(theirs)).statusCode).toBe(200);
      expect((await login(email, PASSWORD, from)).json()).toEqual(INVALID_LOGIN);
      expect((await login(email, newPassword, from)).json()).toEqual(EMAILED_CODE);
      expect((await me(await emailLogin(email, newPassword))).statusCode).toBe(200);
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
          role: 'owner',
          isVerified: false,
          lockedUntil: null,
          secondFactor: 'email',
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
