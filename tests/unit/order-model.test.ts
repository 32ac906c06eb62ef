/** The order model's rules (core/orders/status.ts, progress.ts): one place, tested as values. */
import { describe, expect, it } from 'vitest';
import { deriveOrderProgress, refundDueE4, undeliveredQuantity } from '../../core/orders/progress.ts';
import {
  type ActionableOrder,
  ORDER_ACTION_REFUSALS,
  ORDER_STATUSES,
  applyServiceRefusal,
  canApplyService,
  canChangeOrderStatus,
  canReorder,
  isFinalStatus,
  isNotifiedStatus,
  reorderRefusal,
} from '../../core/orders/status.ts';

const paid: ActionableOrder = {
  payment_status: 'paid',
  order_status: 'In Progress',
  fulfilment_state: 'submitted',
  supplier_order_id: '9001',
  pending_action: null,
  refunded_e4: 0,
};

describe('order statuses', () => {
  it('knows which are final and which are e-mailed', () => {
    expect(ORDER_STATUSES.filter(isFinalStatus)).toEqual(['Completed', 'Partial', 'Canceled']);
    expect(ORDER_STATUSES.filter(isNotifiedStatus)).toEqual(['Completed', 'In Progress', 'Partial', 'Canceled']);
  });

  it('never moves a final status, and allows In Progress → Processing only as a reorder’s resend', () => {
    for (const from of ['Completed', 'Partial', 'Canceled'] as const)
      for (const to of ORDER_STATUSES) expect(canChangeOrderStatus(from, to)).toBe(false);
    expect(canChangeOrderStatus('In Progress', 'Processing')).toBe(true);
    expect(canChangeOrderStatus('Processing', 'Pending')).toBe(false);
  });
});

describe('reorder and apply-service rules', () => {
  it('reorders a paid order the supplier has not finished, and nothing else', () => {
    expect(canReorder(paid)).toBe(true);
    expect(canReorder({ ...paid, order_status: 'Processing' })).toBe(true);
    expect(canReorder({ ...paid, order_status: 'Pending', fulfilment_state: 'failed', supplier_order_id: null })).toBe(
      true,
    );
    expect(reorderRefusal({ ...paid, payment_status: 'created' })).toBe(ORDER_ACTION_REFUSALS.unpaid);
    expect(reorderRefusal({ ...paid, pending_action: 'reorder' })).toBe(ORDER_ACTION_REFUSALS.pending);
    expect(reorderRefusal({ ...paid, fulfilment_state: 'submitting' })).toBe(ORDER_ACTION_REFUSALS.submitting);
    expect(reorderRefusal({ ...paid, order_status: 'Completed' })).toBe(ORDER_ACTION_REFUSALS.completed);
    expect(reorderRefusal({ ...paid, order_status: 'Partial' })).toBe(ORDER_ACTION_REFUSALS.partial);
    expect(reorderRefusal({ ...paid, order_status: 'Canceled' })).toBe(ORDER_ACTION_REFUSALS.canceled);
    expect(reorderRefusal({ ...paid, refunded_e4: 100 })).toBe(ORDER_ACTION_REFUSALS.refunded);
  });

  it('applies the service only to an order not at the supplier or flagged for review', () => {
    expect(canApplyService(paid)).toBe(false);
    expect(canApplyService({ ...paid, fulfilment_state: 'needs_review' })).toBe(true);
    for (const state of ['none', 'retry', 'failed'] as const)
      expect(
        canApplyService({ ...paid, order_status: 'Pending', fulfilment_state: state, supplier_order_id: null }),
      ).toBe(true);
    expect(applyServiceRefusal({ ...paid, fulfilment_state: 'needs_review', pending_action: 'apply-service' })).toBe(
      ORDER_ACTION_REFUSALS.pending,
    );
    expect(applyServiceRefusal({ ...paid, order_status: 'Completed', fulfilment_state: 'needs_review' })).toBe(
      ORDER_ACTION_REFUSALS.alreadyAtSupplier,
    );
    expect(applyServiceRefusal({ ...paid, payment_status: 'expired' })).toBe(ORDER_ACTION_REFUSALS.unpaid);
  });
});

describe('progress from supplier orders', () => {
  const order = {
    quantity: 1000,
    order_status: 'In Progress' as const,
    fulfilment_state: 'submitted' as const,
    pending_action: null,
  };
  const live = (remains: number, quantity = 1000) =>
    ({ quantity, status: 'In Progress', remains, final: false }) as const;
  const done = (status: 'Completed' | 'Partial' | 'Canceled', remains: number | null, quantity = 1000) =>
    ({ quantity, status, remains, final: true }) as const;

  it('follows the live supplier order and counts what earlier ones delivered', () => {
    expect(deriveOrderProgress(order, [])).toBeNull();
    expect(deriveOrderProgress(order, [live(700)])).toEqual({ status: 'In Progress', remains: 700 });
    expect(deriveOrderProgress(order, [done('Canceled', 600), live(200, 600)])).toEqual({
      status: 'In Progress',
      remains: 200,
    });
  });

  it('is final only once settled: nothing pending, the last submission not in doubt', () => {
    const cancelled = [done('Canceled', 600)];
    expect(deriveOrderProgress({ ...order, pending_action: 'reorder' }, cancelled)).toEqual({
      status: 'In Progress',
      remains: 600,
    });
    expect(deriveOrderProgress({ ...order, fulfilment_state: 'needs_review' }, cancelled)?.status).toBe('In Progress');
    expect(deriveOrderProgress(order, cancelled)).toEqual({ status: 'Canceled', remains: 600 });
    expect(deriveOrderProgress(order, [done('Canceled', 600), done('Completed', 0, 600)])).toEqual({
      status: 'Completed',
      remains: 0,
    });
    expect(deriveOrderProgress(order, [done('Canceled', 600), done('Canceled', 600, 600)])).toEqual({
      status: 'Partial',
      remains: 600,
    });
    expect(deriveOrderProgress(order, [done('Canceled', 1000), done('Canceled', 1000)])).toEqual({
      status: 'Canceled',
      remains: 1000,
    });
  });

  it('never counts unknown remains as undelivered for a Partial, and as nothing delivered for a Canceled', () => {
    expect(undeliveredQuantity(1000, [done('Partial', null)])).toBe(0);
    expect(undeliveredQuantity(1000, [done('Canceled', null)])).toBe(1000);
    expect(undeliveredQuantity(1000, [done('Partial', 5000)])).toBe(1000);
  });

  it('refunds the undelivered share in whole cents, less what was refunded, never more than paid', () => {
    const paidOrder = { amount_e4: 29_900, quantity: 1000, refunded_e4: 0 };
    expect(refundDueE4(paidOrder, 1000)).toBe(29_900);
    expect(refundDueE4(paidOrder, 333)).toBe(9_900); // 299 cents × 333 / 1000 = 99.567 → 99 cents
    expect(refundDueE4(paidOrder, 0)).toBe(0);
    expect(refundDueE4(paidOrder, null)).toBe(0);
    expect(refundDueE4(paidOrder, 5000)).toBe(29_900);
    expect(refundDueE4({ ...paidOrder, refunded_e4: 20_000 }, 1000)).toBe(9_900);
    expect(refundDueE4({ ...paidOrder, refunded_e4: 40_000 }, 1000)).toBe(0);
  });
});
