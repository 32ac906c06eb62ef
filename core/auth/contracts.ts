/**
 * The admin login API's payloads and reply, once (spec "Admin login", sections 3 and 4): the
 * routes in server/api/auth.ts declare them, the login page validates with them, and the types
 * are inferred from them. Browser-safe: no Node or database imports.
 */
import { z } from 'zod';
import { oneTimeCodeField, requiredEmail, requiredText } from '../form-fields.ts';

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

/** `POST /api/auth/verify-otp`: the code e-mailed at an unverified admin's first login. */
export const AdminOtpPayload = z.object({
  email: AdminEmail,
  otp: oneTimeCodeField({ required: LOGIN_FORM_MESSAGES.codeRequired, format: LOGIN_FORM_MESSAGES.codeFormat }),
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
  /** ISO-8601: when the token stops working (12 hours after the login). */
  expiresAt: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type AdminLoginReply = z.infer<typeof AdminLoginReply>;
