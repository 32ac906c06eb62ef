/**
 * Every stored value an owner can meet in the console has words: a new payment state, timeline
 * event or fulfilment state cannot appear raw (`fail`, `supplier.submitted`), and a timeline
 * detail reads as labelled values, never as field names or JSON.
 */
import { describe, expect, it } from 'vitest';
import { FULFILMENT_STATES, ORDER_EVENT_KINDS, PAYMENT_STATUSES } from '../../db/column-values.ts';
import { FULFILMENT_STATE_WORDS } from '../../core/admin/order-words.ts';
import { PAYMENT_STATUS_WORDS, paymentStatusWords } from '../../core/admin/payment-words.ts';
import { ORDER_EVENT_WORDS, orderEventWords, timelineFacts } from '../../core/admin/timeline-words.ts';

const looksRaw = (words: string) => /[._]/.test(words) || words === words.toLowerCase();

describe('console words', () => {
  it.each(PAYMENT_STATUSES)('payment state %s has words', (status) => {
    const words = paymentStatusWords(status);
    expect(words).toBe(PAYMENT_STATUS_WORDS[status]);
    expect(looksRaw(words)).toBe(false);
  });

  it('names the payment states as an owner reads them', () => {
    expect(paymentStatusWords('created')).toBe('Awaiting payment');
    expect(paymentStatusWords('fail')).toBe('Payment failed');
  });

  it.each(ORDER_EVENT_KINDS)('timeline event %s has words', (kind) => {
    const words = orderEventWords(kind);
    expect(words).toBe(ORDER_EVENT_WORDS[kind]);
    expect(words).not.toContain(kind);
    expect(looksRaw(words)).toBe(false);
  });

  it.each(FULFILMENT_STATES)('fulfilment state %s has words', (state) => {
    expect(looksRaw(FULFILMENT_STATE_WORDS[state])).toBe(false);
  });

  it('shows a timeline detail as labelled values, no keys or JSON', () => {
    const facts = timelineFacts({ supplierOrderId: '9001', retry: true, cause: { status: 'fail' }, empty: null });
    expect(facts).toEqual([
      { label: 'Supplier order ID', value: '9001' },
      { label: 'Will try again', value: 'Yes' },
      { label: 'Cause', value: 'Status: fail' },
    ]);
    for (const fact of facts) expect(fact.value).not.toMatch(/[{}"]/);
    expect(timelineFacts({ newFieldName: 3 })).toEqual([{ label: 'New field name', value: '3' }]);
    expect(timelineFacts('Checked by hand')).toEqual([{ label: 'Details', value: 'Checked by hand' }]);
  });
});
