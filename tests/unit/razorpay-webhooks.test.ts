/**
 * Razorpay's webhooks read as our outcomes: signed bodies as Razorpay sends them (its signature,
 * HMAC-SHA256 of the raw body with the webhook secret) for each event the store acts on, and the
 * refusals (a wrong signature, no secret configured, a signed body of another shape).
 */
import { describe, expect, it } from 'vitest';
import { createRazorpayProvider } from '../../core/payments/razorpay.ts';
import { hmacSha256Hex } from '../../core/payments/signatures.ts';

const webhookSecret = 'razorpay-webhook-secret-for-tests';
const razorpay = createRazorpayProvider({
  keyId: 'rzp_test_unit',
  keySecret: 'key-secret',
  webhookSecret,
  apiUrl: 'http://127.0.0.1:9',
});
const payment = { id: 'pay_Unit1', order_id: 'order_Unit1', amount: 299, currency: 'USD', status: 'captured' };

function delivery(event: string, payload: object, eventId = 'evt_unit_1') {
  const body = Buffer.from(JSON.stringify({ entity: 'event', event, payload, created_at: 1_764_288_000 }));
  return {
    body,
    headers: { 'x-razorpay-signature': hmacSha256Hex(webhookSecret, body), 'x-razorpay-event-id': eventId },
  };
}

describe('Razorpay webhooks as outcomes', () => {
  it('payment.captured and order.paid are money taken, with the amount and currency to check', () => {
    for (const event of ['payment.captured', 'order.paid']) {
      const { body, headers } = delivery(event, { payment: { entity: payment } });
      expect(razorpay.readWebhook(body, headers)).toEqual({
        ok: true,
        eventId: 'evt_unit_1',
        outcome: {
          kind: 'captured',
          reference: 'order_Unit1',
          paymentId: 'pay_Unit1',
          amountCents: 299,
          currency: 'USD',
        },
      });
    }
  });

  it('payment.failed carries the reason; a captured event whose payment says otherwise is not money', () => {
    const failed = delivery('payment.failed', {
      payment: { entity: { ...payment, status: 'failed', error_description: 'Card declined' } },
    });
    expect(razorpay.readWebhook(failed.body, failed.headers)).toMatchObject({
      ok: true,
      outcome: { kind: 'failed', reference: 'order_Unit1', reason: 'Card declined' },
    });
    const authorised = delivery('payment.captured', { payment: { entity: { ...payment, status: 'authorized' } } });
    expect(razorpay.readWebhook(authorised.body, authorised.headers)).toMatchObject({ outcome: { kind: 'pending' } });
  });

  it('a dispute is a chargeback with its amount and reason; a refund notice is read as refunded', () => {
    const dispute = delivery('payment.dispute.created', {
      payment: { entity: payment },
      dispute: { entity: { id: 'disp_Unit1', amount: 299, currency: 'USD', reason_code: 'chargeback_fraud' } },
    });
    expect(razorpay.readWebhook(dispute.body, dispute.headers)).toMatchObject({
      ok: true,
      outcome: {
        kind: 'disputed',
        reference: 'order_Unit1',
        disputeId: 'disp_Unit1',
        amountCents: 299,
        currency: 'USD',
        reason: 'chargeback_fraud',
      },
    });
    const refund = delivery('refund.processed', {
      payment: { entity: payment },
      refund: { entity: { id: 'rfnd_Unit1', payment_id: 'pay_Unit1', amount: 100 } },
    });
    expect(razorpay.readWebhook(refund.body, refund.headers)).toMatchObject({
      outcome: { kind: 'refunded', refundId: 'rfnd_Unit1', amountCents: 100 },
    });
  });

  it('refuses a wrong signature, an unconfigured secret and a signed body of another shape', () => {
    const { body, headers } = delivery('payment.captured', { payment: { entity: payment } });
    expect(razorpay.readWebhook(body, { ...headers, 'x-razorpay-signature': '0'.repeat(64) })).toEqual({
      ok: false,
      reason: 'Invalid webhook signature',
    });
    const withoutSecret = createRazorpayProvider({ keyId: 'k', keySecret: 's', apiUrl: 'http://127.0.0.1:9' });
    expect(withoutSecret.acceptsWebhooks).toBe(false);
    expect(withoutSecret.readWebhook(body, headers)).toMatchObject({ ok: false });
    const odd = delivery('payment.captured', { payment: { entity: { ...payment, amount: '299' } } });
    expect(razorpay.readWebhook(odd.body, odd.headers)).toEqual({ ok: false, reason: 'Unexpected webhook payload' });
    // An event about something else (a subscription, a test ping) is not ours to act on.
    const other = delivery('subscription.charged', {});
    expect(razorpay.readWebhook(other.body, other.headers)).toMatchObject({ ok: true, outcome: { kind: 'not_ours' } });
  });
});
