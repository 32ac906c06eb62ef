/**
 * The order form's check in the browser, without zod (decision 037): `orderFormSchema`'s rules
 * and messages (./validation.ts, which order creation still applies) in plain code;
 * tests/unit/form-checks.test.ts holds the two to the same verdict. Browser-safe.
 */
import type { TargetKind } from '../catalogue/types.ts';
import {
  type FormCheck,
  acceptedEmail,
  checkResult,
  requiredEmailError,
  requiredTextError,
  safeTextError,
} from '../form-check.ts';

export const ORDER_FORM_MESSAGES = {
  nameRequired: 'Name is required',
  youtubeRequired: 'YouTube URL is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email format',
  commentRequired: 'Comments is required',
} as const;

/** The longest comment taken on a service whose comment is optional. */
export const MAX_ORDER_COMMENT_LENGTH = 5000;

export interface OrderFormRules {
  targetKind: TargetKind;
  commentRequired: boolean;
}

export type OrderFormCheckField = 'name' | 'email' | 'comment';

/** What the buyer typed; an empty comment counts as none (the form sends no empty fields). */
export interface OrderFormInput {
  name: string;
  email: string;
  comment: string;
}

/** The sendable values, as the schema gives them: target trimmed, e-mail normalised. */
export interface CheckedOrderForm {
  name: string;
  email: string;
  comment?: string | undefined;
}

export function checkOrderForm(
  input: OrderFormInput,
  rules: OrderFormRules,
): FormCheck<OrderFormCheckField, CheckedOrderForm> {
  const nameMessage =
    rules.targetKind === 'youtube_video_url' ? ORDER_FORM_MESSAGES.youtubeRequired : ORDER_FORM_MESSAGES.nameRequired;
  const commentProblem = rules.commentRequired
    ? requiredTextError(input.comment, ORDER_FORM_MESSAGES.commentRequired, { multiline: true })
    : input.comment === ''
      ? undefined
      : safeTextError(input.comment, MAX_ORDER_COMMENT_LENGTH, { multiline: true });
  return checkResult(
    [
      ['name', requiredTextError(input.name, nameMessage)],
      [
        'email',
        requiredEmailError(input.email, {
          required: ORDER_FORM_MESSAGES.emailRequired,
          invalid: ORDER_FORM_MESSAGES.emailInvalid,
        }),
      ],
      ['comment', commentProblem],
    ],
    () => ({
      name: input.name.trim(),
      email: acceptedEmail(input.email),
      ...(rules.commentRequired
        ? { comment: input.comment.trim() }
        : input.comment === ''
          ? {}
          : { comment: input.comment }),
    }),
  );
}
