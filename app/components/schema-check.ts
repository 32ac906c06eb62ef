import type { z } from 'zod';
import type { FormCheck } from '../../core/form-check.ts';

/**
 * A form check straight from an API's zod schema (decision 052), for the forms whose page may load
 * zod: the admin's and the lazy billing step's. The same shape as the plain checks of the public
 * pages: the parsed value, or each field's first message, the field named by its path joined with
 * '.' ("plans.0.tiers.2.price") as the API names it in `errors: [{ field, message }]`.
 */
export function schemaCheck<Schema extends z.ZodType>(
  schema: Schema,
  input: unknown,
): FormCheck<string, z.output<Schema>> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const errors: Partial<Record<string, string>> = {};
  for (const issue of result.error.issues) errors[issue.path.map(String).join('.')] ??= issue.message;
  return { ok: false, errors };
}
