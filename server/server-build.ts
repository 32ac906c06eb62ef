/**
 * Loads the production server build (build/server/index.js) the way the store runs it.
 *
 * React's Node renderer keeps the request it is rendering in an AsyncLocalStorage, entered on
 * every render. On Node 20 an AsyncLocalStorage that has been entered once switches async hooks
 * on for the rest of the process: every later request (a cached page, an API call) then pays a
 * hook call for each timer, tick, promise and socket write it makes, about 15–25 µs of a cached
 * page's 70–80 µs. Node 24 stores the context without hooks, so there this changes nothing.
 *
 * The renderer only reads that storage when something outside its synchronous render asks for
 * "the current request" (React's `cache()` and resource hints from server components), which this
 * store never does: every render here is a plain server render of route components. So the
 * renderer is loaded with a storage that holds the request for the length of the synchronous
 * call only and never touches async hooks, and the real AsyncLocalStorage is put back at once for
 * everything else (decision 067).
 */
import asyncHooks from 'node:async_hooks';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';

/** What React's renderer uses of AsyncLocalStorage, kept for one synchronous call at a time. */
export class SynchronousRequestStorage<T> {
  #store: T | undefined;

  getStore(): T | undefined {
    return this.#store;
  }

  run<R, A extends unknown[]>(store: T, callback: (...args: A) => R, ...args: A): R {
    return this.#with(store, callback, args);
  }

  exit<R, A extends unknown[]>(callback: (...args: A) => R, ...args: A): R {
    return this.#with(undefined, callback, args);
  }

  #with<R, A extends unknown[]>(store: T | undefined, callback: (...args: A) => R, args: A): R {
    const previous = this.#store;
    this.#store = store;
    try {
      return callback(...args);
    } finally {
      this.#store = previous;
    }
  }

  enterWith(store: T): void {
    this.#store = store;
  }

  disable(): void {
    this.#store = undefined;
  }
}

/** The React DOM server entry the build imports, loaded now (from where the build resolves it) with the synchronous storage. */
function loadRendererWithoutAsyncHooks(serverEntry: string): void {
  // A data property on Node 20; a getter on Node 24 (which picks its implementation lazily, and
  // keeps context without hooks anyway). Either way it is configurable: swapped, then put back as it was.
  const original = Object.getOwnPropertyDescriptor(asyncHooks, 'AsyncLocalStorage');
  if (!original?.configurable) {
    createRequire(serverEntry)('react-dom/server');
    return;
  }
  Object.defineProperty(asyncHooks, 'AsyncLocalStorage', {
    value: SynchronousRequestStorage,
    configurable: true,
    enumerable: original.enumerable ?? true,
    writable: true,
  });
  try {
    // The renderer reads `require('async_hooks').AsyncLocalStorage` once, when it is first loaded;
    // the build's own `import` of it then finds it in the module cache.
    createRequire(serverEntry)('react-dom/server');
  } finally {
    Object.defineProperty(asyncHooks, 'AsyncLocalStorage', original);
  }
}

export async function importServerBuild(serverEntry: string): Promise<ServerBuild> {
  loadRendererWithoutAsyncHooks(serverEntry);
  return (await import(pathToFileURL(serverEntry).href)) as ServerBuild;
}
