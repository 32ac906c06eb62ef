/**
 * The admin login API's payloads and reply, once (spec "Admin login", sections 3 and 4): the
 * routes in server/api/auth.ts declare them, the login page validates with them, and the types
 * are inferred from them. Browser-safe: no Node or database imports.
 */
import { z } from 'zod';
import { requiredEmail, requiredText } from '../form-fields.ts';

export const LOGIN_FORM_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email',
  passwordRequired: 'Password is required',
  codeRequired: 'Code is required',
  codeFormat: 'The code has 6 digits',
  /** The login route's one message for a payload missing either (the spec's wording). */
  loginRequired: 'Email and password are required',
} as const;

/**
 * `POST /api/auth/login`. Only presence is checked here: an address that is not an e-mail is
 * an unknown account (401), never a hint about which accounts exist.
 */
export const AdminLoginPayload = z.object({
  email: requiredText(LOGIN_FORM_MESSAGES.emailRequired).pipe(z.string().max(1000)),
  password: z
    .string({ error: LOGIN_FORM_MESSAGES.passwordRequired })
    .min(1, { error: LOGIN_FORM_MESSAGES.passwordRequired, abort: true })
    .max(4096),
});
export type AdminLoginPayload = z.input<typeof AdminLoginPayload>;

const AdminEmail = requiredEmail({
  required: LOGIN_FORM_MESSAGES.emailRequired,
  invalid: LOGIN_FORM_MESSAGES.emailInvalid,
});

/**
 * The second factor's code: 6 digits (e-mailed or from an authenticator app), or a recovery code
 * (`xxxxx-xxxxx`, case and spaces ignored).
 */
const SecondFactorCode = z
  .union([z.string().max(100), z.number()], { error: LOGIN_FORM_MESSAGES.codeRequired })
  .transform((value) => String(value).replace(/\s+/g, ''))
  .pipe(
    requiredText(LOGIN_FORM_MESSAGES.codeRequired).regex(/^(?:\d{6}|[A-Za-z0-9]{5}-?[A-Za-z0-9]{5})$/, {
      error: LOGIN_FORM_MESSAGES.codeFormat,
    }),
  );

/** `POST /api/auth/verify-otp`: the second factor of a login (e-mailed code, TOTP or recovery code). */
export const AdminOtpPayload = z.object({
  email: AdminEmail,
  otp: SecondFactorCode,
});
export type AdminOtpPayload = z.input<typeof AdminOtpPayload>;

/** `POST /api/auth/resend-otp`. */
export const AdminResendOtpPayload = z.object({ email: AdminEmail });
export type AdminResendOtpPayload = z.input<typeof AdminResendOtpPayload>;

/** One shape for every login reply, so the client reads `status` and `isVerified` alike. */
export const AdminLoginReply = z.object({
  isSuccessful: z.boolean(),
  message: z.string(),
  status: z.number().int().optional(),
  isVerified: z.boolean().optional(),
  access_token: z.string().optional(),
  /** With 409: what the OTP step asks for, the e-mailed code or the authenticator app's. */
  secondFactor: z.enum(['email', 'totp']).optional(),
  /** ISO-8601: when the token stops working (12 hours after the login). */
  expiresAt: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type AdminLoginReply = z.infer<typeof AdminLoginReply>;

/** `POST /api/auth/totp/confirm` and `/api/auth/totp/disable` (the admin's security page). */
export const TotpCodePayload = z.object({ code: SecondFactorCode });
export type TotpCodePayload = z.input<typeof TotpCodePayload>;

/** The security page's view of the admin's second factor. */
export const SecondFactorStatusReply = z.object({
  method: z.enum(['email', 'totp']),
  recoveryCodesLeft: z.number().int(),
  totpEnabledAt: z.string().nullable(),
  /** Whether this server can enrol the admin in TOTP, and if not why (decision 022: no key set). */
  totpSetup: z.object({ available: z.boolean(), reason: z.string().nullable() }),
});
export type SecondFactorStatusReply = z.infer<typeof SecondFactorStatusReply>;

/** A TOTP set-up: the secret and the otpauth URL, shown once. */
export const TotpSetupReply = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TotpSetupReply = z.infer<typeof TotpSetupReply>;

/** TOTP enabled: the recovery codes, shown once. */
export const TotpEnabledReply = z.object({ recoveryCodes: z.array(z.string()) });
export type TotpEnabledReply = z.infer<typeof TotpEnabledReply>;
