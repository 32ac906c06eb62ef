import { describe, expect, it } from 'vitest';
import { changedFields, redactSecrets } from '../../core/audit/audit.ts';
import { auditSummaryView, auditValueText } from '../../core/audit/display.ts';

/** How /admin/audit reads an entry's before/after (decision 047), and the change summaries it is given. */
describe('audit summaries', () => {
  it('keeps only the fields that changed, on both sides', () => {
    expect(
      changedFields(
        { title: 'Old', slug: 'same', image: '', category: 'Growth' },
        { title: 'New', slug: 'same', image: '/a.png', category: 'Growth' },
      ),
    ).toEqual({ before: { title: 'Old', image: '' }, after: { title: 'New', image: '/a.png' } });
    // A field on one side only counts as changed; equal nested values do not.
    expect(changedFields({ a: { x: 1 } }, { a: { x: 1 }, b: null, c: 2 })).toEqual({
      before: { c: null },
      after: { c: 2 },
    });
  });

  it('reads a change as field: before → after', () => {
    expect(auditSummaryView({ before: { state: 'pending' }, after: { state: 'approved', note: null } })).toEqual({
      kind: 'change',
      rows: [
        { field: 'state', before: 'pending', after: 'approved' },
        { field: 'note', before: null, after: 'none' },
      ],
    });
  });

  it('tells created, removed and only-sent apart, and keeps other shapes as JSON', () => {
    expect(auditSummaryView({ before: null, after: { title: 'Hi' } })).toEqual({
      kind: 'created',
      rows: [{ field: 'title', before: null, after: 'Hi' }],
    });
    expect(auditSummaryView({ before: { title: 'Hi' }, after: null })).toMatchObject({ kind: 'removed' });
    expect(auditSummaryView({ before: { email: 'a@b.co' } })).toMatchObject({ kind: 'removed' });
    expect(auditSummaryView({ after: { razorpay_order_id: 'order_1' } })).toEqual({
      kind: 'sent',
      rows: [{ field: 'razorpay_order_id', before: null, after: 'order_1' }],
    });
    expect(auditSummaryView({ before: ['a'], after: 'b' })).toEqual({ kind: 'raw', before: '["a"]', after: '"b"' });
    expect(auditSummaryView(null)).toEqual({ kind: 'none' });
    expect(auditSummaryView({})).toEqual({ kind: 'none' });
  });

  it('writes values as an admin reads them', () => {
    expect(auditValueText(null)).toBe('none');
    expect(auditValueText('')).toBe('(empty)');
    expect(auditValueText(3)).toBe('3');
    expect(auditValueText(false)).toBe('false');
    expect(auditValueText({ state: 'Pending' })).toBe('{"state":"Pending"}');
  });

  it('never stores secrets or whole texts in a change', () => {
    const stored = redactSecrets({
      before: { password: 'hunter2hunter2', reply: 'x'.repeat(500) },
      after: { totpSecret: 'S', status: 'handled' },
    }) as { before: Record<string, string>; after: Record<string, string> };
    expect(stored.before.password).toBe('[redacted]');
    expect(stored.before.reply).toHaveLength(201);
    expect(stored.after).toEqual({ totpSecret: '[redacted]', status: 'handled' });
  });
});
