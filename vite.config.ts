import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { type Plugin, defineConfig } from 'vite';

/**
 * Fewer, larger shared chunks for the browser (decision 037). Each file is compressed on its own,
 * so every split costs its own gzip header and dictionary: the automatic splitting made five
 * files of the libraries every page runs and five more of tiny modules nearly every page uses,
 * about 2 KB of the 120 KB first-load budget in all.
 */
/** React, React DOM, React Router and their helpers, and the `import()` helper: every page runs them. */
const FRAMEWORK =
  /node_modules[\\/](?:react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]|rolldown[\\/]runtime|vite[\\/]preload-helper/;
/** The form pieces of the pages with forms (order, client, login, contact): their check and fields. */
const FORMS =
  /(?:app[\\/]components[\\/](?:form\.tsx|use-form-check\.ts)|core[\\/](?:form-check|email|text-rules)\.ts)$/;
/** Our modules the root layout or nearly every page imports (none over 1.2 KB gzip). */
const SHELL =
  /app[\\/](?:api[\\/]client\.ts|components[\\/](?:NotFound|Spinner|StrokeIcon)\.tsx|components[\\/]lazy-parts\.ts|content[\\/]legal[\\/]links\.ts|seo[\\/]private-meta\.ts)$/;
/**
 * The order page's small modules that its lazy payment window shares (the saved form draft, the
 * verification messages): one file instead of two on the page's first load.
 */
const ORDER_SHARED = /(?:app[\\/]components[\\/]order[\\/]order-draft|core[\\/]verification[\\/]messages)\.ts$/;

/** The module Vite's build imports `__vitePreload` from, wrapped around every `import()` in the browser. */
const PRELOAD_HELPER_ID = '\0vite/preload-helper.js';

/**
 * `__vitePreload(load, deps)` as this build needs it: `deps` are the stylesheets the lazy chunk
 * brings (the dashboard's chart, `import('uplot/dist/uPlot.min.css')`), each added once as a
 * `<link rel=stylesheet>` before the chunk runs; with `modulePreload: false` Vite lists no scripts
 * there (any other dependency is left to the browser, as without preloading). Vite's own helper
 * (0.9 KB gzip, in its own file on every page, since the root loads the chrome with `import()`)
 * also handles module preloads, relative bases and a `vite:preloadError` event, none of which
 * this store uses. A failed load rejects as it did. This one (a few hundred bytes) goes into `framework`.
 */
const PRELOAD_HELPER = `
const stylesheets = new Map();
function stylesheet(file) {
  const href = '/' + file;
  let loaded = stylesheets.get(href);
  if (!loaded) {
    loaded = new Promise((resolve, reject) => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      link.onload = resolve;
      link.onerror = () => reject(new Error('Unable to preload CSS for ' + href));
      document.head.appendChild(link);
    });
    stylesheets.set(href, loaded);
  }
  return loaded;
}
export const __vitePreload = (load, deps) => {
  const css = (deps || []).filter((file) => file.endsWith('.css'));
  return css.length > 0 ? Promise.all(css.map(stylesheet)).then(() => load()) : load();
};
`;

/** Serves PRELOAD_HELPER in place of Vite's helper in the browser build (decision 050). */
function smallPreloadHelper(): Plugin {
  return {
    name: 'boostly:small-preload-helper',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.config.consumer === 'client',
    resolveId: (id) => (id === PRELOAD_HELPER_ID ? id : null),
    load: (id) => (id === PRELOAD_HELPER_ID ? PRELOAD_HELPER : null),
  };
}

const BROWSER_LINK = path.resolve(import.meta.dirname, 'app/components/Link.tsx');
const SERVER_LINK = path.resolve(import.meta.dirname, 'app/components/Link.server.tsx');

/**
 * The server build's `Link` and `NavLink` (decisions 078 and 079): wherever a module imports
 * app/components/Link.tsx (React Router's links, as the browser needs them), the server build takes
 * app/components/Link.server.tsx, which renders the same anchors without running the router's.
 */
function serverLinks(): Plugin {
  return {
    name: 'boostly:server-links',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.config.consumer === 'server',
    async resolveId(source, importer, options) {
      if (!source.endsWith('/Link.tsx')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === BROWSER_LINK ? SERVER_LINK : null;
    },
  };
}

/** Files worth compressing: text. Images, fonts and archives are compressed formats already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|svg|json|txt|xml|webmanifest)$/;
/** Below this a compressed copy saves less than its own headers and a lookup cost. */
const PRECOMPRESS_MIN_BYTES = 1024;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Writes a Brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy next to every text file of
 * the browser build (public files included), which the server's static handler sends as they are
 * (`preCompressed`). Without them each asset was compressed again on every request, at the low
 * level a per-request reply can afford: the 400 KB editor chunk took about 17 ms a request instead
 * of 5, and came out a fifth larger than at quality 11 (decision 070). A copy that is not smaller
 * is not written.
 */
function precompressAssets(): Plugin {
  let outDir = '';
  /** Files an earlier pass of this build has handled (compressed, or found too small). */
  const handled = new Set<string>();
  return {
    name: 'boostly:precompress-assets',
    apply: 'build',
    // Every environment's build, the server's last: React Router writes the browser's route
    // manifest into the client's assets while it builds the server.
    configResolved(config) {
      outDir = path.resolve(config.root, config.environments['client']?.build.outDir ?? config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name))
        .filter((file) => !handled.has(file));
      for (const file of files) handled.add(file);
      await Promise.all(files.map(writeCompressedCopies));
    },
  };
}

/** The `.br` and `.gz` copies of one file, each only when it is smaller; nothing for a small file. */
async function writeCompressedCopies(file: string): Promise<void> {
  const body = await readFile(file);
  if (body.length < PRECOMPRESS_MIN_BYTES) return;
  const [brotli, gzipped] = await Promise.all([
    brotliAsync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzipAsync(body, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  if (brotli.length < body.length) await writeFile(`${file}.br`, brotli);
  if (gzipped.length < body.length) await writeFile(`${file}.gz`, gzipped);
}

export default defineConfig({
  plugins: [smallPreloadHelper(), serverLinks(), tailwindcss(), reactRouter(), precompressAssets()],
  resolve: { tsconfigPaths: true },
  environments: {
    client: {
      build: {
        // `import()` does not preload the lazy part's dependencies (React Router preloads route
        // modules itself). Vite's helper for `import()` is replaced by a smaller one: smallPreloadHelper.
        modulePreload: false,
        rollupOptions: {
          output: {
            // React Router's naming when it sets `output` itself (a user `output` replaces its own).
            entryFileNames: 'assets/[name]-[hash].js',
            codeSplitting: {
              groups: [
                { name: 'framework', test: FRAMEWORK, priority: 2 },
                { name: 'shell', test: SHELL, priority: 1 },
                { name: 'forms', test: FORMS, priority: 1 },
                { name: 'order-shared', test: ORDER_SHARED, priority: 1 },
              ],
            },
          },
        },
      },
    },
  },
});
