/** The admin console's refusals: the messages the API shows and the error that carries them. */
import { ORDER_STATUSES } from '../orders/status.ts';

/** The console's own refusals; why an action is refused is the order model's (ORDER_ACTION_REFUSALS). */
export const CONSOLE_MESSAGES = {
  notFound: 'Order not found',
  changed: 'This order changed in the meantime. Reload it and try again.',
  badStatus: `status must be one of ${ORDER_STATUSES.join(', ')}`,
} as const;

/** A refusal for the admin: the API answers with its status and message. */
export class ConsoleError extends Error {
  /** Read by the API's error handler. */
  readonly expose = true;
  constructor(
    message: string,
    readonly statusCode: 400 | 404 | 409,
  ) {
    super(message);
    this.name = 'ConsoleError';
  }
}
