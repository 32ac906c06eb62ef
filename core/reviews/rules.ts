/**
 * The review form's limits and words (decision 039), without zod, so the review page's check in
 * the browser (./form-check.ts) and the API's schema (./contracts.ts) read the same ones.
 * Browser-safe.
 */

export const REVIEW_MIN_RATING = 1;
export const REVIEW_MAX_RATING = 5;
/** After trimming. */
export const REVIEW_TEXT_MIN_LENGTH = 10;
export const REVIEW_TEXT_MAX_LENGTH = 1000;
export const REVIEW_NAME_MAX_LENGTH = 40;
/** The link's token: 32 random bytes, base64url (43 characters). Anything else is not one of ours. */
export const REVIEW_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const REVIEW_FORM_MESSAGES = {
  ratingRequired: 'Choose a rating from 1 to 5 stars',
  textRequired: 'Please write a few words about your order',
  textTooShort: `Your review needs at least ${REVIEW_TEXT_MIN_LENGTH} characters`,
  textTooLong: `Your review can have at most ${REVIEW_TEXT_MAX_LENGTH} characters`,
  nameRequired: 'Please enter a first name or a nickname',
  nameTooLong: `The name can have at most ${REVIEW_NAME_MAX_LENGTH} characters`,
  tokenInvalid: 'This review link is not valid',
} as const;

/** The reply to a review sent. */
export const REVIEW_SENT_MESSAGE =
  'Thank you! Your review was sent. It appears on our site once our team has checked it.';

/** Why a review link cannot be used (the page and the API's refusal), none of it the customer's fault. */
export const REVIEW_LINK_MESSAGES = {
  unknown: 'We could not find this review link. It may have been copied incompletely.',
  used: 'A review was already sent with this link. Each order can be reviewed once.',
  expired: 'This review link has expired. Review links work for 60 days after the order is completed.',
} as const;
export type ReviewLinkProblem = keyof typeof REVIEW_LINK_MESSAGES;
