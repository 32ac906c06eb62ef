/**
 * An audit entry's change as lines an owner reads ("100 Followers (Standard): price $2.99 →
 * $3.49"), one per field that differs, from the before/after the action logged. Browser-safe: the
 * audit page and the tests share it.
 */
import { auditValueText } from './display.ts';

type Fields = Record<string, unknown>;

/**
 * One line per field whose value differs; `labels` names fields in words (a field without one is
 * shown by its name). A side that is null (created, deleted) reads as "none".
 */
export function describeChanges(
  before: Fields | null,
  after: Fields | null,
  labels: Readonly<Record<string, string>> = {},
): string[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const lines: string[] = [];
  for (const field of fields) {
    const was = before?.[field];
    const now = after?.[field];
    if (JSON.stringify(was ?? null) === JSON.stringify(now ?? null)) continue;
    lines.push(`${labels[field] ?? field} ${auditValueText(was)} → ${auditValueText(now)}`);
  }
  return lines;
}
