import { Writable } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
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

// The parts the browser loads lazily (the storefront chrome, the order page's extras) render in the
// same pass as the page on the server (lazy-parts.ts).
provideLazyModules({ chrome: storefrontChrome, orderExtras });

export { buildLoadContext } from './context.ts';

export const streamTimeout = 5_000;

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

  // The whole document is rendered before any of it is sent, as one buffer. Every loader awaits
  // its data (no page defers any), so the shell is ready when everything is: streaming it sent the
  // same bytes at the same moment, only in some forty 2 KB pieces, each through a Node stream, a
  // web stream and back and a compression stream: about a fifth of the CPU of an uncached `/`.
  // Sent whole, the reply gets a Content-Length and is compressed in one call
  // (server/compression.ts). A page that defers data one day would wait for it before its first byte.
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const chunks: Buffer[] = [];
    const document = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        clearTimeout(timeout);
        responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
        resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <DocumentScriptsProvider value={documentScripts}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </DocumentScriptsProvider>,
      {
        nonce,
        // React sends a finished Suspense boundary after the rest of the page (a hidden copy moved
        // in by a script) once the page passes this many bytes, so that a long page paints
        // sooner. Our pages are a few dozen KB and their boundaries wrap the header and footer:
        // sent late, a phone paints the page without its header and then moves it down
        // (Lighthouse's CLS 0.076 on `/`).
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          pipe(document);
        },
        onShellError(error: unknown) {
          clearTimeout(timeout);
          reject(error instanceof Error ? error : new Error('The page shell failed to render', { cause: error }));
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // An error in the shell itself reaches React Router (onShellError), which logs it.
          if (shellRendered) console.error(error);
        },
      },
    );
    // A render still waiting this long is cut short: its pending boundaries render their fallbacks.
    const timeout = setTimeout(abort, streamTimeout + 1_000);
  });
}

/** Unmatched URLs and aborted requests are normal traffic, not errors worth a stack trace. */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status === 404) return;
  console.error(error);
};
