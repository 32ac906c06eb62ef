/**
 * Reviews' requests and replies (decision 039), once: the public API (`server/api/reviews.ts`)
 * and the admin API (`server/api/admin-reviews.ts`) declare them (validation and the OpenAPI
 * document), and the pages import the types. The review page checks its form in the browser with
 * the same rules without zod (./form-check.ts, decision 036). Browser-safe.
 */
import { z } from 'zod';
import { requiredText } from '../form-fields.ts';
import {
  REVIEW_FORM_MESSAGES,
  REVIEW_MAX_RATING,
  REVIEW_MIN_RATING,
  REVIEW_NAME_MAX_LENGTH,
  REVIEW_TEXT_MAX_LENGTH,
  REVIEW_TEXT_MIN_LENGTH,
} from './rules.ts';
import { idParam } from '../integer-columns.ts';

// ---------------------------------------------------------------------------------------------
// The public form

/** A form sends "4"; a JSON client 4. Anything else (including "4.0" or " 4") is refused. */
const ratingFromForm = (value: unknown) => (typeof value === 'string' && /^[1-5]$/.test(value) ? Number(value) : value);

export const ReviewPayload = z.object({
  token: z
    .string({ error: REVIEW_FORM_MESSAGES.tokenInvalid })
    .min(1, REVIEW_FORM_MESSAGES.tokenInvalid)
    .max(200, REVIEW_FORM_MESSAGES.tokenInvalid),
  rating: z.preprocess(
    ratingFromForm,
    z
      .number({ error: REVIEW_FORM_MESSAGES.ratingRequired })
      .int(REVIEW_FORM_MESSAGES.ratingRequired)
      .min(REVIEW_MIN_RATING, REVIEW_FORM_MESSAGES.ratingRequired)
      .max(REVIEW_MAX_RATING, REVIEW_FORM_MESSAGES.ratingRequired),
  ),
  text: requiredText(REVIEW_FORM_MESSAGES.textRequired, { multiline: true })
    .min(REVIEW_TEXT_MIN_LENGTH, REVIEW_FORM_MESSAGES.textTooShort)
    .max(REVIEW_TEXT_MAX_LENGTH, REVIEW_FORM_MESSAGES.textTooLong),
  name: requiredText(REVIEW_FORM_MESSAGES.nameRequired).max(REVIEW_NAME_MAX_LENGTH, REVIEW_FORM_MESSAGES.nameTooLong),
});
export type ReviewPayloadInput = z.input<typeof ReviewPayload>;
export type ReviewInput = z.output<typeof ReviewPayload>;

export const ReviewSentSchema = z.object({ isSuccessful: z.literal(true), message: z.string() });

// ---------------------------------------------------------------------------------------------
// Moderation

export const REVIEW_STATES = ['pending', 'approved', 'rejected'] as const;
export type ReviewStateName = (typeof REVIEW_STATES)[number];
export const REVIEW_FILTERS = ['all', ...REVIEW_STATES] as const;
export type ReviewFilter = (typeof REVIEW_FILTERS)[number];

export const REVIEWS_DEFAULT_PAGE_SIZE = 20;
const REVIEWS_MAX_PAGE_SIZE = 100;

export const ADMIN_REVIEW_MESSAGES = {
  notFound: 'Review not found',
  badId: 'The review id must be a whole positive number',
  badStatus: `status must be one of ${REVIEW_FILTERS.join(', ')}`,
  badPage: 'page must be a whole number from 1',
  badSize: `size must be a whole number from 1 to ${REVIEWS_MAX_PAGE_SIZE}`,
  approved: 'Review approved: it is shown on the site',
  alreadyApproved: 'This review was already approved',
  rejected: 'Review rejected: it is not shown on the site',
  alreadyRejected: 'This review was already rejected',
} as const;

const blankAsAbsent = (value: unknown) => (value === '' ? undefined : value);

export const ReviewListQuerySchema = z.object({
  status: z.preprocess(blankAsAbsent, z.enum(REVIEW_FILTERS, { error: ADMIN_REVIEW_MESSAGES.badStatus }).optional()),
  page: z.preprocess(
    blankAsAbsent,
    z.coerce
      .number({ error: ADMIN_REVIEW_MESSAGES.badPage })
      .int(ADMIN_REVIEW_MESSAGES.badPage)
      .min(1, ADMIN_REVIEW_MESSAGES.badPage)
      .max(1_000_000, ADMIN_REVIEW_MESSAGES.badPage)
      .optional(),
  ),
  size: z.preprocess(
    blankAsAbsent,
    z.coerce
      .number({ error: ADMIN_REVIEW_MESSAGES.badSize })
      .int(ADMIN_REVIEW_MESSAGES.badSize)
      .min(1, ADMIN_REVIEW_MESSAGES.badSize)
      .max(REVIEWS_MAX_PAGE_SIZE, ADMIN_REVIEW_MESSAGES.badSize)
      .optional(),
  ),
});
export type ReviewListQuery = z.output<typeof ReviewListQuerySchema>;

export const ReviewIdParamsSchema = z.object({
  id: idParam(ADMIN_REVIEW_MESSAGES.badId),
});

export const AdminReviewRowSchema = z.object({
  id: z.number().int(),
  rating: z.number().int(),
  /** Plain text as the customer wrote it: shown as text, never as HTML. */
  text: z.string(),
  name: z.string(),
  state: z.enum(REVIEW_STATES),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  /** The order's public id: the link to its admin page. */
  orderId: z.string(),
  serviceName: z.string(),
  quantity: z.number().int(),
});
export type AdminReviewRow = z.infer<typeof AdminReviewRowSchema>;

export const AdminReviewListReplySchema = z.object({
  isSuccessful: z.literal(true),
  message: z.string(),
  data: z.array(AdminReviewRowSchema),
  count: z.number().int(),
  totalPages: z.number().int(),
  currentPage: z.number().int(),
});
export type AdminReviewListReply = z.infer<typeof AdminReviewListReplySchema>;

export const ReviewPendingCountSchema = z.object({ count: z.number().int() });

export const ReviewDecisionSchema = z.object({
  id: z.number().int(),
  state: z.enum(REVIEW_STATES),
  /** False when the review was already in that state (a double click, another admin). */
  changed: z.boolean(),
});
export type ReviewDecision = z.infer<typeof ReviewDecisionSchema>;
