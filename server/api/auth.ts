import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMIN_MESSAGES, AdminAuthError, type AdminAuth } from '../../core/auth/admins.ts';
import {
  AdminLoginPayload,
  AdminLoginReply,
  AdminOtpPayload,
  AdminResendOtpPayload,
  LOGIN_FORM_MESSAGES,
  SecondFactorStatusReply,
  TotpCodePayload,
  TotpEnabledReply,
  TotpSetupReply,
} from '../../core/auth/contracts.ts';
import { ADMIN_ROLES } from '../../core/auth/roles.ts';
import { OWNER_AND_SUPPORT, bearerToken, requireAdmin } from './admin-guard.ts';
import { FailureSchema, envelopeOf, ok } from './envelope.ts';
import { specValidationErrors } from './spec-validation.ts';

/**
 * Admin login (spec "Admin login", sections 3 and 4): `POST /api/auth/login` answers the spec's
 * `{ isSuccessful, access_token, isVerified, status, message }`, with 409 while the login still
 * needs its second factor (decision 016: the e-mailed code, or TOTP / a recovery code, sent to
 * `verify-otp`; `resend-otp`), after which the same login answers 200; the token then goes in
 * `Authorization: Bearer …` (`me`, `logout` and every admin call, see admin-guard.ts). The
 * login and code calls are rate-limited per client on top of the per-account lockout and the
 * codes' own limits; no reply of these routes may be stored by any cache. The payloads are the
 * login page's form schemas (core/auth/contracts.ts): a refused one answers the spec's message
 * with each field's own in `errors`.
 */

const MessageReply = z.object({ isSuccessful: z.literal(true), message: z.string() });

interface AuthApiOptions {
  auth: AdminAuth;
}

const limit = (max: number) => ({ rateLimit: { max, timeWindow: '1 minute' } });

function retryAfter(reply: FastifyReply, ms: number | undefined): void {
  if (ms && ms > 0) reply.header('retry-after', String(Math.ceil(ms / 1000)));
}

export const authApi: FastifyPluginAsyncZod<AuthApiOptions> = async (app, { auth }) => {
  // Every admin, whatever the role, manages their own session and second factor.
  const adminOnly = requireAdmin((token) => auth.authenticate(token), OWNER_AND_SUPPORT);

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });
  app.setErrorHandler(specValidationErrors());

  // The login answers in its own reply shape, a refused payload too: one message for both fields.
  await app.register(async (scope: typeof app) => {
    scope.setErrorHandler(
      specValidationErrors({
        body: (_message, errors) => ({
          isSuccessful: false,
          status: 400,
          message: LOGIN_FORM_MESSAGES.loginRequired,
          errors,
        }),
      }),
    );
    scope.post(
      '/auth/login',
      {
        config: limit(10),
        schema: {
          tags: ['admin auth'],
          summary:
            'Admin login: 200 with a bearer token, 409 when the account still needs its e-mailed code, 401 bad e-mail or password, 429 locked out',
          body: AdminLoginPayload,
          response: {
            200: AdminLoginReply,
            400: AdminLoginReply,
            401: AdminLoginReply,
            409: AdminLoginReply,
            429: AdminLoginReply,
          },
        },
      },
      async (request, reply) => {
        const result = await auth.login(request.body.email, request.body.password, request.ip);
        reply.status(result.status);
        switch (result.status) {
          case 200:
            return {
              isSuccessful: true,
              status: 200,
              isVerified: true,
              access_token: result.access_token,
              expiresAt: result.expiresAt.toISOString(),
              message: result.message,
            };
          case 409:
            return {
              isSuccessful: false,
              status: 409,
              isVerified: false,
              secondFactor: result.secondFactor,
              message: result.message,
            };
          case 429:
            retryAfter(reply, result.retryAfterMs);
            return { isSuccessful: false, status: 429, message: result.message };
          default:
            return { isSuccessful: false, status: result.status, message: result.message };
        }
      },
    );
  });

  app.post(
    '/auth/verify-otp',
    {
      config: limit(10),
      schema: {
        tags: ['admin auth'],
        summary:
          "A login's second factor (the e-mailed code, a TOTP code or a recovery code); then the same login again returns the token",
        body: AdminOtpPayload,
        response: { 200: MessageReply, 400: FailureSchema, 429: FailureSchema },
      },
    },
    async (request, reply) => {
      try {
        await auth.verifyOtp(request.body.email, request.body.otp, request.ip);
      } catch (error) {
        if (error instanceof AdminAuthError) retryAfter(reply, error.retryAfterMs);
        throw error;
      }
      return { isSuccessful: true as const, message: ADMIN_MESSAGES.verified };
    },
  );

  app.post(
    '/auth/resend-otp',
    {
      config: limit(3),
      schema: {
        tags: ['admin auth'],
        summary:
          'E-mail a new code to an admin in the middle of a login (the same reply for any address); 429 while throttled',
        body: AdminResendOtpPayload,
        response: { 200: MessageReply, 400: FailureSchema, 429: FailureSchema },
      },
    },
    async (request, reply) => {
      try {
        const { message } = await auth.resendOtp(request.body.email);
        return { isSuccessful: true as const, message };
      } catch (error) {
        // A throttled request says when to come back; the error handler writes the body.
        if (error instanceof AdminAuthError) retryAfter(reply, error.retryAfterMs);
        throw error;
      }
    },
  );

  app.get(
    '/auth/logout',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['admin auth'],
        summary: 'Revoke the bearer token',
        response: { 200: MessageReply, 401: FailureSchema },
      },
    },
    async (request) => {
      await auth.logout(bearerToken(request) ?? '');
      return { isSuccessful: true as const, message: ADMIN_MESSAGES.loggedOut };
    },
  );

  app.get(
    '/auth/me',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['admin auth'],
        summary: "The bearer token's admin and role (the admin UI checks a stored token with it)",
        response: {
          200: envelopeOf(z.object({ email: z.string(), role: z.enum(ADMIN_ROLES) })),
          401: FailureSchema,
        },
      },
    },
    // The role decides what the admin navigation shows (the server enforces it on every call).
    (request) => ok({ email: request.admin!.email, role: request.admin!.role }),
  );

  // The admin's own second factor (the security page). Setting it up needs a live session; the
  // code-checking calls are rate-limited like the login's.
  app.get(
    '/auth/second-factor',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['admin auth'],
        summary:
          "The admin's second factor: e-mailed codes or TOTP, unused recovery codes, and whether TOTP can be set up here",
        response: { 200: envelopeOf(SecondFactorStatusReply), 401: FailureSchema },
      },
    },
    async (request) => ok(await auth.secondFactorStatus(request.admin!.adminId)),
  );

  app.post(
    '/auth/totp/setup',
    {
      onRequest: adminOnly,
      config: limit(10),
      schema: {
        tags: ['admin auth'],
        summary: 'Start a TOTP set-up: a new secret and otpauth URL, shown once (confirm with a code to enable)',
        // 409: no TOTP_ENCRYPTION_KEY in production (decision 022); the status says so beforehand.
        response: { 200: envelopeOf(TotpSetupReply), 401: FailureSchema, 409: FailureSchema, 429: FailureSchema },
      },
    },
    async (request) =>
      ok(await auth.startTotp(request.admin!.adminId, request.admin!.email), ADMIN_MESSAGES.totpStarted),
  );

  app.post(
    '/auth/totp/confirm',
    {
      onRequest: adminOnly,
      config: limit(10),
      schema: {
        tags: ['admin auth'],
        summary: 'Enable TOTP with a code from the authenticator app; answers the recovery codes, shown once',
        body: TotpCodePayload,
        response: {
          200: envelopeOf(TotpEnabledReply),
          400: FailureSchema,
          401: FailureSchema,
          409: FailureSchema,
          429: FailureSchema,
        },
      },
    },
    async (request) =>
      ok(await auth.confirmTotp(request.admin!.adminId, request.body.code), ADMIN_MESSAGES.totpEnabled),
  );

  app.post(
    '/auth/totp/disable',
    {
      onRequest: adminOnly,
      config: limit(10),
      schema: {
        tags: ['admin auth'],
        summary: 'Back to e-mailed codes; needs a current TOTP code or a recovery code',
        body: TotpCodePayload,
        response: { 200: MessageReply, 400: FailureSchema, 401: FailureSchema, 429: FailureSchema },
      },
    },
    async (request) => {
      await auth.disableTotp(request.admin!.adminId, request.body.code);
      return { isSuccessful: true as const, message: ADMIN_MESSAGES.totpDisabled };
    },
  );
};
