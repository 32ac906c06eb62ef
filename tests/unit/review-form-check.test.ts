import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReviewPayload } from '../../core/reviews/contracts.ts';
import { type ReviewFieldName, type ReviewFormValues, checkReviewForm } from '../../core/reviews/form-check.ts';
import { REVIEW_FORM_MESSAGES } from '../../core/reviews/rules.ts';
import { UNSAFE_TEXT_MESSAGE } from '../../core/form-fields.ts';
import { aroundLimit, schemaVerdict, textOf } from '../support/form-check.ts';

/**
 * The review page checks its form in the browser without zod (core/reviews/form-check.ts,
 * decision 036); `POST /api/reviews` checks it with `ReviewPayload`. These tests hold the two to
 * the same verdict, the same first message per field and the same payload, on hand-picked and
 * generated input.
 */

const FIELDS: (ReviewFieldName | 'token')[] = ['token', 'rating', 'text', 'name'];
const TOKEN = 'A'.repeat(43);

function schemaVerdictOf(values: ReviewFormValues) {
  const verdict = schemaVerdict(ReviewPayload, values, FIELDS);
  if (!verdict.ok) return verdict;
  return { ok: true as const, errors: {}, rating: ReviewPayload.parse(values).rating };
}

function browserVerdict(values: ReviewFormValues) {
  const check = checkReviewForm(values);
  if (!check.ok) return { ok: false as const, errors: check.errors };
  // What the page sends is what the schema accepts, with the same rating.
  const parsed = ReviewPayload.parse(check.payload);
  return { ok: true as const, errors: {}, rating: parsed.rating };
}

const form = (values: Partial<ReviewFormValues>): ReviewFormValues => ({
  token: TOKEN,
  rating: '',
  text: '',
  name: '',
  ...values,
});

describe('review form check in the browser', () => {
  it('gives the form messages for the cases the page shows', () => {
    expect(checkReviewForm(form({}))).toEqual({
      ok: false,
      errors: {
        rating: REVIEW_FORM_MESSAGES.ratingRequired,
        text: REVIEW_FORM_MESSAGES.textRequired,
        name: REVIEW_FORM_MESSAGES.nameRequired,
      },
    });
    expect(checkReviewForm(form({ rating: '6', text: '  too short ', name: 'x'.repeat(41) }))).toEqual({
      ok: false,
      errors: {
        rating: REVIEW_FORM_MESSAGES.ratingRequired,
        text: REVIEW_FORM_MESSAGES.textTooShort,
        name: REVIEW_FORM_MESSAGES.nameTooLong,
      },
    });
    expect(checkReviewForm(form({ rating: '5', text: 'y'.repeat(1001), name: 'Ann\nB' }))).toEqual({
      ok: false,
      errors: { text: REVIEW_FORM_MESSAGES.textTooLong, name: UNSAFE_TEXT_MESSAGE },
    });
    expect(checkReviewForm(form({ rating: '4', text: 'Fast delivery,\nthanks!', name: ' Maya ' }))).toEqual({
      ok: true,
      payload: { token: TOKEN, rating: 4, text: 'Fast delivery,\nthanks!', name: ' Maya ' },
    });
    // The server trims what the page sends as typed.
    expect(ReviewPayload.parse({ token: TOKEN, rating: 4, text: ' Fast delivery! ', name: ' Maya ' })).toMatchObject({
      text: 'Fast delivery!',
      name: 'Maya',
    });
  });

  it('agrees with the API schema on every generated form', () => {
    const pieces = ['a', 'Z', '0', '5', '.', ' ', '\n', '\t', '\r', '\u0000', '\u202E', '\u007F', 'é', '🙂', 'great'];
    const text = textOf(pieces, 14);
    const around = aroundLimit;
    const rating = fc.oneof(
      fc.constantFrom('', '0', '1', '2', '3', '4', '5', '6', ' 3', '3 ', '4.0', '1e0', '0x3', '-1', 'five'),
      fc.string({ maxLength: 3 }),
    );
    const token = fc.oneof(fc.constant(TOKEN), fc.constant(''), fc.string({ maxLength: 3 }), around(200));
    fc.assert(
      fc.property(
        token,
        rating,
        fc.oneof(text, around(10), around(1000)),
        fc.oneof(text, around(40)),
        (tokenValue, ratingValue, textValue, nameValue) => {
          const values = form({ token: tokenValue, rating: ratingValue, text: textValue, name: nameValue });
          expect(browserVerdict(values)).toEqual(schemaVerdictOf(values));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
