import { redirect } from 'react-router';
import type { Route } from './+types/order-confrim';

/**
 * The spec lists the misspelt route "/order-confrim" (and "/order-confrim/{orderId}") without
 * content. Old links keep working: an order id goes to its confirmation page, anything else to
 * the order lookup.
 */
export function loader({ params }: Route.LoaderArgs) {
  const orderId = params.orderId?.trim();
  return redirect(orderId ? `/order-confirm/${encodeURIComponent(orderId)}` : '/client', 301);
}
