import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SynchronousRequestStorage } from '../../server/server-build.ts';

const root = path.resolve(import.meta.dirname, '../..');

function probe(mode: 'store' | 'plain'): { carried: boolean; storageRestored: boolean } {
  const output = execFileSync(process.execPath, ['--import', 'tsx', 'tests/support/async-hooks-probe.ts', mode], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production' },
    encoding: 'utf8',
  });
  return JSON.parse(output.trim().split('\n').at(-1) ?? '{}') as { carried: boolean; storageRestored: boolean };
}

describe('the server build as the store loads it', () => {
  // A plain import shows what the probe looks for: on Node 20 React's renderer leaves async hooks
  // on after its first render. Where the runtime keeps context without hooks (Node 24) there is
  // nothing to avoid, and the check below has nothing to see.
  const plain = probe('plain');

  it.runIf(plain.carried)('renders without leaving async hooks on for the rest of the process', () => {
    expect(probe('store')).toEqual({ carried: false, storageRestored: true });
  });

  it('keeps the renderer’s request for the length of the call, nested calls included', () => {
    const storage = new SynchronousRequestStorage<string>();
    expect(storage.getStore()).toBeUndefined();
    const seen = storage.run('outer', () => [
      storage.getStore(),
      storage.run('inner', () => storage.getStore()),
      storage.getStore(),
      storage.exit(() => storage.getStore()),
    ]);
    expect(seen).toEqual(['outer', 'inner', 'outer', undefined]);
    expect(storage.getStore()).toBeUndefined();
    expect(() =>
      storage.run('failing', () => {
        throw new Error('render failed');
      }),
    ).toThrow('render failed');
    expect(storage.getStore()).toBeUndefined();
  });
});

describe("the build's links (decision 078)", () => {
  const serverEntry = readFileSync(path.join(root, 'build/server/index.js'), 'utf8');
  const clientAssets = readdirSync(path.join(root, 'build/client/assets'));

  it('gives the server the Link that renders a plain anchor, and the browser the router’s', () => {
    expect(serverEntry).toMatch(/ from "\.\/assets\/Link\.server-[\w-]+\.js"/);
    expect(clientAssets.filter((file) => file.includes('Link'))).toEqual([]);
  });
});
