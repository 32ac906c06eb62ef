/**
 * The customer's side of a crypto refund: the e-mailed single-use link opens a page that shows
 * what is refunded and takes the wallet address to send it to (core/orders/refunds.ts sends it).
 * A spent or unknown link says so in one sentence, the same for both, so a guessed token learns
 * nothing.
 */
import { e4ToNumber, formatMoney } from '../money/money.ts';
import { REFUND_ADDRESS_MESSAGES } from './refund-contracts.ts';
import { type RefundDeps, RefundRefused, giveRefundAddress, refundAwaitingAddress } from './refunds.ts';
import { publicOrderId } from './types.ts';

export type RefundLinkView =
  { state: 'open'; orderNumber: string; serviceName: string; amountText: string } | { state: 'invalid' };

export interface RefundLinks {
  view(token: string): Promise<RefundLinkView>;
  /** Refused (RefundRefused) when the link is spent or the provider refused the refund. */
  giveAddress(token: string, address: string): Promise<{ sent: boolean; amountText: string; message: string }>;
}

export function createRefundLinks(deps: RefundDeps): RefundLinks {
  async function view(token: string): Promise<RefundLinkView> {
    // The link's token is between 20 and 100 characters (the event's schema); others cannot be one.
    if (token.length < 20 || token.length > 100) return { state: 'invalid' };
    const refund = await refundAwaitingAddress(deps.db, token);
    if (!refund) return { state: 'invalid' };
    return {
      state: 'open',
      orderNumber: publicOrderId(refund.provider_order_id),
      serviceName: refund.service_name,
      amountText: formatMoney(e4ToNumber(refund.amount_e4), refund.currency),
    };
  }
  return {
    view,
    async giveAddress(token, address) {
      const before = await view(token);
      const result = await giveRefundAddress(deps, token, address);
      const amountText = before.state === 'open' ? before.amountText : '';
      if (result.status === 'failed') throw new RefundRefused(REFUND_ADDRESS_MESSAGES.refused, 409);
      const sent = result.status === 'done';
      return { sent, amountText, message: sent ? REFUND_ADDRESS_MESSAGES.sent : REFUND_ADDRESS_MESSAGES.pending };
    },
  };
}
