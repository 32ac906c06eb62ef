/**
 * The free-followers mock-up's rules (docs/decisions/028-mock-up-pages.md), checked the way the
 * page checks them: its two texts through its plain check.
 */
import { describe, expect, it } from 'vitest';
import { FREE_FOLLOWERS_MESSAGES, FREE_TRIAL_PACKAGES, checkFreeFollowers } from '../../core/mockups/free-followers.ts';

/** The free-followers check (plain code, decision 036), its errors listed per field. */
function freeFollowers(values: { username: string; quantity: string }) {
  const check = checkFreeFollowers(values);
  if (check.ok) return { value: check.value };
  return { errors: Object.fromEntries(Object.entries(check.errors).map(([field, message]) => [field, [message]])) };
}

describe('free followers form', () => {
  it('takes a username (an @ and a profile URL too) and a whole number from 10 to 350000', () => {
    expect(freeFollowers({ username: '@Some.User', quantity: '15,000' })).toEqual({
      value: { username: 'some.user', quantity: 15000 },
    });
    expect(freeFollowers({ username: 'https://instagram.com/someone/', quantity: '10' })).toEqual({
      value: { username: 'someone', quantity: 10 },
    });
    expect(freeFollowers({ username: 'a_b', quantity: '350000' }).value?.quantity).toBe(350000);
  });

  it('gives one message per field: required, username shape, whole number, range', () => {
    expect(freeFollowers({ username: ' ', quantity: '' }).errors).toEqual({
      username: [FREE_FOLLOWERS_MESSAGES.usernameRequired],
      quantity: [FREE_FOLLOWERS_MESSAGES.quantityRequired],
    });
    for (const username of ['a..b', '.dot', 'has space', 'x'.repeat(31), 'émile']) {
      expect(freeFollowers({ username, quantity: '100' }).errors, username).toEqual({
        username: [FREE_FOLLOWERS_MESSAGES.usernameInvalid],
      });
    }
    for (const quantity of ['1.5', '-20', '1e3', 'ten', '12,34']) {
      expect(freeFollowers({ username: 'ok', quantity }).errors, quantity).toEqual({
        quantity: [FREE_FOLLOWERS_MESSAGES.quantityWhole],
      });
    }
    for (const quantity of ['9', '0', '350001', '1,000,000']) {
      expect(freeFollowers({ username: 'ok', quantity }).errors, quantity).toEqual({
        quantity: [FREE_FOLLOWERS_MESSAGES.quantityRange],
      });
    }
  });

  it('lists packages from 100 to 15000 followers, priced in rupees', () => {
    expect(FREE_TRIAL_PACKAGES[0]?.qty).toBe(100);
    expect(FREE_TRIAL_PACKAGES.at(-1)?.qty).toBe(15000);
    for (const pkg of FREE_TRIAL_PACKAGES) expect(Number.isInteger(pkg.priceInr) && pkg.priceInr > 0).toBe(true);
  });
});
