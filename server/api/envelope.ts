/** The spec's generic response: `{ isSuccessful, message, data }` (section 3). */
import { z } from 'zod';

export function ok<T>(data: T, message = 'Success') {
  return { isSuccessful: true as const, message, data };
}

export function failure(message: string) {
  return { isSuccessful: false as const, message };
}

export const FailureSchema = z.object({ isSuccessful: z.literal(false), message: z.string() });

export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ isSuccessful: z.boolean(), message: z.string(), data });
}
