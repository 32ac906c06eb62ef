import { type RouteConfig, index, route } from '@react-router/dev/routes';

/** The spec's route table (section 2). `/` is the store home; see docs/decisions/002-index-routes.md. */
export default [
  index('routes/home.tsx'),
  route('service/:slug', 'routes/service.tsx'),
  route('order/:param', 'routes/order.tsx'),
  route('order-confirm/:orderId', 'routes/order-confirm.tsx'),
  // The spec lists this misspelt route; it only redirects to the confirmation (or order lookup).
  route('order-confrim/:orderId?', 'routes/order-confrim.tsx'),
  route('client', 'routes/client.tsx'),
  route('login', 'routes/login.tsx'),
  // The admin area: the layout guards every child (token in local storage, spec section 6).
  route('admin', 'routes/admin/layout.tsx', [
    index('routes/admin/index.tsx'),
    route('all-orders', 'routes/admin/all-orders.tsx'),
    route('orders/:orderId', 'routes/admin/order-detail.tsx'),
    route('security', 'routes/admin/security.tsx'),
    route('mail', 'routes/admin/mail.tsx'),
  ]),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
