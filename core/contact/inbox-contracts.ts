/**
 * The admin inbox's requests and replies (decision 026), once: `server/api/admin-messages.ts`
 * declares them (validation and the OpenAPI document), core/contact/inbox.ts's types are inferred
 * from them, and the admin screens import those types. Browser-safe: no database or Node imports.
 */
import { z } from 'zod';
import { OrderDetailSchema } from '../admin/contracts.ts';
import { UNSAFE_TEXT_MESSAGE, hasUnsafeCharacters } from '../form-fields.ts';
import { idParam } from '../integer-columns.ts';

export const INBOX_STATUSES = ['new', 'handled'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];
/** The list's filter: one status, or every message. */
export const INBOX_FILTERS = ['all', ...INBOX_STATUSES] as const;
export type InboxFilter = (typeof INBOX_FILTERS)[number];

export const INBOX_DEFAULT_PAGE_SIZE = 20;
export const INBOX_MAX_PAGE_SIZE = 100;
export const INBOX_MAX_KEYWORD_LENGTH = 200;
/** The longest reply (after trimming): the same room the customer had (MAX_CONTACT_MESSAGE_LENGTH). */
export const MAX_REPLY_LENGTH = 5000;

export const INBOX_MESSAGES = {
  notFound: 'Message not found',
  badStatus: `status must be one of ${INBOX_FILTERS.join(', ')}`,
  badPage: 'page must be a whole number from 1',
  badSize: `size must be a whole number from 1 to ${INBOX_MAX_PAGE_SIZE}`,
  badKeyword: `keyword must be at most ${INBOX_MAX_KEYWORD_LENGTH} characters`,
  badId: 'The message id must be a whole positive number',
  replyRequired: 'Reply is required',
  replyTooLong: `Reply is too long (at most ${MAX_REPLY_LENGTH} characters)`,
  badMarkHandled: 'markHandled must be true or false',
  handled: 'Marked as handled',
  alreadyHandled: 'This message was already handled',
  reopened: 'Marked as new again',
  alreadyNew: 'This message is already new',
  replied: 'Reply sent',
} as const;

// ---------------------------------------------------------------------------------------------
// Requests

/** Browsers send empty fields: `?page=` is the default. */
const blankAsAbsent = (value: unknown) => (value === '' ? undefined : value);

export const InboxListQuerySchema = z.object({
  keyword: z
    .string({ error: INBOX_MESSAGES.badKeyword })
    .max(INBOX_MAX_KEYWORD_LENGTH, INBOX_MESSAGES.badKeyword)
    .optional(),
  status: z.preprocess(blankAsAbsent, z.enum(INBOX_FILTERS, { error: INBOX_MESSAGES.badStatus }).optional()),
  page: z.preprocess(
    blankAsAbsent,
    z.coerce
      .number({ error: INBOX_MESSAGES.badPage })
      .int(INBOX_MESSAGES.badPage)
      .min(1, INBOX_MESSAGES.badPage)
      .max(1_000_000, INBOX_MESSAGES.badPage)
      .optional(),
  ),
  size: z.preprocess(
    blankAsAbsent,
    z.coerce
      .number({ error: INBOX_MESSAGES.badSize })
      .int(INBOX_MESSAGES.badSize)
      .min(1, INBOX_MESSAGES.badSize)
      .max(INBOX_MAX_PAGE_SIZE, INBOX_MESSAGES.badSize)
      .optional(),
  ),
});

export const InboxMessageParamsSchema = z.object({
  id: idParam(INBOX_MESSAGES.badId),
});

/** `POST /api/admin/messages/:id/replies`. */
export const InboxReplyBodySchema = z.object({
  body: z
    .string({ error: INBOX_MESSAGES.replyRequired })
    .trim()
    .min(1, { error: INBOX_MESSAGES.replyRequired, abort: true })
    .max(MAX_REPLY_LENGTH, { error: INBOX_MESSAGES.replyTooLong, abort: true })
    .refine((value) => !hasUnsafeCharacters(value, { multiline: true }), { error: UNSAFE_TEXT_MESSAGE }),
  /** A reply marks the message handled unless this is false (decision 026). */
  markHandled: z.boolean({ error: INBOX_MESSAGES.badMarkHandled }).optional(),
});
export type InboxReplyBody = z.input<typeof InboxReplyBodySchema>;

// ---------------------------------------------------------------------------------------------
// Rows and replies

/** One row of the inbox list. */
export const InboxRowSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  /** The linked order's public id (no `order_`); null when the message is not linked. */
  orderId: z.string().nullable(),
  /** The message's first non-blank line, shortened. */
  preview: z.string(),
  status: z.enum(INBOX_STATUSES),
  /** ISO-8601. */
  createdAt: z.string(),
  /** When an admin first opened it; null: unread. */
  readAt: z.string().nullable(),
  replyCount: z.number().int(),
});
export type InboxRow = z.infer<typeof InboxRowSchema>;

export const InboxPageSchema = z.object({
  rows: z.array(InboxRowSchema),
  count: z.number().int(),
  totalPages: z.number().int(),
  currentPage: z.number().int(),
});
export type InboxPage = z.infer<typeof InboxPageSchema>;

/** `GET /api/admin/messages`: the envelope with the rows as `data` and the page's figures beside it (like all-orders). */
export const InboxListReplySchema = z
  .object({ isSuccessful: z.boolean(), message: z.string(), data: InboxPageSchema.shape.rows })
  .extend(InboxPageSchema.omit({ rows: true }).shape);
export type InboxListReply = z.infer<typeof InboxListReplySchema>;

export const InboxReplySchema = z.object({
  id: z.number().int(),
  body: z.string(),
  adminEmail: z.string(),
  createdAt: z.string(),
});
export type InboxReply = z.infer<typeof InboxReplySchema>;

/** The message's state after a change, and whether the server would take the next one. */
export const InboxStateSchema = z.object({
  id: z.number().int(),
  status: z.enum(INBOX_STATUSES),
  handledAt: z.string().nullable(),
  /** The server would accept "mark handled" now (the screen offers it only then). */
  canMarkHandled: z.boolean(),
  /** The server would accept "mark as new" now. */
  canReopen: z.boolean(),
});
export type InboxState = z.infer<typeof InboxStateSchema>;

/** `GET /api/admin/messages/:id`'s data. */
export const InboxMessageSchema = InboxStateSchema.extend({
  email: z.string(),
  /** Plain text as the customer typed it: shown escaped, line breaks kept. */
  message: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  /** The linked order (only an order of the sender's own address is ever linked): its facts and timeline. */
  order: OrderDetailSchema.pick({ order: true, timeline: true }).nullable(),
  /** Oldest first. */
  replies: z.array(InboxReplySchema),
});
export type InboxMessage = z.infer<typeof InboxMessageSchema>;

/** A state change's data: the state after it, and whether this call changed it (a repeat is a no-op). */
export const InboxTransitionSchema = InboxStateSchema.extend({ changed: z.boolean() });
export type InboxTransition = z.infer<typeof InboxTransitionSchema>;

/** `POST /api/admin/messages/:id/replies`'s data (HTTP 201). */
export const InboxReplyCreatedSchema = z.object({ reply: InboxReplySchema, state: InboxStateSchema });
export type InboxReplyCreated = z.infer<typeof InboxReplyCreatedSchema>;

export const InboxUnreadCountSchema = z.object({ count: z.number().int() });
