/**
 * How a page's document is rendered on the server (app/entry.server.tsx hands every one here).
 *
 * The whole document is rendered before any of it is sent, as one buffer: every loader awaits its
 * data (no page defers any), so the page is complete when its shell is. Sent whole, the reply gets
 * a Content-Length and is compressed in one call (server/compression.ts).
 *
 * It is rendered by React's synchronous renderer (`renderToString`) when that renderer gives the
 * page exactly as the asynchronous one would, which is always today; the asynchronous renderer
 * (`renderToPipeableStream`) is kept for the pages and moments it cannot (decision 078).
 */
import { Writable } from 'node:stream';
import type { ReactElement } from 'react';
import { renderToPipeableStream, renderToString } from 'react-dom/server';
import type { EntryContext } from 'react-router';

/** How long data a loader defers may take before its boundary renders the fallback. */
export const DEFERRED_DATA_TIMEOUT_MS = 5_000;

interface DocumentResponse {
  nonce: string;
  status: number;
  headers: Headers;
}

export async function renderDocument(
  document: ReactElement,
  context: EntryContext,
  response: DocumentResponse,
): Promise<Response> {
  await handOverHydrationData(context);
  response.headers.set('Content-Type', 'text/html; charset=utf-8');
  const html = renderedInOnePass(document);
  if (html === null) return renderedAsStream(document, response);
  // As bytes: a string body is checked for lone surrogates and encoded again by the Fetch API, one
  // more pass over the whole page that Node's own encoder does not need.
  return new Response(Buffer.from(html), { headers: response.headers, status: response.status });
}

/**
 * React Router renders the hydration data (the loaders' results, encoded as a stream) in a chain
 * of Suspense boundaries, each waiting for the stream's next piece, so as it comes a page can only
 * be rendered by the asynchronous renderer. Here the stream is read whole first and put where
 * that chain looks before it waits (its cache of pieces read, keyed by position from 0): the
 * chain then renders at once, as one script, and the browser reads the same text either way.
 * The cache is React Router's (`renderMeta.streamCache`, read by its `StreamTransfer`); were it
 * ever renamed, the chain would wait again, the synchronous render would leave it for the
 * browser, and renderedInOnePass would hand the page to the asynchronous renderer: slower, not
 * wrong (tests/integration/pages.test.ts holds the hand-over).
 */
export async function handOverHydrationData(context: EntryContext): Promise<void> {
  const stream = context.serverHandoffStream;
  if (!stream || !context.renderMeta) return;
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  let text = '';
  for (let piece = await reader.read(); !piece.done; piece = await reader.read()) {
    text += decoder.decode(piece.value, { stream: true });
  }
  text += decoder.decode();
  reader.releaseLock();
  const firstPiece = Object.assign(Promise.resolve(), { result: { done: true, value: text } });
  Object.assign(context.renderMeta, { streamCache: { 0: firstPiece } });
}

/**
 * The document from the synchronous renderer, or null where it cannot stand for the asynchronous
 * one. One string skips the asynchronous renderer's streams and its encoding of the page to bytes
 * piece by piece: a fifth of the CPU of an uncached `/`. But it gives up on anything still waiting
 * and reports no error inside a Suspense boundary: it leaves that boundary for the browser to
 * render instead (`<!--$!-->`). In either case, and when the shell itself fails, the page is
 * rendered again by the asynchronous renderer, which waits, logs and sets the status as React
 * Router expects.
 */
export function renderedInOnePass(document: ReactElement): string | null {
  let html: string;
  try {
    html = renderToString(document);
  } catch {
    return null;
  }
  return html.includes(BOUNDARY_LEFT_TO_THE_BROWSER) ? null : `<!DOCTYPE html>${html}`;
}

/**
 * How React marks a Suspense boundary it did not render on the server. The page's own text cannot
 * produce it: React escapes `<` in text and attributes, and HTML from the blog's editor is
 * sanitised, comments removed. A false match would only cost the slower render.
 */
const BOUNDARY_LEFT_TO_THE_BROWSER = '<!--$!-->';

function renderedAsStream(document: ReactElement, response: DocumentResponse): Promise<Response> {
  let status = response.status;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Errors reported before the shell is ready: React names them before it knows whether the
    // shell failed. A boundary's error is logged here once the shell is ready; the shell's own
    // error reaches React Router (onShellError), which logs it.
    const earlyErrors: unknown[] = [];
    const chunks: Buffer[] = [];
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        clearTimeout(timeout);
        resolve(new Response(Buffer.concat(chunks), { headers: response.headers, status }));
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(document, {
      nonce: response.nonce,
      // React sends a finished Suspense boundary after the rest of the page (a hidden copy moved
      // in by a script) once the page passes this many bytes, so that a long page paints
      // sooner. Our pages are a few dozen KB and their boundaries wrap the header and footer:
      // sent late, a phone paints the page without its header and then moves it down
      // (Lighthouse's CLS 0.076 on `/`).
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onShellReady() {
        shellRendered = true;
        for (const error of earlyErrors) console.error(error);
      },
      onAllReady() {
        pipe(output);
      },
      onShellError(error: unknown) {
        clearTimeout(timeout);
        reject(error instanceof Error ? error : new Error('The page shell failed to render', { cause: error }));
      },
      onError(error: unknown) {
        status = 500;
        if (shellRendered) console.error(error);
        else earlyErrors.push(error);
      },
    });
    // A render still waiting this long is cut short: its pending boundaries render their fallbacks.
    const timeout = setTimeout(abort, DEFERRED_DATA_TIMEOUT_MS + 1_000);
  });
}
