/**
 * Every action the audit log can record reads in words on /admin/audit: each guarded route that
 * changes something (from the published OpenAPI document) and each action a handler names itself
 * (read from the sources, so a new `action: '…'` is checked too). A new route without words fails
 * here instead of landing in the log as `PATCH /admin/…`.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTION_WORDS, auditActionWords, loggedRouteAction } from '../../core/audit/action-words.ts';
import { type TestApp, root, startTestApp } from '../support/app.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

describe('audit action words', () => {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has words for every guarded route that changes something', async () => {
    await t!.app.ready();
    const spec = t!.app.swagger() as {
      paths: Record<string, Record<string, { security?: { adminBearer?: unknown }[] }>>;
    };
    const audited: string[] = [];
    for (const [apiPath, methods] of Object.entries(spec.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (['get', 'head', 'options'].includes(method)) continue;
        if (!(operation.security ?? []).some((entry) => 'adminBearer' in entry)) continue;
        audited.push(loggedRouteAction(method, apiPath));
      }
    }
    expect(audited.length).toBeGreaterThan(30);
    expect(audited.filter((action) => !(action in AUDIT_ACTION_WORDS))).toEqual([]);
  });

  it('has words for every action a handler names itself', () => {
    const named = new Set<string>();
    for (const file of [...sourceFiles(path.join(root, 'server')), ...sourceFiles(path.join(root, 'core'))]) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\baction: '([a-z]+(?:\.[a-z_]+)+)'/g)) {
        if (match[1]) named.add(match[1]);
      }
    }
    expect(named.size).toBeGreaterThan(10);
    expect([...named].filter((action) => !(action in AUDIT_ACTION_WORDS))).toEqual([]);
  });

  it('reads a route as words, and an unknown one still as something', () => {
    expect(auditActionWords('PATCH /admin/catalogue/services/:slug')).toBe(
      'Changed a service (prices, texts or supplier)',
    );
    expect(auditActionWords('DELETE /admin/suppliers/:id')).toBe('Deleted a supplier panel');
    expect(auditActionWords('DELETE /admin/unknown/:id')).toBe('Deleted: /admin/unknown/:id');
  });
});
