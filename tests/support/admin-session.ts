/**
 * A bearer token for an admin through the real login (decision 016: a second factor on every
 * login), for suites that need an admin session but test something else: the admin is marked
 * verified, enrolled in TOTP through the store, and logs in over HTTP with one of its recovery
 * codes as the second factor (no mail, no waiting for the next TOTP step).
 */
import { expect } from 'vitest';
import { totpCode } from './totp.ts';
import type { TestApp } from './app.ts';

export async function adminToken(
  t: TestApp,
  credentials: { email: string; password: string },
  remoteAddress: string,
  now: () => Date = () => new Date(),
): Promise<string> {
  const { email, password } = credentials;
  const admin = await t.database.db
    .selectFrom('admins')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  await t.database.db.updateTable('admins').set({ is_verified: 1 }).where('id', '=', admin.id).execute();
  const { secret } = await t.store.adminAuth.startTotp(admin.id, email);
  const { recoveryCodes } = await t.store.adminAuth.confirmTotp(admin.id, totpCode(secret, now()));

  const login = () =>
    t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress });
  const challenged = await login();
  expect(challenged.statusCode, challenged.body).toBe(409);
  const verified = await t.app.inject({
    method: 'POST',
    url: '/api/auth/verify-otp',
    payload: { email, otp: recoveryCodes[0] },
    remoteAddress,
  });
  expect(verified.statusCode, verified.body).toBe(200);
  const loggedIn = await login();
  expect(loggedIn.statusCode, loggedIn.body).toBe(200);
  return loggedIn.json<{ access_token: string }>().access_token;
}
