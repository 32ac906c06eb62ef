import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

/**
 * Fewer, larger shared chunks for the browser (decision 037). Each file is compressed on its own,
 * so every split costs its own gzip header and dictionary: the automatic splitting made five
 * files of the libraries every page runs and five more of tiny modules nearly every page uses,
 * about 2 KB of the 120 KB first-load budget in all.
 */
/** React, React DOM, React Router and their helpers, and the bundler's runtime: every page runs them. */
const FRAMEWORK =
  /node_modules[\\/](?:react|react-dom|react-router|scheduler|cookie|set-cookie-parser)[\\/]|rolldown[\\/]runtime/;
/** The form pieces of the pages with forms (order, client, login, contact): their check and fields. */
const FORMS =
  /(?:app[\\/]components[\\/](?:form\.tsx|use-form-check\.ts)|core[\\/](?:form-check|email|text-rules)\.ts)$/;
/** Our modules the root layout or nearly every page imports (none over 1.2 KB gzip). */
const SHELL =
  /app[\\/](?:api[\\/]client\.ts|components[\\/](?:NotFound|Spinner|StrokeIcon)\.tsx|content[\\/]legal[\\/]links\.ts)$/;

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  environments: {
    client: {
      build: {
        // `import()` does not preload the lazy part's dependencies (React Router preloads route
        // modules itself). Vite still emits its 0.9 KB helper for `import()`: decision 037, "Left".
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
              ],
            },
          },
        },
      },
    },
  },
});
