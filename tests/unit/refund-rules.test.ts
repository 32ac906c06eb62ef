import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderRefundAddressRequest, renderRefunded } from '../../core/mail/templates/refund.ts';
import { RefundAddressBodySchema } from '../../core/orders/refund-contracts.ts';
import {
  REFUND_ADDRESS_MAX_LENGTH,
  REFUND_ADDRESS_MIN_LENGTH,
  REFUND_FORM_MESSAGES,
  refundAddressError,
} from '../../core/orders/refund-rules.ts';
import { FORM_TEXT_PIECES, aroundLimit, schemaVerdict, textOf } from '../support/form-check.ts';

/**
 * The refund page checks the wallet address in the browser without zod (core/orders/refund-rules.ts);
 * `POST /api/refunds/address` checks it with `RefundAddressBodySchema`. The two give the same
 * verdict and the same message on hand-picked and generated input. And the refund e-mails say
 * what was refunded, why, and where the link goes, with every value escaped.
 */

const TOKEN = 'T'.repeat(32);

function schemaMessage(address: string): string | undefined {
  const verdict = schemaVerdict(RefundAddressBodySchema, { token: TOKEN, address }, ['address']);
  return verdict.ok ? undefined : verdict.errors.address;
}

describe('the wallet address check', () => {
  it('accepts real addresses and refuses what is not one, with the reason', () => {
    for (const address of [
      'bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh',
      '0x71C7656EC7ab88b098defB751B7401B5f6d8976F',
      'bitcoincash:qpm2qsznhks23z7629mms6s4cwef74vcwvy22gdx6a',
      '  TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE  ',
    ]) {
      expect(refundAddressError(address), address).toBeUndefined();
      expect(schemaMessage(address), address).toBeUndefined();
    }
    const refused: [string, string][] = [
      ['', REFUND_FORM_MESSAGES.addressRequired],
      ['   ', REFUND_FORM_MESSAGES.addressRequired],
      ['bc1qxy2kgdyg', REFUND_FORM_MESSAGES.addressTooShort],
      ['a'.repeat(REFUND_ADDRESS_MAX_LENGTH + 1), REFUND_FORM_MESSAGES.addressTooLong],
      ['bc1qxy2kgdygjrsq tzq2n0yrf2493p83kkfjhx0wlh', REFUND_FORM_MESSAGES.addressCharacters],
      ['<script>alert(1)</script>xxxxxxxx', REFUND_FORM_MESSAGES.addressCharacters],
    ];
    for (const [address, message] of refused) {
      expect(refundAddressError(address), address).toBe(message);
      expect(schemaMessage(address), address).toBe(message);
    }
  });

  it('agrees with the API schema on generated input', () => {
    const pieces = [...FORM_TEXT_PIECES, ':', 'ü', '😀', 'bc1q'];
    fc.assert(
      fc.property(
        fc.oneof(
          textOf(pieces, 40),
          aroundLimit(REFUND_ADDRESS_MIN_LENGTH),
          aroundLimit(REFUND_ADDRESS_MAX_LENGTH),
          fc.string({ maxLength: 130 }),
        ),
        (address) => {
          expect(refundAddressError(address)).toBe(schemaMessage(address));
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('the refund e-mails', () => {
  it('says what was refunded and the owner reason, escaped', () => {
    const mail = renderRefunded({
      orderNumber: 'AbC123',
      serviceName: 'Instagram Followers',
      amountText: '$4.99',
      kind: 'owner',
      reason: 'Sorry <b>for the wait</b>',
      toWallet: false,
      trackingUrl: 'https://shop.example/order-confirm/AbC123',
      email: 'buyer@example.com',
    });
    expect(mail.subject).toBe('Your Boostly order AbC123: $4.99 refunded');
    expect(mail.text).toContain('We refunded $4.99 for your order AbC123.');
    expect(mail.text).toContain('Sorry <b>for the wait</b>');
    expect(mail.html).toContain('Sorry &lt;b&gt;for the wait&lt;/b&gt;');
    expect(mail.text).toContain('5-7 working days');

    const second = renderRefunded({
      orderNumber: 'AbC123',
      serviceName: 'Instagram Followers',
      amountText: '$4.99',
      kind: 'extra',
      reason: null,
      toWallet: true,
      trackingUrl: 'https://shop.example/order-confirm/AbC123',
      email: 'buyer@example.com',
    });
    expect(second.text).toContain('was paid twice, so we refunded the second payment of $4.99');
    expect(second.text).not.toContain('Reason');
    expect(second.text).toContain('wallet address you gave us');
  });

  it('links to the single-use refund page', () => {
    const mail = renderRefundAddressRequest({
      orderNumber: 'AbC123',
      serviceName: 'Instagram Followers',
      amountText: '$9.50',
      refundUrl: 'https://shop.example/refund/tok_abcdefghijklmnopqrstuvwxyz',
      email: 'buyer@example.com',
    });
    expect(mail.subject).toBe('Your Boostly order AbC123: tell us where to send your refund');
    expect(mail.html).toContain('href="https://shop.example/refund/tok_abcdefghijklmnopqrstuvwxyz"');
    expect(mail.text).toContain('We are refunding $9.50 for your order AbC123.');
  });
});
