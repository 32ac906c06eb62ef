import { describe, expect, it } from 'vitest';
import { describeRefund, formatRefundDate, paymentState, processingFee } from '../../core/orders/charges.ts';

describe('order charges (decision 033)', () => {
  it('the processing fee is what was charged beyond the package price, exact to 4 decimals', () => {
    expect(processingFee(0.39, 1.39)).toBe(1);
    expect(processingFee(0.99, 1.99)).toBe(1);
    expect(processingFee(2.99, 2.99)).toBe(0);
    expect(processingFee(3, 2)).toBe(0);
  });

  it('names the payment state, refunds included', () => {
    expect(paymentState('paid', 12.99, 0)).toBe('Paid');
    expect(paymentState('paid', 12.99, 12.99)).toBe('Refunded');
    expect(paymentState('paid', 12.99, 4.2)).toBe('Partly refunded');
    expect(paymentState('created', 12.99, 0)).toBe('Unpaid');
    expect(paymentState('fail', 12.99, 0)).toBe('Failed');
    expect(paymentState('expired', 12.99, 0)).toBe('Expired');
  });

  it('writes the refund line with its amount and UTC date', () => {
    expect(describeRefund({ charged: 12.99, refunded: 12.99, refundedAt: '2026-11-23T23:30:00.000Z' }, 'USD')).toBe(
      'Refunded $12.99 on 23 Nov 2026',
    );
    expect(describeRefund({ charged: 12.99, refunded: 4.2, refundedAt: null }, 'USD')).toBe('Partly refunded $4.20');
    expect(describeRefund({ charged: 12.99, refunded: 0, refundedAt: null }, 'USD')).toBeNull();
    expect(formatRefundDate('not a date')).toBe('not a date');
  });
});
