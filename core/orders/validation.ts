/**
 * Order form rules of spec section 5: one zod schema, applied by order creation after it has
 * found the package (the rules depend on the service: a YouTube target has its own "required"
 * message, and only some services take comments). The browser checks the same rules in plain
 * code (./form-check.ts, decision 037).
 */
import { z } from 'zod';
import { requiredEmail, requiredText, safeText } from '../form-fields.ts';

// The messages and the rules' shape live in the zod-free ./form-check.ts, which the browser uses (decision 037).
import { ORDER_FORM_MESSAGES, type OrderFormRules } from './form-check.ts';

export { ORDER_FORM_MESSAGES, type OrderFormRules } from './form-check.ts';

/** The buyer's part of the order payload, for one package's rules. */
export function orderFormSchema(rules: OrderFormRules) {
  return z.object({
    name: requiredText(
      rules.targetKind === 'youtube_video_url' ? ORDER_FORM_MESSAGES.youtubeRequired : ORDER_FORM_MESSAGES.nameRequired,
    ),
    email: requiredEmail({ required: ORDER_FORM_MESSAGES.emailRequired, invalid: ORDER_FORM_MESSAGES.emailInvalid }),
    // The comment is a textarea: it may hold line breaks and tabs.
    comment: rules.commentRequired
      ? requiredText(ORDER_FORM_MESSAGES.commentRequired, { multiline: true })
      : safeText(5000, { multiline: true }).optional(),
  });
}

/** What the buyer typed (the comment only on services that take comments). */
export interface OrderFormValues {
  name: string;
  email: string;
  comment?: string | undefined;
}
export type OrderFormField = keyof OrderFormValues;
export type OrderFormErrors = Partial<Record<OrderFormField, string>>;

const ORDER_FORM_FIELDS: readonly OrderFormField[] = ['name', 'email', 'comment'];
const isOrderFormField = (value: unknown): value is OrderFormField =>
  ORDER_FORM_FIELDS.includes(value as OrderFormField);

/** Every field's first error; empty when the form may be sent. */
export function validateOrderForm(values: OrderFormValues, rules: OrderFormRules): OrderFormErrors {
  const result = orderFormSchema(rules).safeParse(values);
  const errors: OrderFormErrors = {};
  for (const issue of result.error?.issues ?? []) {
    const [field] = issue.path;
    if (isOrderFormField(field)) errors[field] ??= issue.message;
  }
  return errors;
}

/** The first field at fault, in the form's order, with its message. */
export function firstOrderFormError(errors: OrderFormErrors): { field: OrderFormField; message: string } | null {
  for (const field of ORDER_FORM_FIELDS) {
    const message = errors[field];
    if (message) return { field, message };
  }
  return null;
}
