/**
 * The admin inbox over the contact messages (decision 026): the list (keyword search, status
 * filter, pages), the unread count the admin navigation shows, one message with its replies and
 * the linked order's facts and timeline, "mark handled" / "mark as new", and replies.
 *
 * Rules that live here:
 * - Unread means no admin has opened the message (`read_at` is null); opening marks it read, once.
 * - Status changes are compare-and-set transitions (new → handled, handled → new): of two
 *   concurrent calls one changes the row and the other is a no-op that reports `changed: false`.
 * - A reply is stored and its e-mail to the customer enqueued (jobs outbox, one per reply id) in
 *   one transaction; it marks the message handled unless the admin unticks that, and marks it read.
 * - The linked order's facts and timeline come from the admin order detail (core/admin/order-detail.ts).
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { loadOrderDetail } from '../admin/order-detail.ts';
import type { AuditChange, AuditSink } from '../audit/audit.ts';
import { type Clock, systemClock } from '../clock.ts';
import { enqueueMail } from '../mail/send-mail-job.ts';
import { publicOrderId } from '../orders/types.ts';
import {
  INBOX_DEFAULT_PAGE_SIZE,
  INBOX_MAX_KEYWORD_LENGTH,
  INBOX_MAX_PAGE_SIZE,
  INBOX_MESSAGES,
  type InboxFilter,
  type InboxMessage,
  type InboxPage,
  type InboxReply,
  type InboxReplyCreated,
  type InboxRow,
  type InboxState,
  type InboxStatus,
  type InboxTransition,
} from './inbox-contracts.ts';
import { renderInboxReply } from './inbox-mails.ts';
import { foldForSearch } from './inbox-search-text.ts';

/** How much of the first line a list row shows. */
const PREVIEW_LENGTH = 120;

/** A refusal the API answers with its status and message (the app's error handler reads `expose`). */
class InboxError extends Error {
  readonly expose = true;
  constructor(
    message: string,
    readonly statusCode: 404,
  ) {
    super(message);
    this.name = 'InboxError';
  }
}

export interface InboxAdmin {
  adminId: number;
  email: string;
}

interface ContactInboxOptions {
  db: Kysely<Database>;
  /** Links in the reply e-mail. */
  publicUrl: string;
  /** Reply-To of the reply e-mail: the customer's answer reaches support's mailbox. */
  supportEmail: string;
  now?: Clock | undefined;
}

interface InboxListOptions {
  keyword?: string | undefined;
  status?: InboxFilter | undefined;
  page?: number | undefined;
  size?: number | undefined;
}

/** LIKE pattern text for a literal (the queries say `escape '\'`, on both dialects). */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The first non-blank line, shortened on a character boundary. */
function previewOf(message: string): string {
  const line = message.split(/\r\n|\r|\n/).find((candidate) => candidate.trim() !== '') ?? '';
  const chars = [...line.trim()];
  return chars.length > PREVIEW_LENGTH ? `${chars.slice(0, PREVIEW_LENGTH - 1).join('')}…` : chars.join('');
}

function stateOf(row: { id: number; status: InboxStatus; handled_at: string | null }): InboxState {
  return {
    id: Number(row.id),
    status: row.status,
    handledAt: row.handled_at,
    canMarkHandled: row.status === 'new',
    canReopen: row.status === 'handled',
  };
}

export function createContactInbox(options: ContactInboxOptions) {
  const { db, publicUrl, supportEmail } = options;
  const clock = options.now ?? systemClock;

  async function list(query: InboxListOptions = {}): Promise<InboxPage> {
    const keyword = foldForSearch((query.keyword ?? '').trim().slice(0, INBOX_MAX_KEYWORD_LENGTH));
    const status = query.status && query.status !== 'all' ? query.status : null;
    const size = Math.min(INBOX_MAX_PAGE_SIZE, Math.max(1, Math.floor(query.size ?? INBOX_DEFAULT_PAGE_SIZE)));
    const page = Math.max(1, Math.floor(query.page ?? 1));

    let filtered = db.selectFrom('contact_messages as m');
    if (status) filtered = filtered.where('m.status', '=', status);
    // A substring of the folded e-mail, linked order id and text: the inbox is read by people,
    // a few thousand messages a year, so a scan of the filtered rows is cheap (decision 026).
    if (keyword) filtered = filtered.where(sql<boolean>`m.search_text like ${`%${likeLiteral(keyword)}%`} escape '\\'`);

    const counted = await filtered.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
    const count = Number(counted?.n ?? 0);
    const rows =
      count > (page - 1) * size
        ? await filtered
            .leftJoin('orders as o', 'o.id', 'm.order_id')
            .select((eb) => [
              'm.id',
              'm.email',
              'o.provider_order_id',
              // The first line is all a row shows: no need to read 5000 characters per row.
              sql<string>`substr(m.message, 1, 1000)`.as('head'),
              'm.status',
              'm.created_at',
              'm.read_at',
              eb
                .selectFrom('contact_replies as r')
                .select((inner) => inner.fn.countAll<number | string>().as('n'))
                .whereRef('r.message_id', '=', 'm.id')
                .as('reply_count'),
            ])
            .orderBy('m.created_at', 'desc')
            .orderBy('m.id', 'desc')
            .limit(size)
            .offset((page - 1) * size)
            .execute()
        : [];
    return {
      rows: rows.map((row): InboxRow => ({
        id: Number(row.id),
        email: row.email,
        orderId: row.provider_order_id ? publicOrderId(row.provider_order_id) : null,
        preview: previewOf(row.head),
        status: row.status,
        createdAt: row.created_at,
        readAt: row.read_at,
        replyCount: Number(row.reply_count ?? 0),
      })),
      count,
      totalPages: Math.ceil(count / size),
      currentPage: page,
    };
  }

  async function unreadCount(): Promise<number> {
    const row = await db
      .selectFrom('contact_messages')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async function loadState(id: number): Promise<InboxState> {
    const row = await db
      .selectFrom('contact_messages')
      .select(['id', 'status', 'handled_at'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new InboxError(INBOX_MESSAGES.notFound, 404);
    return stateOf(row);
  }

  /** The message with its replies and linked order; marks it read the first time (idempotent). */
  async function open(id: number): Promise<InboxMessage> {
    const now = clock().toISOString();
    await db
      .updateTable('contact_messages')
      .set({ read_at: now })
      .where('id', '=', id)
      .where('read_at', 'is', null)
      .execute();
    const row = await db
      .selectFrom('contact_messages as m')
      .leftJoin('orders as o', 'o.id', 'm.order_id')
      .select([
        'm.id',
        'm.email',
        'm.message',
        'm.status',
        'm.created_at',
        'm.handled_at',
        'm.read_at',
        'o.provider_order_id',
      ])
      .where('m.id', '=', id)
      .executeTakeFirst();
    if (!row) throw new InboxError(INBOX_MESSAGES.notFound, 404);
    const [replies, order] = await Promise.all([
      repliesOf(id),
      row.provider_order_id
        ? loadOrderDetail(db, row.provider_order_id).then(
            (detail) => ({ order: detail.order, timeline: detail.timeline }),
            // Purged between the two reads: the message is unlinked by then.
            () => null,
          )
        : Promise.resolve(null),
    ]);
    return {
      ...stateOf(row),
      email: row.email,
      message: row.message,
      createdAt: row.created_at,
      readAt: row.read_at,
      order,
      replies,
    };
  }

  async function repliesOf(messageId: number): Promise<InboxReply[]> {
    const rows = await db
      .selectFrom('contact_replies')
      .select(['id', 'body', 'admin_email', 'created_at'])
      .where('message_id', '=', messageId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ id: Number(r.id), body: r.body, adminEmail: r.admin_email, createdAt: r.created_at }));
  }

  /** new → handled (compare-and-set); a message already handled is a no-op (`changed: false`). */
  async function markHandled(id: number, admin: InboxAdmin): Promise<InboxTransition> {
    const now = clock().toISOString();
    const result = await db
      .updateTable('contact_messages')
      .set({ status: 'handled', handled_at: now, handled_by: admin.adminId, read_at: sql`coalesce(read_at, ${now})` })
      .where('id', '=', id)
      .where('status', '=', 'new')
      .executeTakeFirst();
    return { ...(await loadState(id)), changed: Number(result.numUpdatedRows) === 1 };
  }

  /** handled → new (compare-and-set), for a message marked handled by mistake; a new one is a no-op. */
  async function reopen(id: number): Promise<InboxTransition> {
    const result = await db
      .updateTable('contact_messages')
      .set({ status: 'new', handled_at: null, handled_by: null })
      .where('id', '=', id)
      .where('status', '=', 'handled')
      .executeTakeFirst();
    return { ...(await loadState(id)), changed: Number(result.numUpdatedRows) === 1 };
  }

  /**
   * Stores the reply and enqueues its e-mail to the customer in one transaction (the outbox: a
   * stored reply is always mailed, a failed one never; one mail per reply id). Marks the message
   * read, and handled unless `markHandled` is false.
   */
  async function reply(
    id: number,
    body: string,
    admin: InboxAdmin,
    replyOptions: {
      markHandled?: boolean | undefined;
      /** Told the message's state before and after the reply (the audit log). */
      audit?: AuditSink | undefined;
    } = {},
  ): Promise<InboxReplyCreated> {
    const now = clock();
    const at = now.toISOString();
    const { created, change } = await db.transaction().execute(async (trx) => {
      const message = await trx
        .selectFrom('contact_messages as m')
        .leftJoin('orders as o', 'o.id', 'm.order_id')
        .select(['m.id', 'm.email', 'm.created_at', 'm.status', 'm.read_at', 'o.provider_order_id'])
        .where('m.id', '=', id)
        .executeTakeFirst();
      if (!message) throw new InboxError(INBOX_MESSAGES.notFound, 404);

      const stored = await trx
        .insertInto('contact_replies')
        .values({ message_id: id, body, admin_id: admin.adminId, admin_email: admin.email, created_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      const replyId = Number(stored.id);

      const mail = renderInboxReply({
        body,
        receivedAt: message.created_at,
        orderNumber: message.provider_order_id ? publicOrderId(message.provider_order_id) : null,
        publicUrl,
      });
      await enqueueMail(
        trx,
        { to: message.email, ...mail, headers: { 'Reply-To': supportEmail } },
        { dedupeKey: `contact-reply:${replyId}`, now },
      );

      if (replyOptions.markHandled ?? true) {
        await trx
          .updateTable('contact_messages')
          .set({ status: 'handled', handled_at: at, handled_by: admin.adminId })
          .where('id', '=', id)
          .where('status', '=', 'new')
          .execute();
      }
      await trx
        .updateTable('contact_messages')
        .set({ read_at: at })
        .where('id', '=', id)
        .where('read_at', 'is', null)
        .execute();

      const state = await trx
        .selectFrom('contact_messages')
        .select(['id', 'status', 'handled_at', 'read_at'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      // Read in this transaction, before and after its own writes.
      const change: AuditChange = {
        before: { status: message.status, readAt: message.read_at },
        after: { status: state.status, readAt: state.read_at, reply: body },
      };
      const created: InboxReplyCreated = {
        reply: { id: replyId, body, adminEmail: admin.email, createdAt: at },
        state: stateOf(state),
      };
      return { created, change };
    });
    // Reported once committed: a rolled-back reply changed nothing.
    replyOptions.audit?.(change);
    return created;
  }

  return { list, unreadCount, open, markHandled, reopen, reply };
}

export type ContactInbox = ReturnType<typeof createContactInbox>;
