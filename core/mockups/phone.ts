/**
 * Phone numbers for the /payment preview: the dialling codes of every country the kept
 * `libphonenumber-js` package knows, searchable by country name or "+code", and the check of a
 * number against the chosen country. It uses the package's `min` metadata (about 80 kB, the
 * smallest set): numbers are checked by their length for the country, not digit by digit, which
 * is as much as a billing form needs (docs/decisions/028-mock-up-pages.md). Browser-safe.
 */
import {
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/min';
import { COUNTRIES, countryByCode, foldForSearch } from './countries.ts';

interface PhoneCountry {
  code: CountryCode;
  name: string;
  names: readonly string[];
  /** Digits only, e.g. "44". */
  callingCode: string;
}

const PHONE_CODES: ReadonlySet<string> = new Set(getCountries());

/**
 * The countries with both an English name and a dialling code, in name order. The package
 * also knows Ascension (AC) and Tristan da Cunha (TA), which are not ISO countries; the ISO
 * list has a few uninhabited territories without a numbering plan (Antarctica, Bouvet Island…).
 */
export const PHONE_COUNTRIES: readonly PhoneCountry[] = COUNTRIES.flatMap((country) =>
  PHONE_CODES.has(country.code) && isSupportedCountry(country.code)
    ? [
        {
          code: country.code,
          name: country.name,
          names: country.names,
          callingCode: getCountryCallingCode(country.code),
        },
      ]
    : [],
);

const BY_CODE: ReadonlyMap<string, PhoneCountry> = new Map(PHONE_COUNTRIES.map((country) => [country.code, country]));

export function phoneCountryByCode(code: string | null | undefined): PhoneCountry | undefined {
  return code ? BY_CODE.get(code) : undefined;
}

/** "United Kingdom (+44)". */
export function phoneCountryLabel(country: PhoneCountry): string {
  return `${country.name} (+${country.callingCode})`;
}

/**
 * The countries a search names: "+44" or "44" finds the countries dialled with a code starting
 * so; any other text finds countries with a name (any English name) containing it, accents
 * ignored. A blank search finds all.
 */
export function searchPhoneCountries(query: string): readonly PhoneCountry[] {
  const text = query.trim();
  if (text === '') return PHONE_COUNTRIES;
  const digits = /^\+?\s*(\d+)$/.exec(text)?.[1];
  if (digits) return PHONE_COUNTRIES.filter((country) => country.callingCode.startsWith(digits));
  const needle = foldForSearch(text);
  return PHONE_COUNTRIES.filter((country) => country.names.some((name) => foldForSearch(name).includes(needle)));
}

type PhoneCheck =
  | { valid: true; international: string; e164: string }
  | { valid: false; reason: 'unparseable' | 'other-country' | 'invalid' };

/**
 * Whether `number` is a phone number of `countryCode`: typed nationally ("020 7946 0958" for
 * GB) or internationally with that country's code ("+44 20 7946 0958"). A number with another
 * country's code is refused as such, so the formatted number is always the chosen country's.
 */
export function checkPhoneNumber(number: string, countryCode: string): PhoneCheck {
  const country = phoneCountryByCode(countryCode);
  if (!country) return { valid: false, reason: 'unparseable' };
  const parsed = parsePhoneNumberFromString(number.trim(), country.code);
  if (!parsed) return { valid: false, reason: 'unparseable' };
  if (parsed.countryCallingCode !== country.callingCode) return { valid: false, reason: 'other-country' };
  if (!parsed.isValid()) return { valid: false, reason: 'invalid' };
  return { valid: true, international: parsed.formatInternational(), e164: parsed.number };
}

/** The country a billing country implies for the phone picker, when it has a dialling code. */
export function phoneCountryFor(countryCode: string | undefined): PhoneCountry | undefined {
  const country = countryByCode(countryCode);
  return country ? phoneCountryByCode(country.code) : undefined;
}
