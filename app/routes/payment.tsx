import { redirect } from 'react-router';

/**
 * The spec's "/payment" was a payment-method mock-up; the method chooser is now real, on the order
 * page of the package being bought, so there is nothing to show here on its own. Old links and
 * bookmarks (and the mock-up's sample confirmation) go, permanently, to the store home, where a
 * purchase starts: choose a package, then the method on its order page.
 */
export function loader() {
  return redirect('/', 301);
}
