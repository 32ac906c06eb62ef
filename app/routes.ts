import { type RouteConfig, index, route } from '@react-router/dev/routes';

/** The spec's route table (section 2). `/` is the store home; see docs/decisions/002-index-routes.md. */
export default [
  index('routes/home.tsx'),
  route('service/:slug', 'routes/service.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
