/**
 * Every change to an order row, in one place: payment, the supplier's work, admin actions,
 * refunds and the end of its life. Each is a compare-and-set on the state it expects, writing the
 * row, the timeline entry and (for a status change) the event in one transaction. Other modules
 * ask these functions; none of them updates `orders` itself (tests/unit/order-writers.test.ts).
 */
export * from './admin-action.ts';
export * from './payment.ts';
export * from './refund.ts';
export * from './retention.ts';
export * from './supplier.ts';
