/**
 * Countries for the /payment preview's billing form, from the kept `i18n-iso-countries` package
 * (its English names only: the other locales never reach the bundle), never a hand-typed list.
 * The package holds the 249 ISO 3166-1 countries and Kosovo (XK, the user-assigned code card
 * networks and phone numbering use), 250 in all. Browser-safe; imported only by the mock-up
 * routes, so the data stays in their chunks.
 */
import english from 'i18n-iso-countries/langs/en.json';

export interface Country {
  /** ISO 3166-1 alpha-2 (XK for Kosovo). */
  code: string;
  /** The package's first (official) English name, e.g. "United Kingdom". */
  name: string;
  /** Every English name the package knows, for searching ("Czechia", "Ivory Coast"). */
  names: readonly string[];
}

const entries: [string, string | string[]][] = Object.entries(english.countries);

export const COUNTRIES: readonly Country[] = entries
  .map(([code, value]) => {
    const names = Array.isArray(value) ? value : [value];
    return { code, name: names[0] ?? code, names };
  })
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

const BY_CODE: ReadonlyMap<string, Country> = new Map(COUNTRIES.map((country) => [country.code, country]));

export function countryByCode(code: string | null | undefined): Country | undefined {
  return code ? BY_CODE.get(code) : undefined;
}

/** Lowercase without accents, so "cote" finds "Côte d'Ivoire". */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}
