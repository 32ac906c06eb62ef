// Types for freshness.mjs, which stays plain JavaScript: `npm start` runs it before anything can compile TypeScript.
export function newestMtime(root: string, entry: string): number;
export function upToDate(root: string, marker: string, sources: readonly string[]): boolean;
