/**
 * Real reviews for the end-to-end suites (decision 039): a sandbox purchase through the API, the
 * simulated panel completes it (within seconds, playwright.config.ts), and the completion e-mail
 * the SMTP sink caught carries the single-use review link.
 */
import { type APIRequestContext, expect } from '@playwright/test';
import { clientAddress } from './admin.ts';
import { sentTo, waitForMail } from './mail.ts';
import { paidFollowersOrder } from './order.ts';

/** The review page's path (`/review/<token>`) from the completion e-mail sent to `email`. */
export async function reviewPathFromMail(email: string, timeoutMs = 60_000): Promise<string> {
  const mail = await waitForMail((m) => sentTo(m, email) && /is complete/.test(m.subject), timeoutMs);
  const link = /https?:\/\/\S+?\/review\/[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];
  expect(link, `a review link in the completion e-mail:\n${mail.text}`).toBeTruthy();
  return new URL(link ?? '').pathname;
}

/**
 * `count` approved reviews of completed orders, as customers and an admin make them: purchases,
 * the completion e-mails' links, submits and approvals through the API. For suites that need the
 * home page's carousel (it shows nothing without approved reviews).
 */
export async function approvedReviews(
  request: APIRequestContext,
  adminBearer: string,
  count: number,
): Promise<string[]> {
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const emails = Array.from({ length: count }, (_, i) => `carousel-${suffix}-${i}@example.com`);
  await Promise.all(emails.map((email) => paidFollowersOrder(request, email)));
  const texts: string[] = [];
  for (const [index, email] of emails.entries()) {
    const token = (await reviewPathFromMail(email)).split('/').pop();
    const text = `Review ${index + 1} of ${count}: the followers arrived as promised (${suffix}).`;
    const sent = await request.post('/api/reviews', {
      headers: { 'x-forwarded-for': clientAddress() },
      data: { token, rating: 5 - (index % 2), text, name: `Customer ${index + 1}` },
    });
    expect(sent.status(), await sent.text()).toBe(201);
    texts.push(text);
  }
  const headers = { authorization: `Bearer ${adminBearer}`, 'x-forwarded-for': clientAddress() };
  const list = await request.get('/api/admin/reviews?status=pending&size=100', { headers });
  expect(list.status(), await list.text()).toBe(200);
  const rows = ((await list.json()) as { data: { id: number; text: string }[] }).data.filter((row) =>
    row.text.includes(suffix),
  );
  expect(rows).toHaveLength(count);
  for (const row of rows) {
    const approved = await request.post(`/api/admin/reviews/${row.id}/approve`, { headers });
    expect(approved.status(), await approved.text()).toBe(200);
  }
  return texts;
}
