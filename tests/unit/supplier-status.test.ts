import { describe, expect, it } from 'vitest';
import { normalizeSupplierStatus } from '../../core/fulfilment/statuses.ts';
import { ORDER_STATUSES, isFinalStatus } from '../../core/orders/status.ts';

describe('normalizeSupplierStatus', () => {
  it.each([
    ['Completed', 'Completed'],
    ['completed', 'Completed'],
    ['COMPLETED', 'Completed'],
    ['In progress', 'In Progress'],
    ['In Progress', 'In Progress'],
    ['in progress', 'In Progress'],
    ['inprogress', 'In Progress'],
    ['in_progress', 'In Progress'],
    ['In-Progress', 'In Progress'],
    ['  In   progress ', 'In Progress'],
    ['Processing', 'Processing'],
    ['Pending', 'Pending'],
    ['pending', 'Pending'],
    ['Partial', 'Partial'],
    ['partial', 'Partial'],
    ['Canceled', 'Canceled'],
    ['CANCELED', 'Canceled'],
    ['Cancelled', 'Canceled'],
    ['cancelled', 'Canceled'],
  ])('%j → %s', (raw, expected) => {
    expect(normalizeSupplierStatus(raw)).toBe(expected);
  });

  it.each([
    ['Refunded'],
    ['Fail'],
    [''],
    ['in progress!'],
    ['constructor'],
    ['toString'],
    ['__proto__'],
    [null],
    [undefined],
    [3],
    [{}],
  ])('%j → null', (raw) => {
    expect(normalizeSupplierStatus(raw)).toBeNull();
  });

  it('maps onto the store’s statuses only', () => {
    for (const status of ORDER_STATUSES) expect(normalizeSupplierStatus(status)).toBe(status);
  });
});

describe('isFinalStatus', () => {
  it('is true for Completed, Partial and Canceled only', () => {
    expect(ORDER_STATUSES.filter(isFinalStatus)).toEqual(['Completed', 'Partial', 'Canceled']);
    expect(isFinalStatus(null)).toBe(false);
  });
});
