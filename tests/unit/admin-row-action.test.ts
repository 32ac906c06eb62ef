/**
 * The admin console's action column follows the server's flags on the row (a regression: the old
 * console offered "Apply service" on every flagged row, which the server then refused).
 */
import { describe, expect, it } from 'vitest';
import type { ConsoleRow } from '../../core/admin/contracts.ts';
import { rowAction } from '../../app/admin/orders.tsx';

type Flags = Pick<ConsoleRow, 'orderStatus' | 'pendingAction' | 'canReorder' | 'canApplyService'>;
const row = (flags: Partial<Flags> = {}): Flags => ({
  orderStatus: 'In Progress',
  pendingAction: null,
  canReorder: false,
  canApplyService: false,
  ...flags,
});

describe('rowAction', () => {
  it('offers only what the server would accept', () => {
    expect(rowAction(row({ canReorder: true }))).toBe('reorder');
    expect(rowAction(row({ canApplyService: true }))).toBe('apply-service');
    // Both accepted (not at the supplier yet): sending it now is the plain action.
    expect(rowAction(row({ canReorder: true, canApplyService: true }))).toBe('apply-service');
    expect(rowAction(row())).toBe('unavailable');
  });

  it('shows a queued action as pending, whatever else the row says', () => {
    expect(rowAction(row({ pendingAction: 'reorder' }))).toBe('pending');
    expect(rowAction(row({ pendingAction: 'apply-service', canReorder: true }))).toBe('pending');
  });

  it('shows the dash for finished orders the server refuses', () => {
    for (const orderStatus of ['Completed', 'Partial', 'Canceled'] as const) {
      expect(rowAction(row({ orderStatus }))).toBe('none');
    }
  });
});
