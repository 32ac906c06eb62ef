import { useState } from 'react';
import {
  checkPhoneNumber,
  phoneCountryByCode,
  phoneCountryFor,
  phoneCountryLabel,
  searchPhoneCountries,
} from '../../../core/mockups/phone.ts';
import { inputClass } from '../form.tsx';
import { FieldError, FieldLabel, describedBy } from './fields.tsx';

export interface PhoneFieldNames {
  countryId: string;
  countryName: string;
  countryErrorId: string;
  countryError: string | undefined;
  phoneId: string;
  phoneName: string;
  phoneErrorId: string;
  phoneError: string | undefined;
}

/**
 * The phone number with its country-code picker (libphonenumber-js, `min` metadata): a search box
 * (country name or +code; not submitted) narrows the code list, the list is a native select (so
 * keyboards and screen readers get the platform's own control), and the number typed is shown
 * formatted for the chosen country as soon as it is valid. Until the visitor picks a code, it
 * follows the billing country.
 */
export function PhoneField({ names, billingCountry }: { names: PhoneFieldNames; billingCountry: string | undefined }) {
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const [number, setNumber] = useState('');
  const selected = picked ?? phoneCountryFor(billingCountry)?.code ?? '';
  const matches = searchPhoneCountries(query);
  const selectedCountry = phoneCountryByCode(selected);
  // The chosen code stays in the list while a search hides it, so the select never changes by itself.
  const options = selectedCountry && !matches.includes(selectedCountry) ? [selectedCountry, ...matches] : matches;
  const check = selected && number.trim() !== '' ? checkPhoneNumber(number, selected) : undefined;

  const searchId = `${names.countryId}-search`;
  const countId = `${names.countryId}-matches`;
  const formattedId = `${names.phoneId}-formatted`;

  return (
    <fieldset className="space-y-3">
      <legend className="mb-1.5 font-semibold text-gray-900">Phone</legend>
      <div>
        <label htmlFor={searchId} className="mb-1 block text-sm font-medium text-gray-800">
          Search country codes
        </label>
        <input
          id={searchId}
          type="search"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          autoComplete="off"
          placeholder="Country name or +code, e.g. India or +91"
          aria-describedby={countId}
          aria-controls={names.countryId}
          className={inputClass(false)}
        />
        <p id={countId} aria-live="polite" data-testid="phone-country-matches" className="mt-1 text-sm text-gray-600">
          {query.trim() === ''
            ? `${matches.length} country codes`
            : matches.length === 0
              ? 'No country matches'
              : `${matches.length} ${matches.length === 1 ? 'country matches' : 'countries match'}`}
        </p>
      </div>
      <div>
        <FieldLabel htmlFor={names.countryId}>Country code</FieldLabel>
        <select
          id={names.countryId}
          name={names.countryName}
          value={selected}
          onChange={(event) => setPicked(event.target.value)}
          aria-invalid={!!names.countryError}
          aria-describedby={describedBy(names.countryError && names.countryErrorId)}
          className={inputClass(!!names.countryError)}
        >
          <option value="">Choose a country code</option>
          {options.map((country) => (
            <option key={country.code} value={country.code}>
              {phoneCountryLabel(country)}
            </option>
          ))}
        </select>
        <FieldError id={names.countryErrorId} message={names.countryError} testId="phoneCountry-error" />
      </div>
      <div>
        <FieldLabel htmlFor={names.phoneId}>Phone number</FieldLabel>
        <input
          id={names.phoneId}
          name={names.phoneName}
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          value={number}
          onChange={(event) => setNumber(event.target.value)}
          placeholder={selectedCountry ? `Number in ${selectedCountry.name}` : 'Choose a country code first'}
          aria-invalid={!!names.phoneError}
          aria-describedby={describedBy(formattedId, names.phoneError && names.phoneErrorId)}
          className={inputClass(!!names.phoneError)}
        />
        <p id={formattedId} data-testid="phone-formatted" aria-live="polite" className="mt-1 text-sm text-gray-700">
          {check?.valid ? `Formatted: ${check.international}` : ''}
        </p>
        <FieldError id={names.phoneErrorId} message={names.phoneError} testId="phone-error" />
      </div>
    </fieldset>
  );
}
