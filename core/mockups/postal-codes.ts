/**
 * A light postal-code check for the /payment preview's billing form: a few countries' formats,
 * a generic shape for the rest, and the few countries known not to use postal codes at all,
 * where the field is optional rather than a dead end. A real gateway checks addresses itself;
 * this only catches typing slips. Browser-safe.
 */

/** Formats of some common billing countries (case-insensitive; spaces and hyphens where people type them). */
const POSTAL_CODE_FORMATS: Readonly<Record<string, { pattern: RegExp; example: string }>> = {
  US: { pattern: /^\d{5}(?:-\d{4})?$/, example: '94103 or 94103-1234' },
  IN: { pattern: /^[1-9]\d{2} ?\d{3}$/, example: '110001' },
  GB: { pattern: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i, example: 'SW1A 1AA' },
  CA: { pattern: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i, example: 'K1A 0B1' },
  AU: { pattern: /^\d{4}$/, example: '2000' },
  DE: { pattern: /^\d{5}$/, example: '10115' },
  FR: { pattern: /^\d{5}$/, example: '75001' },
  ES: { pattern: /^\d{5}$/, example: '28001' },
  IT: { pattern: /^\d{5}$/, example: '00118' },
  NL: { pattern: /^\d{4} ?[A-Z]{2}$/i, example: '1012 AB' },
  BR: { pattern: /^\d{5}-?\d{3}$/, example: '01001-000' },
  JP: { pattern: /^\d{3}-?\d{4}$/, example: '100-0001' },
};

/** Countries without a postal-code system: the billing form does not ask them for one. */
const COUNTRIES_WITHOUT_POSTAL_CODES: ReadonlySet<string> = new Set(['AE', 'AG', 'BS', 'FJ', 'HK', 'MO', 'QA', 'ZW']);

/** Letters and digits, with single spaces or hyphens between them, 2 to 10 characters. */
const GENERIC_POSTAL_CODE = /^(?=.{2,10}$)[A-Z\d]+(?:[ -][A-Z\d]+)*$/i;

export function postalCodeRequired(countryCode: string | undefined): boolean {
  return !countryCode || !COUNTRIES_WITHOUT_POSTAL_CODES.has(countryCode);
}

/** The example shown in the message when a code does not fit its country's format. */
export function postalCodeExample(countryCode: string | undefined): string | undefined {
  return countryCode ? POSTAL_CODE_FORMATS[countryCode]?.example : undefined;
}

export function isPostalCodeFor(countryCode: string | undefined, code: string): boolean {
  const format = countryCode ? POSTAL_CODE_FORMATS[countryCode] : undefined;
  return (format?.pattern ?? GENERIC_POSTAL_CODE).test(code.trim());
}
