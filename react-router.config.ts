import type { Config } from '@react-router/dev/config';

export default {
  ssr: true,
  // A build elsewhere (e.g. a measurement beside another helper's build/, decision 036); `build` by default.
  buildDirectory: process.env.BOOSTLY_BUILD_DIR ?? 'build',
  future: {
    v8_middleware: true,
    v8_passThroughRequests: true,
    v8_splitRouteModules: true,
    v8_trailingSlashAwareDataRequests: true,
    v8_viteEnvironmentApi: true,
  },
} satisfies Config;
