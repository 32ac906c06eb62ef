import { Suspense } from 'react';
import type { EntryContext } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handOverHydrationData, renderDocument, renderedInOnePass } from '../../app/render-document.server.tsx';

function Fails(): never {
  throw new Error('a part of the page failed');
}

function WaitsForever(): never {
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- how a component suspends
  throw new Promise(() => undefined);
}

function page(part: React.ReactNode) {
  return (
    <html lang="en">
      <body>
        <main>Page</main>
        <Suspense fallback={<p>Loading</p>}>{part}</Suspense>
      </body>
    </html>
  );
}

/** What renderDocument reads of React Router's context when a page has no data to hand over. */
const NO_DATA = { renderMeta: {} } as EntryContext;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('rendering a document in one pass', () => {
  it('gives the whole document, with its doctype', () => {
    expect(renderedInOnePass(page(<p>Done</p>))).toBe(
      '<!DOCTYPE html><html lang="en"><head></head><body><main>Page</main><!--$--><p>Done</p><!--/$--></body></html>',
    );
  });

  it('gives up on a page with a part that failed, that still waits, or whose shell failed', () => {
    expect(renderedInOnePass(page(<Fails />))).toBeNull();
    expect(renderedInOnePass(page(<WaitsForever />))).toBeNull();
    expect(renderedInOnePass(<Fails />)).toBeNull();
  });
});

describe('renderDocument', () => {
  it('sends a page rendered in one pass as HTML with the status React Router gave', async () => {
    const response = await renderDocument(page(<p>Done</p>), NO_DATA, {
      nonce: 'n',
      status: 404,
      headers: new Headers(),
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('<p>Done</p>');
  });

  it('renders a page with a failed part again as a stream, which logs the error and answers 500', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await renderDocument(page(<Fails />), NO_DATA, {
      nonce: 'n',
      status: 200,
      headers: new Headers(),
    });
    expect(response.status).toBe(500);
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ message: 'a part of the page failed' }));
    const html = await response.text();
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<main>Page</main>');
  });

  it('rejects a page whose shell failed, for React Router to log and render its error page', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(
      renderDocument(<Fails />, NO_DATA, { nonce: 'n', status: 200, headers: new Headers() }),
    ).rejects.toThrow('a part of the page failed');
    expect(logged).not.toHaveBeenCalled();
  });
});

describe('handing over the hydration data', () => {
  it('reads the whole stream, pieces and split characters joined, as the first piece React Router will render', async () => {
    const bytes = new TextEncoder().encode('[{"name":"Café"}]\n');
    const split = bytes.indexOf(0xc3) + 1; // inside the two bytes of "é"
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, split));
        controller.enqueue(bytes.slice(split));
        controller.close();
      },
    });
    const context = { serverHandoffStream: stream, renderMeta: {} } as unknown as EntryContext;
    await handOverHydrationData(context);
    const { streamCache } = context.renderMeta as { streamCache: Record<number, { result: unknown }> };
    expect(streamCache[0]?.result).toEqual({ done: true, value: '[{"name":"Café"}]\n' });
  });
});
