import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { maskEmail, providerOrderIdFrom, publicOrderId } from '../../core/orders/types.ts';
import {
  isValidPaymentSignature,
  isValidWebhookSignature,
  paymentSignature,
  sameHex,
} from '../../core/payments/signatures.ts';
import { pageCsp } from '../../server/security.ts';

describe('page CSP', () => {
  it('allows only our scripts and this response’s nonce', () => {
    const csp = pageCsp('abc');
    expect(csp).toContain("script-src 'self' 'nonce-abc'");
    expect(csp).not.toContain('razorpay');
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('opens Razorpay’s checkout hosts only when asked', () => {
    const csp = pageCsp('abc', { razorpayCheckout: true });
    expect(csp).toContain("script-src 'self' 'nonce-abc' https://checkout.razorpay.com");
    expect(csp).toContain('frame-src https://api.razorpay.com https://checkout.razorpay.com');
  });
});

describe('Razorpay signature rules', () => {
  it('signs order_id|payment_id with the key secret', () => {
    const signature = paymentSignature('secret', 'order_test', 'pay_test');
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(isValidPaymentSignature('secret', 'order_test', 'pay_test', signature)).toBe(true);
    expect(isValidPaymentSignature('secret', 'order_test', 'pay_other', signature)).toBe(false);
    expect(isValidPaymentSignature('other', 'order_test', 'pay_test', signature)).toBe(false);
    expect(isValidPaymentSignature('secret', 'order_test', 'pay_test', signature.toUpperCase())).toBe(true);
  });

  it('treats malformed signatures as unequal without throwing', () => {
    expect(sameHex('abcd', 'abc')).toBe(false);
    expect(sameHex('abcd', 'zzzz')).toBe(false);
    expect(sameHex('abcd', '')).toBe(false);
  });

  it('signs webhook bodies byte for byte', () => {
    const body = '{"event":"payment.captured"}';
    const signature = createHmac('sha256', 'whsec').update(body).digest('hex');
    expect(isValidWebhookSignature('whsec', Buffer.from(body), signature)).toBe(true);
    expect(isValidWebhookSignature('whsec', Buffer.from(`${body} `), signature)).toBe(false);
  });
});

describe('order ids and masking', () => {
  it('drops and restores the order_ prefix', () => {
    expect(publicOrderId('order_Abc123')).toBe('Abc123');
    expect(providerOrderIdFrom('Abc123')).toBe('order_Abc123');
    expect(providerOrderIdFrom('order_Abc123')).toBe('order_Abc123');
  });

  it('masks e-mails on the public confirmation page, the domain too: the first letters and the TLD stay', () => {
    expect(maskEmail('john.doe@gmail.com')).toBe('jo•••@g•••.com');
    expect(maskEmail('john.doe@mail.company.co.uk')).toBe('jo•••@m•••.uk');
    expect(maskEmail('ab@example.com')).toBe('a•••@e•••.com');
    expect(maskEmail('a@example.com')).toBe('a•••@e•••.com');
    expect(maskEmail('root@localhost')).toBe('ro•••@l•••');
    // Neither the length of the address nor any letter past the first ones shows.
    expect(maskEmail('averyveryverylongname@example.org')).toBe('av•••@e•••.org');
    expect(maskEmail('😀😀😀😀@example.com')).toBe('😀😀•••@e•••.com');
    expect(maskEmail('broken')).toBe('•••');
    expect(maskEmail('nobody@')).toBe('•••');
  });
});
