/** The spec's generic response: `{ isSuccessful, message, data }` (section 3). */
import { z } from 'zod';

/** One refused input: `field` is the payload path joined with '.' ('email', 'items.0.qty'; '' for the whole payload). */
export const FieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldErrorSchema>;

export function ok<T>(data: T, message = 'Success') {
  return { isSuccessful: true as const, message, data };
}

/** A refusal; `errors` names the fields at fault, so a form can show each message at its field. */
export function failure(message: string, errors?: readonly FieldError[]) {
  return { isSuccessful: false as const, message, ...(errors && errors.length > 0 ? { errors: [...errors] } : {}) };
}

export const FailureSchema = z.object({
  isSuccessful: z.literal(false),
  message: z.string(),
  errors: z.array(FieldErrorSchema).optional().describe('Per-field validation errors, when the input was refused'),
});

export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ isSuccessful: z.boolean(), message: z.string(), data });
}
