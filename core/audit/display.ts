/**
 * How an audit entry's before/after summary reads on /admin/audit: one line per field,
 * "before → after", instead of two blobs of JSON to compare by eye. Pure, so the page and its
 * tests share it.
 */
import type { AuditEntry } from './audit.ts';

export interface AuditFieldRow {
  field: string;
  /** The value before, as text; null when this side has no such field. */
  before: string | null;
  after: string | null;
}

type AuditSummaryView =
  /** Both sides known: each field's old and new value. */
  | { kind: 'change'; rows: AuditFieldRow[] }
  /** Nothing existed before (a post written). */
  | { kind: 'created'; rows: AuditFieldRow[] }
  /** Nothing is left after (a post deleted, an invitation withdrawn). */
  | { kind: 'removed'; rows: AuditFieldRow[] }
  /** Only what was sent: the request body, for routes whose core reports no change. */
  | { kind: 'sent'; rows: AuditFieldRow[] }
  /** A summary that is not field-shaped (an old entry, a list): shown as it is. */
  | { kind: 'raw'; before: string | null; after: string | null }
  | { kind: 'none' };

type Fields = Record<string, unknown>;

const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value as an admin reads it: text as it is, nothing as "none", the rest as compact JSON. */
export function auditValueText(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function rowsOf(before: Fields | null, after: Fields | null): AuditFieldRow[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return fields.map((field) => ({
    field,
    before: before && field in before ? auditValueText(before[field]) : null,
    after: after && field in after ? auditValueText(after[field]) : null,
  }));
}

export function auditSummaryView(summary: AuditEntry['summary']): AuditSummaryView {
  if (!summary) return { kind: 'none' };
  const hasBefore = 'before' in summary && summary.before !== undefined;
  const hasAfter = 'after' in summary && summary.after !== undefined;
  const { before, after } = summary;
  if (hasBefore && hasAfter) {
    if (isFields(before) && isFields(after)) return { kind: 'change', rows: rowsOf(before, after) };
    if (before === null && isFields(after)) return { kind: 'created', rows: rowsOf(null, after) };
    if (isFields(before) && after === null) return { kind: 'removed', rows: rowsOf(before, null) };
  }
  if (!hasBefore && hasAfter && isFields(after)) return { kind: 'sent', rows: rowsOf(null, after) };
  if (hasBefore && !hasAfter && isFields(before)) return { kind: 'removed', rows: rowsOf(before, null) };
  if (!hasBefore && !hasAfter) return { kind: 'none' };
  return {
    kind: 'raw',
    before: hasBefore ? JSON.stringify(before) : null,
    after: hasAfter ? JSON.stringify(after) : null,
  };
}
