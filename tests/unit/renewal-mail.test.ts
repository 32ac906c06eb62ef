import { describe, expect, it } from 'vitest';
import { renderRenewalReminder } from '../../core/subscriptions/renewal-mail.ts';
import { isRenewalTokenShape, newRenewalToken, renewalTokenHash } from '../../core/subscriptions/renewal-tokens.ts';

const mail = {
  orderNumber: 'Abc123',
  serviceName: 'Automatic Instagram Likes',
  kind: 'automatic_likes' as const,
  target: 'some.user',
  coverage: 'up to 30 new posts, 100 likes each, until 27 Dec 2026',
  delivered: 'Likes on 12 of up to 30 new posts',
  endsAt: '2026-12-27T10:00:00.000Z',
  periodDays: 30,
  renewUrl: 'https://store.example/renew/token',
  stopUrl: 'https://store.example/renew/token/stop',
  email: 'buyer@example.com',
};

describe('the renewal reminder e-mail', () => {
  it('says what ends when, what it delivered, and links to renew and to stop the reminders', () => {
    const rendered = renderRenewalReminder(mail);
    expect(rendered.subject).toBe('Your automatic likes for some.user end on 27 Dec 2026');
    for (const part of [rendered.text, rendered.html]) {
      expect(part).toContain('up to 30 new posts, 100 likes each, until 27 Dec 2026');
      expect(part).toContain('Likes on 12 of up to 30 new posts');
      expect(part).toContain('https://store.example/renew/token');
      expect(part).toContain('https://store.example/renew/token/stop');
      expect(part).toContain('Renew for 30 more days');
    }
    expect(rendered.text).toContain('we keep no card on file');
    expect(rendered.text).toContain('Stop renewal reminders: https://store.example/renew/token/stop');
  });

  it('escapes what the customer typed', () => {
    const rendered = renderRenewalReminder({ ...mail, target: '<b>x</b>' });
    expect(rendered.html).not.toContain('<b>x</b>');
    expect(rendered.html).toContain('&lt;b&gt;x&lt;/b&gt;');
  });
});

describe('renewal tokens', () => {
  it('are 43 random base64url characters, stored only as their sha256', () => {
    const a = newRenewalToken();
    const b = newRenewalToken();
    expect(a).not.toBe(b);
    expect(isRenewalTokenShape(a)).toBe(true);
    expect(renewalTokenHash(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(renewalTokenHash(a)).not.toContain(a);
    expect(isRenewalTokenShape(`${a}x`)).toBe(false);
    expect(isRenewalTokenShape('1234567890.abc')).toBe(false);
  });
});
