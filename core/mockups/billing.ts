/**
 * The billing form of the /payment preview (spec "Static mock-ups": bill type, country, full
 * name, address, e-mail, phone with its country code, zip, the terms and privacy boxes, and the
 * different-billing-information toggle). Which fields are asked depends on what was chosen (a
 * corporate bill asks the company name; the toggle asks a second address; some countries have
 * no postal code; the phone is checked for its chosen country), so the schema is built from the
 * submitted values: every field then carries its own rule and the form shows every error at
 * once. Nothing here is sent anywhere (docs/decisions/028-mock-up-pages.md). Browser-safe.
 */
import { z } from 'zod';
import { requiredEmail, requiredText, safeText } from '../form-fields.ts';
import { countryByCode } from './countries.ts';
import { PAYMENT_METHODS, type PaymentMethodId } from './payment-methods.ts';
import { checkPhoneNumber, phoneCountryByCode } from './phone.ts';
import { isPostalCodeFor, postalCodeExample, postalCodeRequired } from './postal-codes.ts';

const BILL_TYPES = ['individual', 'corporate'] as const;

export const BILLING_LIMITS = { name: 100, company: 120, taxId: 30, address: 200, email: 254, phone: 30 } as const;

export const BILLING_MESSAGES = {
  method: 'Choose a payment method',
  billType: 'Choose Individual or Corporate',
  companyName: 'Company name is required',
  country: 'Country is required',
  fullName: 'Full name is required',
  address: 'Address is required',
  emailRequired: 'Email is required',
  emailInvalid: 'Enter a valid e-mail address, like name@example.com',
  phoneCountry: 'Choose the country code of your phone number',
  phoneRequired: 'Phone number is required',
  zipRequired: 'Zip code is required',
  terms: 'Accept the Terms of Service to continue',
  privacy: 'Accept the Privacy Policy to continue',
} as const;

/** "Enter a valid phone number for United Kingdom (+44)" and its variants. */
function phoneMessage(reason: 'unparseable' | 'other-country' | 'invalid', countryCode: string): string {
  const country = phoneCountryByCode(countryCode);
  const where = country ? `${country.name} (+${country.callingCode})` : 'the chosen country';
  return reason === 'other-country'
    ? `This number has another country's code: choose its country code, or enter a number for ${where}`
    : `Enter a valid phone number for ${where}`;
}

function zipMessage(countryCode: string | undefined): string {
  const example = postalCodeExample(countryCode);
  const name = countryByCode(countryCode)?.name;
  return example && name
    ? `Enter a valid zip or postal code for ${name}, like ${example}`
    : 'Enter a valid zip or postal code: letters and numbers, 2 to 10 characters';
}

const METHOD_IDS = PAYMENT_METHODS.map((method) => method.id) as [PaymentMethodId, ...PaymentMethodId[]];

function countryField() {
  return z
    .string({ error: BILLING_MESSAGES.country })
    .refine((code) => countryByCode(code) !== undefined, { error: BILLING_MESSAGES.country });
}

function zipField(countryCode: string | undefined) {
  const check = z
    .string()
    .trim()
    .refine((zip) => isPostalCodeFor(countryCode, zip), { error: zipMessage(countryCode) });
  return postalCodeRequired(countryCode)
    ? requiredText(BILLING_MESSAGES.zipRequired).pipe(check)
    : z.string().trim().pipe(check).optional();
}

/** The submitted values the form's shape depends on. */
interface BillingShape {
  corporate: boolean;
  differentBilling: boolean;
  country: string | undefined;
  billingCountry: string | undefined;
  phoneCountry: string | undefined;
}

/** Reads the discriminating values from what was submitted (FormData entries or a plain object). */
export function billingShapeOf(values: Readonly<Record<string, unknown>>): BillingShape {
  const text = (key: string) => {
    const value = values[key];
    return typeof value === 'string' ? value : undefined;
  };
  return {
    corporate: text('billType') === 'corporate',
    differentBilling: text('differentBilling') === 'on' || values['differentBilling'] === true,
    country: text('country'),
    billingCountry: text('billingCountry'),
    phoneCountry: text('phoneCountry'),
  };
}

/** The billing form's boxes: ticked reads as true. */
const BILLING_CHECKBOXES: ReadonlySet<string> = new Set(['acceptTerms', 'acceptPrivacy', 'differentBilling']);

/**
 * The billing form's fields as its schema reads them: an empty field is absent (so a missing one
 * gets its "required" message) and a ticked box ("on") is true.
 */
export function billingInputOf(values: Readonly<Record<string, string>>): Record<string, string | boolean> {
  const input: Record<string, string | boolean> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value !== '') input[name] = BILLING_CHECKBOXES.has(name) ? value === 'on' : value;
  }
  return input;
}

/** The billing form's schema for what was chosen (see the file comment). */
export function billingFormSchema(shape: BillingShape) {
  const phoneCountry = shape.phoneCountry;
  const base = z.object({
    method: z.enum(METHOD_IDS, { error: BILLING_MESSAGES.method }),
    billType: z.enum(BILL_TYPES, { error: BILLING_MESSAGES.billType }),
    country: countryField(),
    fullName: requiredText(BILLING_MESSAGES.fullName).pipe(safeText(BILLING_LIMITS.name)),
    address: requiredText(BILLING_MESSAGES.address).pipe(safeText(BILLING_LIMITS.address)),
    email: requiredEmail({ required: BILLING_MESSAGES.emailRequired, invalid: BILLING_MESSAGES.emailInvalid }),
    phoneCountry: z
      .string({ error: BILLING_MESSAGES.phoneCountry })
      .refine((code) => phoneCountryByCode(code) !== undefined, { error: BILLING_MESSAGES.phoneCountry }),
    phone: requiredText(BILLING_MESSAGES.phoneRequired)
      .pipe(safeText(BILLING_LIMITS.phone))
      .transform((number, context) => {
        // Without a valid country code the phone country's own message says what to do.
        if (!phoneCountry || !phoneCountryByCode(phoneCountry)) return number;
        const check = checkPhoneNumber(number, phoneCountry);
        if (check.valid) return check.international;
        context.addIssue({ code: 'custom', message: phoneMessage(check.reason, phoneCountry) });
        return z.NEVER;
      }),
    zip: zipField(shape.country),
    acceptTerms: z.literal(true, { error: BILLING_MESSAGES.terms }),
    acceptPrivacy: z.literal(true, { error: BILLING_MESSAGES.privacy }),
    differentBilling: z.boolean().optional(),
  });
  return base.extend({
    companyName: asked(
      shape.corporate,
      requiredText(BILLING_MESSAGES.companyName).pipe(safeText(BILLING_LIMITS.company)),
    ),
    taxId: asked(shape.corporate, safeText(BILLING_LIMITS.taxId).trim().optional()),
    billingName: asked(
      shape.differentBilling,
      requiredText(BILLING_MESSAGES.fullName).pipe(safeText(BILLING_LIMITS.name)),
    ),
    billingAddress: asked(
      shape.differentBilling,
      requiredText(BILLING_MESSAGES.address).pipe(safeText(BILLING_LIMITS.address)),
    ),
    billingCountry: asked(shape.differentBilling, countryField()),
    billingZip: asked(shape.differentBilling, zipField(shape.billingCountry)),
  });
}

/**
 * A field asked only for some choices (the company name of a corporate bill, the second address):
 * its rule when asked; otherwise whatever was sent is ignored (undefined), so one schema type
 * covers every shape of the form.
 */
function asked<T extends z.ZodType<string | undefined, unknown>>(isAsked: boolean, schema: T) {
  const ignored = z
    .unknown()
    .optional()
    .transform((): string | undefined => undefined);
  return (isAsked ? schema : ignored) as z.ZodType<string | undefined, unknown>;
}

export type BillingFormValue = z.output<ReturnType<typeof billingFormSchema>>;
