/**
 * Run as its own process (tests/integration/server-build.test.ts): renders a page with React's
 * server renderer, loaded as the store loads it (`importServerBuild`) or as a plain import
 * (`plain`), then reports from a later timer whether an AsyncLocalStorage's store was carried to
 * it, which is what async hooks switched on for the whole process look like on Node 20.
 */
import asyncHooks, { executionAsyncResource } from 'node:async_hooks';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { createElement } from 'react';
import { importServerBuild } from '../../server/server-build.ts';

const serverEntry = path.resolve(import.meta.dirname, '../../build/server/index.js');
const realStorage = asyncHooks.AsyncLocalStorage;
if (process.argv[2] === 'plain') await import(pathToFileURL(serverEntry).href);
else await importServerBuild(serverEntry);
const { renderToPipeableStream } = await import('react-dom/server');

await new Promise<void>((resolve, reject) => {
  const { pipe } = renderToPipeableStream(createElement('p', null, 'rendered'), {
    onAllReady() {
      pipe(new Writable({ write: (_chunk, _encoding, done) => done(), final: (done) => (done(), resolve()) }));
    },
    onShellError: reject,
  });
});

setTimeout(() => {
  const carried = Object.getOwnPropertySymbols(executionAsyncResource()).some(
    (symbol) => symbol.description === 'kResourceStore',
  );
  console.log(JSON.stringify({ carried, storageRestored: asyncHooks.AsyncLocalStorage === realStorage }));
}, 1);
