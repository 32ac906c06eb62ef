import {
  type EntryContext,
  type HandleErrorFunction,
  type RouterContextProvider,
  ServerRouter,
  isRouteErrorResponse,
} from 'react-router';
import { provideLazyModules } from './components/lazy-parts.ts';
import * as storefrontChrome from './components/StorefrontChrome.tsx';
import * as orderExtras from './components/order/OrderExtras.tsx';
import { requestContext } from './context.ts';
import { DocumentScriptsProvider } from './document-scripts.tsx';
import { documentHydrates } from './page-handle.ts';
import { PLAIN_PAGE_SCRIPT } from './plain-page-script.server.ts';
import { DEFERRED_DATA_TIMEOUT_MS, renderDocument } from './render-document.server.tsx';

// The parts the browser loads lazily (the storefront chrome, the order page's extras) render in the
// same pass as the page on the server (lazy-parts.ts).
provideLazyModules({ chrome: storefrontChrome, orderExtras });

export { buildLoadContext } from './context.ts';

/** How long React Router waits for data a loader defers (no page defers any today). */
export const streamTimeout = DEFERRED_DATA_TIMEOUT_MS;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { nonce } = loadContext.get(requestContext);
  // A page whose route opted out of the framework (page-handle.ts) gets its plain script instead.
  const { matches } = routerContext.staticHandlerContext;
  const hydrates = documentHydrates(
    matches.map((match) => ({ handle: routerContext.routeModules[match.route.id]?.handle })),
  );
  const documentScripts = { nonce, plainScript: hydrates ? null : PLAIN_PAGE_SCRIPT };

  const document = (
    <DocumentScriptsProvider value={documentScripts}>
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
    </DocumentScriptsProvider>
  );
  return renderDocument(document, routerContext, { nonce, status: responseStatusCode, headers: responseHeaders });
}

/** Unmatched URLs and aborted requests are normal traffic, not errors worth a stack trace. */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status === 404) return;
  console.error(error);
};
