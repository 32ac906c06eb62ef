/**
 * Imported first by root.tsx, before any module builds a schema. In the browser, zod 4 probes
 * for `new Function` (its JIT) when the first object schema is made; our CSP has no
 * 'unsafe-eval', so the probe is refused and Chrome reports a CSP violation on every page with a
 * form (Lighthouse best practices < 100). Under `jitless` zod skips the probe and parses the same
 * way it must anyway under this CSP. The server keeps the JIT.
 */

/**
 * Through zod's shared config object rather than `z.config()`: zod 4 keeps its global config on
 * `globalThis.__zod_globalConfig` and adopts an object already there (zod/v4/core/core.js), so
 * every page gets the setting without loading zod's 4 KB core in its first-load JavaScript
 * (the 120 KB first-load budget, decision 036). root.tsx imports this module first, so it runs before zod loads.
 */
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
if (typeof document !== 'undefined') zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true };
