/** The payload schemas the API routes and the browser forms share (core/orders, core/auth contracts). */
import { describe, expect, it } from 'vitest';
import { AdminLoginPayload, AdminOtpPayload } from '../../core/auth/contracts.ts';
import { HistoryCodePayload, HistoryLookupPayload } from '../../core/orders/contracts.ts';
import { orderFormSchema, validateOrderForm } from '../../core/orders/validation.ts';

const messagesOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]);

describe('order form schema', () => {
  const instagram = { targetKind: 'instagram_username', commentRequired: false } as const;
  const youtube = { targetKind: 'youtube_video_url', commentRequired: false } as const;
  const comments = { targetKind: 'instagram_post_url', commentRequired: true } as const;

  it('gives each field one spec message at a time', () => {
    expect(validateOrderForm({ name: ' ', email: '' }, instagram)).toEqual({
      name: 'Name is required',
      email: 'Email is required',
    });
    expect(validateOrderForm({ name: '', email: 'nope' }, youtube)).toEqual({
      name: 'YouTube URL is required',
      email: 'Invalid email format',
    });
    expect(validateOrderForm({ name: 'someone', email: 'a@example.com', comment: '  ' }, comments)).toEqual({
      comment: 'Comments is required',
    });
    expect(validateOrderForm({ name: 'someone', email: 'a@example.com' }, instagram)).toEqual({});
  });

  it('trims what it accepts', () => {
    expect(orderFormSchema(instagram).parse({ name: ' someone ', email: ' a@example.com ' })).toEqual({
      name: 'someone',
      email: 'a@example.com',
    });
  });
});

describe('order history payloads', () => {
  it.each([
    [{}, [['email', 'Email is required']]],
    [{ email: '   ' }, [['email', 'Email is required']]],
    [{ email: 'a@b' }, [['email', 'Invalid email']]],
    [{ email: `${'x'.repeat(250)}@example.com` }, [['email', 'Invalid email']]],
    [{ email: 'someone@example.com' }, []],
  ])('code request %j → %j', (payload, expected) => {
    expect(messagesOf(HistoryCodePayload.safeParse(payload))).toEqual(expected);
  });

  it.each([
    [{ email: 'a@example.com' }, [['code', 'Code is required']]],
    [{ email: 'a@example.com', code: '' }, [['code', 'Code is required']]],
    [{ email: 'a@example.com', code: '12345' }, [['code', 'The code has 6 digits']]],
    [{ email: 'a@example.com', code: 'abcdef' }, [['code', 'The code has 6 digits']]],
    [{ code: '123456' }, [['email', 'Email is required']]],
  ])('lookup %j → %j', (payload, expected) => {
    expect(messagesOf(HistoryLookupPayload.safeParse(payload))).toEqual(expected);
  });

  it('takes the code as text or number, without spaces', () => {
    expect(HistoryLookupPayload.parse({ email: 'a@example.com', code: ' 123 456 ' }).code).toBe('123456');
    expect(HistoryLookupPayload.parse({ email: 'a@example.com', code: 654321 }).code).toBe('654321');
  });
});

describe('admin login payloads', () => {
  it('needs both an e-mail and a password, each with its message', () => {
    expect(messagesOf(AdminLoginPayload.safeParse({}))).toEqual([
      ['email', 'Email is required'],
      ['password', 'Password is required'],
    ]);
    // Any address is tried: a malformed one is an unknown account (401), not a hint.
    expect(AdminLoginPayload.safeParse({ email: 'nope', password: 'x' }).success).toBe(true);
  });

  it('checks the code step like the order history', () => {
    expect(messagesOf(AdminOtpPayload.safeParse({ email: 'a@example.com', otp: '12' }))).toEqual([
      ['otp', 'The code has 6 digits'],
    ]);
  });
});
