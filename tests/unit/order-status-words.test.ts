import { describe, expect, it } from 'vitest';
import { orderStatusTag } from '../../core/orders/status-words.ts';
import { ORDER_STATUSES } from '../../core/orders/status.ts';

describe('orderStatusTag', () => {
  it('names what happened to an order that was never paid, whatever its work status says', () => {
    for (const status of ORDER_STATUSES) {
      expect(orderStatusTag(status, 'created')).toEqual({ tag: 'not-paid', note: null });
      expect(orderStatusTag(status, 'fail')).toEqual({ tag: 'payment-declined', note: null });
      expect(orderStatusTag(status, 'expired')).toEqual({ tag: 'abandoned', note: null });
    }
  });

  it("keeps the spec's tags for paid orders, saying the payment arrived while the order waits", () => {
    expect(orderStatusTag('Pending', 'paid')).toEqual({ tag: 'pending', note: 'Payment received' });
    expect(orderStatusTag('In Progress', 'paid')).toEqual({ tag: 'in-progress', note: null });
    expect(orderStatusTag('Processing', 'paid')).toEqual({ tag: 'processing', note: null });
    expect(orderStatusTag('Completed', 'paid')).toEqual({ tag: 'completed', note: null });
    expect(orderStatusTag('Partial', 'paid')).toEqual({ tag: 'partial', note: null });
    expect(orderStatusTag('Canceled', 'paid')).toEqual({ tag: 'canceled', note: null });
  });
});
