/**
 * The review form's check in the browser, without zod (decision 036: the review page keeps to
 * the 120 KB first-load budget). The same rules, messages and order as `ReviewPayload` in
 * ./contracts.ts, which the API still applies: tests/unit/review-form-check.test.ts compares the
 * two on generated input, so they cannot drift apart. Browser-safe.
 */
import { UNSAFE_TEXT_MESSAGE, hasUnsafeCharacters } from '../text-rules.ts';
import type { ReviewPayloadInput } from './contracts.ts';
import {
  REVIEW_FORM_MESSAGES,
  REVIEW_NAME_MAX_LENGTH,
  REVIEW_TEXT_MAX_LENGTH,
  REVIEW_TEXT_MIN_LENGTH,
} from './rules.ts';

export type ReviewFieldName = 'rating' | 'text' | 'name';

/** What the form holds: each field's text as typed (an unchosen rating reads as empty). */
export type ReviewFormValues = Readonly<Record<ReviewFieldName | 'token', string>>;

type ReviewFormCheck =
  | { ok: true; payload: ReviewPayloadInput & { rating: number } }
  | { ok: false; errors: Partial<Record<ReviewFieldName | 'token', string>> };

/** Characters as zod counts them (code points): an emoji is one, not two UTF-16 units. */
const lengthOf = (value: string) => [...value].length;

function tokenError(value: string): string | undefined {
  return lengthOf(value) >= 1 && lengthOf(value) <= 200 ? undefined : REVIEW_FORM_MESSAGES.tokenInvalid;
}

function ratingError(value: string): string | undefined {
  return /^[1-5]$/.test(value) ? undefined : REVIEW_FORM_MESSAGES.ratingRequired;
}

function textError(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return REVIEW_FORM_MESSAGES.textRequired;
  if (hasUnsafeCharacters(trimmed, { multiline: true })) return UNSAFE_TEXT_MESSAGE;
  if (lengthOf(trimmed) < REVIEW_TEXT_MIN_LENGTH) return REVIEW_FORM_MESSAGES.textTooShort;
  return lengthOf(trimmed) > REVIEW_TEXT_MAX_LENGTH ? REVIEW_FORM_MESSAGES.textTooLong : undefined;
}

function nameError(value: string): string | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return REVIEW_FORM_MESSAGES.nameRequired;
  if (hasUnsafeCharacters(trimmed)) return UNSAFE_TEXT_MESSAGE;
  return lengthOf(trimmed) > REVIEW_NAME_MAX_LENGTH ? REVIEW_FORM_MESSAGES.nameTooLong : undefined;
}

/**
 * Each field's first problem, as `ReviewPayload` words it; when there is none, the payload to
 * send (the text and name as typed: the server trims them the same way).
 */
export function checkReviewForm(values: ReviewFormValues): ReviewFormCheck {
  const errors: Partial<Record<ReviewFieldName | 'token', string>> = {};
  const found = {
    token: tokenError(values.token),
    rating: ratingError(values.rating),
    text: textError(values.text),
    name: nameError(values.name),
  };
  for (const [field, message] of Object.entries(found) as [ReviewFieldName | 'token', string | undefined][]) {
    if (message) errors[field] = message;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    payload: { token: values.token, rating: Number(values.rating), text: values.text, name: values.name },
  };
}
