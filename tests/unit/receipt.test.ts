import { describe, expect, it } from 'vitest';
import { escapeHtml, renderReceipt } from '../../core/mail/templates/receipt.ts';

const order = {
  orderNumber: 'BST-10042',
  serviceName: 'Instagram Followers',
  target: 'boostly.demo',
  quantity: 1000,
  amountText: '$2.99',
  trackingUrl: 'http://localhost:3000/order/BST-10042?email=ana%40example.com&x=1',
  email: 'ana@example.com',
};

describe('renderReceipt', () => {
  it('has the subject line', () => {
    expect(renderReceipt(order).subject).toBe('Your Boostly order BST-10042 is confirmed');
  });

  it('puts the same facts in the HTML and the text part', () => {
    const { html, text } = renderReceipt(order);
    for (const part of [html, text]) {
      expect(part).toContain('Boostly');
      expect(part).toContain('BST-10042');
      expect(part).toContain('Instagram Followers');
      expect(part).toContain('boostly.demo');
      expect(part).toContain('1,000');
      expect(part).toContain('$2.99');
      expect(part).toContain('ana@example.com');
      expect(part).toContain('Track your order');
      expect(part).toMatch(/24-72 hours/);
      expect(part).toMatch(/gradual/i);
      expect(part).toMatch(/support/i);
    }
    expect(text).toContain(order.trackingUrl);
    expect(html).toContain(`href="${order.trackingUrl.replace('&', '&amp;')}"`);
    expect(html).toContain('href="http://localhost:3000/contact"');
    expect(text).toContain('http://localhost:3000/contact');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('<table role="presentation"');
    expect(text).not.toMatch(/<[a-z]/i);
  });

  it('escapes every interpolated value in the HTML', () => {
    const evil = {
      orderNumber: 'BST-1<img src=x onerror=alert(1)>',
      serviceName: 'Followers & "Likes"',
      target: '<script>alert("x")</script>',
      quantity: 50,
      amountText: "<b>$1</b>'",
      trackingUrl: 'https://boostly.example/order/1?a="><script>alert(2)</script>',
      email: '"><svg onload=alert(3)>@example.com',
    };
    const { html, text, subject } = renderReceipt(evil);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<svg');
    expect(html).not.toContain('<b>$1</b>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('Followers &amp; &quot;Likes&quot;');
    expect(html).toContain('&lt;b&gt;$1&lt;/b&gt;&#39;');
    // The plain-text part carries the values verbatim (it is never rendered as HTML).
    expect(text).toContain('<script>alert("x")</script>');
    expect(subject).toBe('Your Boostly order BST-1<img src=x onerror=alert(1)> is confirmed');
  });

  it('never links to a non-http(s) URL and keeps the subject on one line', () => {
    const { html, text, subject } = renderReceipt({
      ...order,
      orderNumber: 'A\r\nBcc: x@y.z',
      trackingUrl: 'javascript:alert(1)',
    });
    expect(html).not.toContain('javascript:');
    expect(html).toContain('href="#"');
    expect(text).not.toContain('javascript:');
    expect(subject).toBe('Your Boostly order A Bcc: x@y.z is confirmed');
  });

  it('escapeHtml escapes the five special characters and the backtick', () => {
    expect(escapeHtml(`<a href="x" title='y'>&\`</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&#96;&lt;/a&gt;',
    );
    expect(escapeHtml(42)).toBe('42');
  });
});
