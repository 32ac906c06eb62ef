/**
 * The mock-up forms' rules (docs/decisions/028-mock-up-pages.md), parsed the way the pages parse
 * them: the billing form's fields through `billingInputOf` (empty fields are missing, a ticked box
 * "on" is true) into its schema; the free-followers form's two texts through its plain check.
 */
import { describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, billingFormSchema, billingInputOf, billingShapeOf } from '../../core/mockups/billing.ts';
import { COUNTRIES } from '../../core/mockups/countries.ts';
import { FREE_FOLLOWERS_MESSAGES, FREE_TRIAL_PACKAGES, checkFreeFollowers } from '../../core/mockups/free-followers.ts';
import {
  PAYMENT_METHODS,
  SAMPLE_ORDER,
  adjustmentLabel,
  formatSampleAmount,
  methodTotal,
} from '../../core/mockups/payment-methods.ts';
import { PHONE_COUNTRIES, checkPhoneNumber, searchPhoneCountries } from '../../core/mockups/phone.ts';

/** The free-followers check (plain code, decision 036), its errors listed per field as the billing check lists them. */
function freeFollowers(values: { username: string; quantity: string }) {
  const check = checkFreeFollowers(values);
  if (check.ok) return { value: check.value };
  return { errors: Object.fromEntries(Object.entries(check.errors).map(([field, message]) => [field, [message]])) };
}

/** The billing check as the page runs it: each field's messages, or the parsed value. */
function billing(values: Record<string, string>) {
  const result = billingFormSchema(billingShapeOf(values)).safeParse(billingInputOf(values));
  if (result.success) return { value: result.data };
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) (errors[issue.path.map(String).join('.')] ??= []).push(issue.message);
  return { errors };
}

const VALID_BILLING = {
  method: 'cryptomus',
  billType: 'individual',
  country: 'GB',
  fullName: 'Ann Example',
  address: '1 High Street, London',
  email: 'ann@example.com',
  phoneCountry: 'GB',
  phone: '020 7946 0958',
  zip: 'SW1A 1AA',
  acceptTerms: 'on',
  acceptPrivacy: 'on',
};

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

describe('payment methods', () => {
  it('has a crypto gateway at 5% off, two gateways at list price and a 3-D Secure card at 5% more', () => {
    expect(PAYMENT_METHODS.map((method) => [method.id, method.adjustmentPercent])).toEqual([
      ['cryptomus', -5],
      ['razorpay', 0],
      ['paypal', 0],
      ['card-3ds', 5],
    ]);
    expect(PAYMENT_METHODS.map(adjustmentLabel)).toEqual(['5% discount', 'No discount', 'No discount', '5% surcharge']);
  });

  it('prices the sample order: the adjustment rounded half up to whole cents, the lines adding up', () => {
    const totals = PAYMENT_METHODS.map((method) => methodTotal(SAMPLE_ORDER.subtotalE4, method));
    expect(totals.map((total) => formatSampleAmount(total.totalE4))).toEqual(['$12.34', '$12.99', '$12.99', '$13.64']);
    expect(totals[0]).toEqual({ subtotalE4: 129_900, adjustmentE4: -6_500, totalE4: 123_400 });
    // 5% of $10.10 is 50.5 cents: half up to 51.
    expect(methodTotal(101_000, { adjustmentPercent: 5 })).toEqual({
      subtotalE4: 101_000,
      adjustmentE4: 5_100,
      totalE4: 106_100,
    });
    expect(methodTotal(101_000, { adjustmentPercent: -5 }).totalE4).toBe(95_900);
    expect(methodTotal(101_000, { adjustmentPercent: 0 }).adjustmentE4).toBe(0);
  });
});

describe('countries and phone codes', () => {
  it('takes every country of i18n-iso-countries (249 ISO 3166-1 and Kosovo), by English name', () => {
    expect(COUNTRIES).toHaveLength(250);
    expect(new Set(COUNTRIES.map((country) => country.code)).size).toBe(250);
    expect(COUNTRIES.find((country) => country.code === 'GB')?.name).toBe('United Kingdom');
    expect(COUNTRIES.some((country) => country.code === 'XK')).toBe(true);
    const names = COUNTRIES.map((country) => country.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  });

  it('searches dialling codes by name (accents ignored, any English name) or by +code', () => {
    expect(searchPhoneCountries('+44').map((country) => country.code)).toEqual(['GG', 'IM', 'JE', 'GB']);
    expect(searchPhoneCountries('91').map((country) => country.code)).toEqual(['IN']);
    expect(searchPhoneCountries('cote').map((country) => country.code)).toEqual(['CI']);
    expect(searchPhoneCountries('Ivory Coast').map((country) => country.code)).toEqual(['CI']);
    expect(searchPhoneCountries('  ')).toBe(PHONE_COUNTRIES);
    expect(searchPhoneCountries('+999')).toEqual([]);
    expect(PHONE_COUNTRIES.find((country) => country.code === 'IN')?.callingCode).toBe('91');
  });

  it('checks a number for its chosen country and formats it internationally', () => {
    expect(checkPhoneNumber('020 7946 0958', 'GB')).toMatchObject({ valid: true, international: '+44 20 7946 0958' });
    expect(checkPhoneNumber('98765 43210', 'IN')).toMatchObject({ valid: true, international: '+91 98765 43210' });
    expect(checkPhoneNumber('(201) 555-0123', 'US')).toMatchObject({ valid: true, e164: '+12015550123' });
    expect(checkPhoneNumber('+49 30 123456', 'DE')).toMatchObject({ valid: true, international: '+49 30 123456' });
    expect(checkPhoneNumber('+44 20 7946 0958', 'US')).toEqual({ valid: false, reason: 'other-country' });
    expect(checkPhoneNumber('12345', 'IN')).toEqual({ valid: false, reason: 'invalid' });
    expect(checkPhoneNumber('hello', 'GB')).toEqual({ valid: false, reason: 'unparseable' });
  });
});

describe('billing form', () => {
  it('accepts a complete form and gives the phone formatted', () => {
    expect(billing(VALID_BILLING).value).toMatchObject({
      method: 'cryptomus',
      country: 'GB',
      phone: '+44 20 7946 0958',
      acceptTerms: true,
      acceptPrivacy: true,
    });
  });

  it('names every missing field at once', () => {
    expect(billing({}).errors).toEqual({
      method: [BILLING_MESSAGES.method],
      billType: [BILLING_MESSAGES.billType],
      country: [BILLING_MESSAGES.country],
      fullName: [BILLING_MESSAGES.fullName],
      address: [BILLING_MESSAGES.address],
      email: [BILLING_MESSAGES.emailRequired],
      phoneCountry: [BILLING_MESSAGES.phoneCountry],
      phone: [BILLING_MESSAGES.phoneRequired],
      zip: [BILLING_MESSAGES.zipRequired],
      acceptTerms: [BILLING_MESSAGES.terms],
      acceptPrivacy: [BILLING_MESSAGES.privacy],
    });
  });

  it('refuses an unknown method, country or code, a bad e-mail, and whitespace for text', () => {
    expect(billing({ ...VALID_BILLING, method: 'bank-transfer' }).errors).toEqual({
      method: [BILLING_MESSAGES.method],
    });
    expect(billing({ ...VALID_BILLING, country: 'ZZ' }).errors).toMatchObject({ country: [BILLING_MESSAGES.country] });
    expect(billing({ ...VALID_BILLING, phoneCountry: 'ZZ' }).errors).toEqual({
      phoneCountry: [BILLING_MESSAGES.phoneCountry],
    });
    expect(billing({ ...VALID_BILLING, email: 'ann@example' }).errors).toEqual({
      email: [BILLING_MESSAGES.emailInvalid],
    });
    expect(billing({ ...VALID_BILLING, fullName: '   ', address: ' ' }).errors).toEqual({
      fullName: [BILLING_MESSAGES.fullName],
      address: [BILLING_MESSAGES.address],
    });
  });

  it('checks the phone for the chosen country code', () => {
    expect(billing({ ...VALID_BILLING, phone: '12' }).errors).toEqual({
      phone: ['Enter a valid phone number for United Kingdom (+44)'],
    });
    expect(billing({ ...VALID_BILLING, phone: '+1 201 555 0123' }).errors?.phone?.[0]).toMatch(
      /another country's code/,
    );
    expect(billing({ ...VALID_BILLING, phoneCountry: 'IN', phone: '98765 43210' }).value?.phone).toBe(
      '+91 98765 43210',
    );
  });

  it('checks the zip for its country, and does not ask it where there are no postal codes', () => {
    expect(billing({ ...VALID_BILLING, zip: '12345' }).errors).toEqual({
      zip: ['Enter a valid zip or postal code for United Kingdom, like SW1A 1AA'],
    });
    expect(billing({ ...VALID_BILLING, country: 'US', zip: '94103-1234' }).value?.zip).toBe('94103-1234');
    expect(billing({ ...VALID_BILLING, country: 'IN', zip: '11001' }).errors?.zip).toHaveLength(1);
    expect(billing({ ...VALID_BILLING, country: 'PL', zip: '00-950' }).value).toBeDefined();
    expect(billing({ ...VALID_BILLING, country: 'PL', zip: '!' }).errors?.zip).toHaveLength(1);
    const { zip: _zip, ...withoutZip } = VALID_BILLING;
    expect(billing({ ...withoutZip, country: 'AE' }).value).toBeDefined();
    expect(billing({ ...withoutZip, country: 'FR' }).errors).toEqual({ zip: [BILLING_MESSAGES.zipRequired] });
  });

  it('asks a company name of a corporate bill only, the tax id optional', () => {
    expect(billing({ ...VALID_BILLING, billType: 'corporate' }).errors).toEqual({
      companyName: [BILLING_MESSAGES.companyName],
    });
    expect(billing({ ...VALID_BILLING, billType: 'corporate', companyName: 'Acme Ltd' }).value).toMatchObject({
      companyName: 'Acme Ltd',
    });
    // Not asked for an individual: whatever was sent is dropped.
    expect(billing({ ...VALID_BILLING, companyName: 'Stale' }).value?.companyName).toBeUndefined();
  });

  it('asks the second address only when the different-billing box is ticked', () => {
    expect(billing({ ...VALID_BILLING, differentBilling: 'on' }).errors).toEqual({
      billingName: [BILLING_MESSAGES.fullName],
      billingAddress: [BILLING_MESSAGES.address],
      billingCountry: [BILLING_MESSAGES.country],
      billingZip: [BILLING_MESSAGES.zipRequired],
    });
    expect(
      billing({
        ...VALID_BILLING,
        differentBilling: 'on',
        billingName: 'Acme Accounts',
        billingAddress: '5 Main Street',
        billingCountry: 'US',
        billingZip: '1234',
      }).errors,
    ).toEqual({
      billingZip: ['Enter a valid zip or postal code for United States of America, like 94103 or 94103-1234'],
    });
    expect(billing({ ...VALID_BILLING, billingName: 'ignored' }).value?.billingName).toBeUndefined();
  });
});
