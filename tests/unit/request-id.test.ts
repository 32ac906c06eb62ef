/** Request ids (server/request-id.ts): UUID-shaped, never repeated within a process, distinct per process. */
import { describe, expect, it } from 'vitest';
import { createRequestIds } from '../../server/request-id.ts';

const UUID_LAYOUT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it('are laid out as a UUID and never repeat within one sequence', () => {
    const next = createRequestIds();
    const ids = Array.from({ length: 10_000 }, () => next());
    for (const id of ids.slice(0, 5)) expect(id).toMatch(UUID_LAYOUT);
    expect(ids.at(-1)).toMatch(UUID_LAYOUT);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('differ between two sequences (two instances of the store)', () => {
    const first = createRequestIds();
    const second = createRequestIds();
    const a = Array.from({ length: 100 }, () => first());
    const b = new Set(Array.from({ length: 100 }, () => second()));
    expect(a.some((id) => b.has(id))).toBe(false);
  });
});
