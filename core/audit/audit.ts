/**
 * The admin audit log (decision 041): who did what to which thing, when, with what outcome, and
 * a before/after summary where there is one. Rows are written in two ways, so a new admin action
 * cannot skip the log:
 *
 * - every mutating request that passed the admin guard is recorded when its reply is sent (an
 *   `onResponse` hook, server/api/admin-audit.ts): the route, the target from its path
 *   parameters, the status, and the request body as the "after" with secrets removed;
 * - an action that knows more (the role before a role change, the invitation's e-mail) adds it to
 *   that same row through `AuditNote` (`noteAudit` in the guard), or records its own row when it
 *   is not an admin request at all (an invitation being accepted).
 *
 * No password, code, token, key or secret ever reaches a row: `redactSecrets` drops every field
 * whose name says it holds one, and long texts are cut (the log is not a copy of the blog).
 */
import { type Kysely, type Transaction, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface AuditNote {
  /** A name for the action (e.g. 'admin.invite'); the route when omitted. */
  action?: string;
  targetType?: string;
  targetId?: string | number;
  before?: unknown;
  after?: unknown;
}

/**
 * What an action changed, as the core function that made the change saw it: only the fields the
 * action changes, "before" taken from the row the compare-and-set was checked against (or locked),
 * "after" from what it wrote. `null` on a side means the thing did not exist (created, deleted).
 */
export interface AuditChange {
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

/**
 * Where a core function reports the change it made, for the admin request's audit entry (the
 * handler passes one that notes it on the request). Optional everywhere: the worker, the CLI and
 * tests call the same functions without one.
 */
export type AuditSink = (change: AuditChange) => void;

/**
 * The fields of two summaries that differ, on both sides (an edit that changed the title only is
 * logged as its title, not as the whole post). A field only one side has counts as changed.
 */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): AuditChange {
  const changedBefore: Record<string, unknown> = {};
  const changedAfter: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key] ?? null) === JSON.stringify(after[key] ?? null)) continue;
    changedBefore[key] = before[key] ?? null;
    changedAfter[key] = after[key] ?? null;
  }
  return { before: changedBefore, after: changedAfter };
}

interface AuditEntryInput extends AuditNote {
  adminId: number | null;
  adminEmail: string;
  action: string;
  /** The HTTP status the action answered. */
  outcome: number;
  at: Date;
}

export interface AuditEntry {
  id: number;
  createdAt: string;
  adminId: number | null;
  adminEmail: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  outcome: number;
  summary: { before?: unknown; after?: unknown } | null;
}

interface AuditFilters {
  /** Text searched in the action, the target and the admin's e-mail (case-insensitive). */
  q?: string | undefined;
  action?: string | undefined;
  adminId?: number | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  /** Only entries older than this cursor (the `next` of the previous page). */
  before?: string | undefined;
  limit?: number | undefined;
}

interface AuditPage {
  entries: AuditEntry[];
  /** Pass as `before` for the next page; null on the last page. */
  next: string | null;
}

export const AUDIT_PAGE_SIZE = 25;
const MAX_TEXT = 200;
const MAX_ARRAY = 20;
const MAX_FIELDS = 40;
const MAX_DEPTH = 4;
/** The most one row's summary holds, as stored JSON text (a longer one is cut, with a marker). */
export const MAX_AUDIT_SUMMARY_CHARS = 16 * 1024;
const REDACTED = '[redacted]';
/** Objects with at least this many consecutive byte-valued keys ("0": 116, "1": 104, …) are bytes. */
const BYTE_OBJECT_MIN_KEYS = 16;

/** Field names that hold a secret: their values never reach the log. */
const SECRET_FIELD = /pass|code|otp|token|secret|key|signature|hash|cookie|authori[sz]ation|recovery|totp/i;

function sizeInWords(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * The size in bytes when `value` holds raw bytes (a Buffer, any typed array or DataView, an
 * ArrayBuffer, a Blob or File, or an object spelling out a byte array as `{"0":116,"1":104,…}`,
 * which is what a byte array becomes once serialised); undefined otherwise. Bytes never reach the
 * log: a file's content is not a record of what an admin did, and one upload would fill the page.
 */
function byteSize(value: object): number | undefined {
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (value instanceof ArrayBuffer) return value.byteLength;
  if (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer) return value.byteLength;
  const blob = value as { size?: unknown; arrayBuffer?: unknown };
  if (typeof blob.size === 'number' && typeof blob.arrayBuffer === 'function') return blob.size;
  if (Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  // A serialised Buffer ({ type: 'Buffer', data: [...] }).
  if (record['type'] === 'Buffer' && Array.isArray(record['data'])) return record['data'].length;
  let count = 0;
  for (const key in record) {
    if (key !== String(count)) return undefined;
    const byte = record[key];
    if (typeof byte !== 'number' || !Number.isInteger(byte) || byte < 0 || byte > 255) return undefined;
    count += 1;
  }
  return count >= BYTE_OBJECT_MIN_KEYS ? count : undefined;
}

/**
 * A copy of `value` safe for the log: secret fields redacted, bytes replaced by a short
 * description ("[file, 405 KB]"), long texts, lists and objects cut.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return String(value);
  if (typeof value !== 'object') return null;
  const bytes = byteSize(value);
  if (bytes !== undefined) return `[file, ${sizeInWords(bytes)}]`;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (depth >= MAX_DEPTH) return '…';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ARRAY).map((item) => redactSecrets(item, depth + 1));
    return value.length > MAX_ARRAY ? [...items, `… ${value.length - MAX_ARRAY} more`] : items;
  }
  const out: Record<string, unknown> = {};
  let fields = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    fields += 1;
    if (fields > MAX_FIELDS) continue;
    const inner = (value as Record<string, unknown>)[key];
    out[key.length > MAX_TEXT ? `${key.slice(0, MAX_TEXT)}…` : key] = SECRET_FIELD.test(key)
      ? REDACTED
      : redactSecrets(inner, depth + 1);
  }
  if (fields > MAX_FIELDS) out['…'] = `${fields - MAX_FIELDS} more fields`;
  return out;
}

/**
 * The summary as stored: redacted, and never longer than MAX_AUDIT_SUMMARY_CHARS. A side that is
 * still too long (many long fields) keeps the start of its text under a marker field, so the
 * row stays valid JSON in the shape the log page reads (before/after objects).
 */
export function auditSummaryJson(note: Pick<AuditNote, 'before' | 'after'>): string | null {
  const summary: Record<string, unknown> = {};
  if (note.before !== undefined) summary['before'] = redactSecrets(note.before);
  if (note.after !== undefined) summary['after'] = redactSecrets(note.after);
  const sides = Object.keys(summary);
  if (sides.length === 0) return null;
  const full = JSON.stringify(summary);
  if (full.length <= MAX_AUDIT_SUMMARY_CHARS) return full;
  const marker = `cut: ${sizeInWords(full.length)} of summary, the log keeps ${sizeInWords(MAX_AUDIT_SUMMARY_CHARS)}`;
  // Escaping can lengthen the kept text, so shorten until the whole row fits.
  for (let keep = Math.floor(MAX_AUDIT_SUMMARY_CHARS / sides.length) - 200; keep > 0; keep = Math.floor(keep * 0.8)) {
    const cut = Object.fromEntries(
      sides.map((side) => [side, { '…': marker, start: `${JSON.stringify(summary[side]).slice(0, keep)}…` }]),
    );
    const text = JSON.stringify(cut);
    if (text.length <= MAX_AUDIT_SUMMARY_CHARS) return text;
  }
  return JSON.stringify(Object.fromEntries(sides.map((side) => [side, { '…': marker }])));
}

/** Writes one entry (inside the caller's transaction when given one). */
export async function recordAudit(db: Kysely<Database> | Transaction<Database>, entry: AuditEntryInput): Promise<void> {
  await db
    .insertInto('admin_audit')
    .values({
      created_at: entry.at.toISOString(),
      admin_id: entry.adminId,
      admin_email: entry.adminEmail,
      action: entry.action.slice(0, 200),
      target_type: entry.targetType ?? null,
      target_id: entry.targetId === undefined ? null : String(entry.targetId).slice(0, 200),
      outcome: entry.outcome,
      summary: auditSummaryJson(entry),
    })
    .execute();
}

function parseSummary(text: string | null): AuditEntry['summary'] {
  if (!text) return null;
  try {
    return JSON.parse(text) as AuditEntry['summary'];
  } catch {
    return null;
  }
}

/** `%`, `_` and `\` taken literally in a LIKE pattern (with `escape '\'`). */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function cursorOf(row: { created_at: string; id: number }): string {
  return `${row.created_at}_${row.id}`;
}

function parseCursor(text: string | undefined): { createdAt: string; id: number } | null {
  const match = text ? /^(\d{4}-\d\d-\d\dT[\d:.]+Z)_(\d{1,15})$/.exec(text) : null;
  return match?.[1] && match[2] ? { createdAt: match[1], id: Number(match[2]) } : null;
}

/** The log, newest first, one page at a time, narrowed by the filters. */
export async function listAudit(db: Kysely<Database>, filters: AuditFilters = {}): Promise<AuditPage> {
  const limit = Math.min(Math.max(filters.limit ?? AUDIT_PAGE_SIZE, 1), 100);
  let query = db.selectFrom('admin_audit').selectAll();
  if (filters.action) query = query.where('action', '=', filters.action);
  if (filters.adminId !== undefined) query = query.where('admin_id', '=', filters.adminId);
  if (filters.targetType) query = query.where('target_type', '=', filters.targetType);
  if (filters.targetId) query = query.where('target_id', '=', filters.targetId);
  const cursor = parseCursor(filters.before);
  if (cursor) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', cursor.createdAt),
        eb.and([eb('created_at', '=', cursor.createdAt), eb('id', '<', cursor.id)]),
      ]),
    );
  }
  const q = filters.q?.trim();
  if (q) {
    const pattern = likePattern(q);
    query = query.where((eb) =>
      eb.or(
        (['action', 'target_type', 'target_id', 'admin_email'] as const).map(
          (column) => sql<boolean>`lower(coalesce(${sql.ref(column)}, '')) like ${pattern} escape '\\'`,
        ),
      ),
    );
  }
  // Newest first; each index leads with its filter column and ends with (created_at, id).
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  return {
    entries: page.map((row) => ({
      id: row.id,
      createdAt: row.created_at,
      adminId: row.admin_id,
      adminEmail: row.admin_email,
      action: row.action,
      targetType: row.target_type,
      targetId: row.target_id,
      outcome: row.outcome,
      summary: parseSummary(row.summary),
    })),
    next: rows.length > limit && page.length > 0 ? cursorOf(page[page.length - 1]!) : null,
  };
}

/** The distinct actions logged so far, for the filter menu. */
export async function auditActions(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('admin_audit').select('action').distinct().orderBy('action').limit(200).execute();
  return rows.map((row) => row.action);
}
