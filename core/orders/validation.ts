/** Order form rules of spec section 5, shared by the browser form and order creation. */
import type { TargetKind } from '../catalog/types.ts';

export const ORDER_FORM_MESSAGES = {
  nameRequired: 'Name is required',
  youtubeRequired: 'YouTube URL is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email format',
  commentRequired: 'Comments is required',
} as const;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

export interface OrderFormValues {
  name: string;
  email: string;
  comment?: string;
}

export type OrderFormErrors = Partial<Record<keyof OrderFormValues, string>>;

/** Every field's first error; empty when the form may be sent. */
export function validateOrderForm(
  values: OrderFormValues,
  rules: { targetKind: TargetKind; commentRequired: boolean },
): OrderFormErrors {
  const errors: OrderFormErrors = {};
  if (!values.name.trim()) {
    errors.name =
      rules.targetKind === 'youtube_video_url' ? ORDER_FORM_MESSAGES.youtubeRequired : ORDER_FORM_MESSAGES.nameRequired;
  }
  const email = values.email.trim();
  if (!email) errors.email = ORDER_FORM_MESSAGES.emailRequired;
  else if (!isEmail(email)) errors.email = ORDER_FORM_MESSAGES.emailInvalid;
  if (rules.commentRequired && !values.comment?.trim()) errors.comment = ORDER_FORM_MESSAGES.commentRequired;
  return errors;
}
