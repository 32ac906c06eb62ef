import { describe, expect, it } from 'vitest';
import { MAX_AUDIT_SUMMARY_CHARS, auditSummaryJson, redactSecrets } from '../../core/audit/audit.ts';

/** What the audit log keeps of a request: no bytes, no secrets, nothing huge. */
describe('the audit redactor', () => {
  const fileBytes = Buffer.from('this is not an image at all '.repeat(15_000)); // ~410 KB

  it('replaces a Buffer by a short description of the file', () => {
    expect(redactSecrets({ title: 'Post', image: fileBytes })).toEqual({ title: 'Post', image: '[file, 410 KB]' });
  });

  it('replaces typed arrays, DataViews, ArrayBuffers and Blobs, at any depth', () => {
    const stored = redactSecrets({
      a: new Uint8Array(10),
      b: new Float64Array(4),
      c: new ArrayBuffer(2048),
      d: new DataView(new ArrayBuffer(3)),
      nested: { deeper: [new Uint16Array(512), new Blob(['x'.repeat(3 * 1024 * 1024)])] },
    });
    expect(stored).toEqual({
      a: '[file, 10 bytes]',
      b: '[file, 32 bytes]',
      c: '[file, 2 KB]',
      d: '[file, 3 bytes]',
      nested: { deeper: ['[file, 1 KB]', '[file, 3.0 MB]'] },
    });
  });

  it('recognises a byte array spelled out as an object, and a serialised Buffer', () => {
    const spelled = JSON.parse(JSON.stringify({ ...new Uint8Array(fileBytes.subarray(0, 5000)) })) as unknown;
    expect(redactSecrets({ image: spelled })).toEqual({ image: '[file, 5 KB]' });
    expect(redactSecrets({ image: fileBytes.subarray(0, 100).toJSON() })).toEqual({ image: '[file, 100 bytes]' });
    // A small object with numeric keys (a tier table keyed by position) is data, not bytes.
    expect(redactSecrets({ tiers: { '0': 100, '1': 250 } })).toEqual({ tiers: { '0': 100, '1': 250 } });
  });

  it('cuts long strings, long lists, wide objects and deep nesting', () => {
    const wide = Object.fromEntries(Array.from({ length: 500 }, (_, index) => [`field${index}`, index]));
    const deep = { a: { b: { c: { d: { e: { f: 'deep' } } } } } };
    const stored = redactSecrets({
      text: 'y'.repeat(100_000),
      list: Array.from({ length: 1000 }, String),
      wide,
      deep,
    }) as {
      text: string;
      list: string[];
      wide: Record<string, unknown>;
      deep: unknown;
    };
    expect(stored.text.length).toBeLessThanOrEqual(201);
    expect(stored.list).toHaveLength(21);
    expect(stored.list.at(-1)).toBe('… 980 more');
    expect(Object.keys(stored.wide)).toHaveLength(41);
    expect(stored.wide['…']).toBe('460 more fields');
    expect(JSON.stringify(stored.deep)).not.toContain('deep"');
  });

  it('still redacts secrets by field name', () => {
    expect(redactSecrets({ password: 'hunter2', apiKey: 'k', name: 'n' })).toEqual({
      password: '[redacted]',
      apiKey: '[redacted]',
      name: 'n',
    });
  });

  it('stores at most MAX_AUDIT_SUMMARY_CHARS of JSON per row, cut with a marker and still valid', () => {
    const huge = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [
        `f${i}`,
        Object.fromEntries(Array.from({ length: 40 }, (_, j) => [`g${j}`, '"\\'.repeat(150)])),
      ]),
    );
    const text = auditSummaryJson({ before: huge, after: huge });
    expect(text).not.toBeNull();
    expect(text!.length).toBeLessThanOrEqual(MAX_AUDIT_SUMMARY_CHARS);
    const parsed = JSON.parse(text!) as { before: Record<string, string>; after: Record<string, string> };
    expect(parsed.after['…']).toMatch(/^cut: /);
    expect(parsed.after['start']).toMatch(/^\{"f0"/);
    expect(auditSummaryJson({ after: { image: fileBytes } })).toBe('{"after":{"image":"[file, 410 KB]"}}');
    expect(auditSummaryJson({})).toBeNull();
  });
});
