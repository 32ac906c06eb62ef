/** Refusals meant for the buyer: the API answers with their status and message. */

export class OrderError extends Error {
  /** Read by the API's error handler. */
  readonly expose = true;
  constructor(
    message: string,
    readonly statusCode: 400 | 404 | 409 | 502,
    /** The payload field the refusal is about ('name', 'email', …): the form shows it there. */
    readonly field?: string,
  ) {
    super(message);
  }
}

export const PAYMENT_MESSAGES = {
  invalidSignature: 'Invalid payment signature',
  orderNotFound: 'Order not found',
  methodUnavailable: 'This payment method is not available. Please choose another.',
  alreadyPaid: 'This order is already paid.',
  expired: 'This order expired before it was paid. Place it again to pay today’s price.',
} as const;
