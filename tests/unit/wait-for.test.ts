import { describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait-for.ts';

describe('waitFor', () => {
  it('resolves with the first truthy result, checking again until then', async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls >= 3 ? { calls } : null), { interval: 1 });
    expect(value).toEqual({ calls: 3 });
  });

  it('awaits asynchronous conditions', async () => {
    let calls = 0;
    expect(await waitFor(() => Promise.resolve(++calls === 2 ? 'ready' : ''), { interval: 1 })).toBe('ready');
  });

  it('fails with the awaited thing named once the timeout passes', async () => {
    await expect(waitFor(() => false, { timeout: 30, interval: 5, message: 'the server' })).rejects.toThrow(
      'waitFor: the server not met within 30 ms',
    );
  });

  it('stops at once when the condition throws', async () => {
    let calls = 0;
    await expect(
      waitFor(
        () => {
          calls += 1;
          throw new Error('server exited');
        },
        { timeout: 1_000 },
      ),
    ).rejects.toThrow('server exited');
    expect(calls).toBe(1);
  });
});
