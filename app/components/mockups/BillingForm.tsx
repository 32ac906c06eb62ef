import { type ReactNode, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import {
  BILLING_LIMITS,
  type BillingFormValue,
  billingFormSchema,
  billingInputOf,
  billingShapeOf,
} from '../../../core/mockups/billing.ts';
import { COUNTRIES, countryByCode } from '../../../core/mockups/countries.ts';
import {
  type PaymentMethod,
  SAMPLE_ORDER,
  formatSampleAmount,
  methodTotal,
} from '../../../core/mockups/payment-methods.ts';
import { postalCodeRequired } from '../../../core/mockups/postal-codes.ts';
import { inputClass, primaryButton } from '../form.tsx';
import { schemaCheck } from '../schema-check.ts';
import { useFormCheck } from '../use-form-check.ts';
import { PhoneField } from './PhoneField.tsx';
import { ErrorSummary, FieldError, FieldLabel, describedBy } from './fields.tsx';

type FieldName = keyof BillingFormValue;

/** The form's fields in its order (the first at fault takes the focus). */
const BILLING_FIELDS = [
  'method',
  'billType',
  'companyName',
  'taxId',
  'country',
  'fullName',
  'address',
  'email',
  'zip',
  'phoneCountry',
  'phone',
  'differentBilling',
  'billingName',
  'billingAddress',
  'billingCountry',
  'billingZip',
  'acceptTerms',
  'acceptPrivacy',
] as const satisfies readonly FieldName[];

/** The schema for what was chosen (a corporate bill, a second address, the countries), on the fields as typed. */
const checkBilling = (values: Record<FieldName, string>) =>
  schemaCheck(billingFormSchema(billingShapeOf(values)), billingInputOf(values));

/**
 * Step 2 of the /payment preview: the billing form (spec "Static mock-ups"). It validates on
 * submit and again as the visitor corrects a field; errors are announced and focus goes to the
 * first invalid field (the store's form style, app/components/use-form-check.ts, decision 052, with
 * the schema itself: this step is loaded lazily, outside the page's first-load budget). A valid submit goes to the sample confirmation: nothing typed
 * here leaves the browser, and nothing is charged (docs/decisions/028-mock-up-pages.md).
 */
export function BillingForm({ method }: { method: PaymentMethod }) {
  const ids = useId();
  const navigate = useNavigate();
  const [corporate, setCorporate] = useState(false);
  const [differentBilling, setDifferentBilling] = useState(false);
  const [country, setCountry] = useState('');
  const [billingCountry, setBillingCountry] = useState('');
  const [attempted, setAttempted] = useState(false);

  const check = useFormCheck({ fields: BILLING_FIELDS, check: checkBilling, validateOn: 'submit' });
  /** Each field's control id and its error's id. */
  const fields = Object.fromEntries(
    BILLING_FIELDS.map((name) => [name, { id: `${ids}-${name}`, name, errorId: `${ids}-${name}-error` }]),
  ) as Record<(typeof BILLING_FIELDS)[number], { id: string; name: string; errorId: string }>;

  const errorOf = (name: (typeof BILLING_FIELDS)[number]): string | undefined => check.errorOf(name);
  const errorCount = BILLING_FIELDS.filter((name) => errorOf(name) !== undefined).length;
  const totals = methodTotal(SAMPLE_ORDER.subtotalE4, method);

  /** A one-line text input with its label, hint and error. */
  const textField = (
    name: FieldName,
    label: ReactNode,
    options: { type?: string; autoComplete?: string; maxLength?: number; hint?: string; inputMode?: 'email' } = {},
  ) => {
    const field = fields[name];
    const error = errorOf(name);
    const hintId = `${field.id}-hint`;
    return (
      <div>
        <FieldLabel htmlFor={field.id}>{label}</FieldLabel>
        <input
          id={field.id}
          name={field.name}
          type={options.type ?? 'text'}
          {...(options.autoComplete ? { autoComplete: options.autoComplete } : {})}
          {...(options.maxLength ? { maxLength: options.maxLength } : {})}
          {...(options.inputMode ? { inputMode: options.inputMode } : {})}
          aria-invalid={!!error}
          aria-describedby={describedBy(options.hint && hintId, error && field.errorId)}
          className={inputClass(!!error)}
        />
        {options.hint ? (
          <p id={hintId} className="mt-1.5 text-sm text-gray-600">
            {options.hint}
          </p>
        ) : null}
        <FieldError id={field.errorId} message={error} testId={`${name}-error`} />
      </div>
    );
  };

  const countrySelect = (name: 'country' | 'billingCountry', value: string, onChange: (code: string) => void) => {
    const field = fields[name];
    const error = errorOf(name);
    return (
      <div>
        <FieldLabel htmlFor={field.id}>Country</FieldLabel>
        <select
          id={field.id}
          name={field.name}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          autoComplete={name === 'country' ? 'country' : 'billing country'}
          aria-invalid={!!error}
          aria-describedby={describedBy(error && field.errorId)}
          className={inputClass(!!error)}
        >
          <option value="">Choose a country</option>
          {COUNTRIES.map((entry) => (
            <option key={entry.code} value={entry.code}>
              {entry.name}
            </option>
          ))}
        </select>
        <FieldError id={field.errorId} message={error} testId={`${name}-error`} />
      </div>
    );
  };

  const zipField = (name: 'zip' | 'billingZip', countryCode: string) => {
    const required = postalCodeRequired(countryCode || undefined);
    const countryName = countryByCode(countryCode)?.name;
    return textField(name, required ? 'Zip code' : 'Zip code (optional)', {
      autoComplete: name === 'zip' ? 'postal-code' : 'billing postal-code',
      maxLength: 10,
      ...(!required && countryName ? { hint: `${countryName} does not use postal codes: leave it empty.` } : {}),
    });
  };

  const checkbox = (name: 'acceptTerms' | 'acceptPrivacy', label: ReactNode) => {
    const field = fields[name];
    const error = errorOf(name);
    return (
      <div>
        <div className="flex items-start gap-3">
          <input
            id={field.id}
            name={field.name}
            type="checkbox"
            aria-invalid={!!error}
            aria-describedby={describedBy(error && field.errorId)}
            className="mt-1 h-5 w-5 shrink-0 accent-brand-700"
          />
          <label htmlFor={field.id} className="text-gray-900">
            {label}
          </label>
        </div>
        <FieldError id={field.errorId} message={error} testId={`${name}-error`} />
      </div>
    );
  };

  const linkClass = 'font-semibold text-brand-700 underline hover:text-brand-800';

  return (
    <form
      id={`${ids}-billing`}
      method="post"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setAttempted(true);
        if (check.submit(event.currentTarget) !== null) {
          void navigate(`/payment/sample-confirmation?method=${encodeURIComponent(method.id)}`);
        }
      }}
      onInput={check.onInput}
      data-testid="billing-form"
      className="space-y-6"
    >
      <input type="hidden" name={fields.method.name} value={method.id} />

      <fieldset>
        <legend className="mb-1.5 font-semibold text-gray-900">Bill type</legend>
        <div className="flex flex-wrap gap-3">
          {(['individual', 'corporate'] as const).map((type) => (
            <label
              key={type}
              className="flex cursor-pointer items-center gap-2 rounded-xl border-2 border-gray-200 px-4 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
            >
              <input
                type="radio"
                name={fields.billType.name}
                value={type}
                defaultChecked={type === 'individual'}
                onChange={() => setCorporate(type === 'corporate')}
                className="h-4 w-4 accent-brand-700"
              />
              {type === 'individual' ? 'Individual' : 'Corporate'}
            </label>
          ))}
        </div>
        <FieldError id={fields.billType.errorId} message={errorOf('billType')} testId="billType-error" />
      </fieldset>

      {corporate ? (
        <div className="grid gap-4 sm:grid-cols-2" data-testid="corporate-fields">
          {textField('companyName', 'Company name', {
            autoComplete: 'organization',
            maxLength: BILLING_LIMITS.company,
          })}
          {textField('taxId', 'Tax ID (optional)', {
            autoComplete: 'off',
            maxLength: BILLING_LIMITS.taxId,
            hint: 'VAT, GST or EIN, printed on the invoice.',
          })}
        </div>
      ) : null}

      <div className="grid gap-4 sm:grid-cols-2">
        {countrySelect('country', country, setCountry)}
        {textField('fullName', 'Full name', { autoComplete: 'name', maxLength: BILLING_LIMITS.name })}
      </div>
      {textField('address', 'Address', { autoComplete: 'street-address', maxLength: BILLING_LIMITS.address })}
      <div className="grid gap-4 sm:grid-cols-2">
        {textField('email', 'Email', {
          type: 'email',
          inputMode: 'email',
          autoComplete: 'email',
          maxLength: BILLING_LIMITS.email,
        })}
        {zipField('zip', country)}
      </div>

      <PhoneField
        billingCountry={country || undefined}
        names={{
          countryId: fields.phoneCountry.id,
          countryName: fields.phoneCountry.name,
          countryErrorId: fields.phoneCountry.errorId,
          countryError: errorOf('phoneCountry'),
          phoneId: fields.phone.id,
          phoneName: fields.phone.name,
          phoneErrorId: fields.phone.errorId,
          phoneError: errorOf('phone'),
        }}
      />

      <div>
        <div className="flex items-start gap-3">
          <input
            id={fields.differentBilling.id}
            name={fields.differentBilling.name}
            type="checkbox"
            checked={differentBilling}
            onChange={(event) => setDifferentBilling(event.target.checked)}
            className="mt-1 h-5 w-5 shrink-0 accent-brand-700"
          />
          <label htmlFor={fields.differentBilling.id} className="text-gray-900">
            Use different billing information
          </label>
        </div>
      </div>
      {differentBilling ? (
        <fieldset className="space-y-4 rounded-xl border border-gray-200 p-4" data-testid="billing-address">
          <legend className="px-1 font-semibold text-gray-900">Billing information</legend>
          {textField('billingName', 'Name on the bill', {
            autoComplete: 'billing name',
            maxLength: BILLING_LIMITS.name,
          })}
          {textField('billingAddress', 'Billing address', {
            autoComplete: 'billing street-address',
            maxLength: BILLING_LIMITS.address,
          })}
          <div className="grid gap-4 sm:grid-cols-2">
            {countrySelect('billingCountry', billingCountry, setBillingCountry)}
            {zipField('billingZip', billingCountry)}
          </div>
        </fieldset>
      ) : null}

      <div className="space-y-3">
        {checkbox(
          'acceptTerms',
          <>
            I agree to the{' '}
            <Link to="/terms-condition" target="_blank" rel="noopener" className={linkClass}>
              Terms of Service
            </Link>{' '}
            <span className="text-sm text-gray-600">(opens in a new tab)</span>
          </>,
        )}
        {checkbox(
          'acceptPrivacy',
          <>
            I have read the{' '}
            <Link to="/privacy-policy" target="_blank" rel="noopener" className={linkClass}>
              Privacy Policy
            </Link>{' '}
            <span className="text-sm text-gray-600">(opens in a new tab)</span>
          </>,
        )}
      </div>

      <div className="rounded-xl bg-gray-50 p-4 text-sm text-gray-800" data-testid="billing-total">
        <p>
          Sample order total with {method.name}:{' '}
          <strong className="text-gray-900">{formatSampleAmount(totals.totalE4)}</strong>
        </p>
        <p className="mt-1">Preview: this button takes no payment. It shows a sample confirmation.</p>
      </div>
      {attempted ? <ErrorSummary count={errorCount} testId="billing-errors" /> : null}
      <button type="submit" className={primaryButton}>
        Pay by {method.name}
      </button>
    </form>
  );
}
