import { describe, expect, it } from 'vitest';
import { renderStatusUpdate } from '../../core/mail/templates/status-update.ts';

const base = {
  orderNumber: 'Abc123',
  serviceName: 'Automatic Instagram Likes',
  target: 'some.user',
  quantity: 100,
  remains: null,
  refundText: null,
  trackingUrl: 'https://store.example/order-confirm/Abc123',
  email: 'buyer@example.com',
};
const likes = {
  coverage: 'up to 30 new posts, 100 likes each, until 27 Dec 2026',
  postsServed: 12,
  posts: 30,
  endReason: null,
};

describe('the status e-mail of automatic likes', () => {
  it('speaks of posts served, never of likes "delivered" out of one post\'s quantity', () => {
    const done = renderStatusUpdate({ ...base, status: 'Completed', automaticLikes: likes });
    expect(done.subject).toBe('Your Boostly order Abc123 has ended');
    expect(done.text).toContain('12 of 30 posts got their likes');
    expect(done.text).not.toContain('All 100');
    const running = renderStatusUpdate({ ...base, status: 'In Progress', automaticLikes: likes });
    expect(running.text).toContain('up to 30 new posts, 100 likes each, until 27 Dec 2026');
  });

  it('says why it ended early and what is refunded for the unused part', () => {
    const ended = renderStatusUpdate({
      ...base,
      status: 'Partial',
      refundText: '$6.80',
      automaticLikes: { ...likes, endReason: 'Cancelled by the customer' },
    });
    expect(ended.text).toContain('(cancelled by the customer)');
    expect(ended.text).toContain('We are refunding $6.80 for the part of the period that was not used.');
    expect(ended.text).toContain('12 of 30');
  });

  it('keeps the one-off words for a package', () => {
    const partial = renderStatusUpdate({ ...base, serviceName: 'Instagram Followers', status: 'Partial', remains: 40 });
    expect(partial.text).toContain('We could deliver 60 of 100');
  });
});
