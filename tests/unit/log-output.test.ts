import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { REDACTED, developmentLogger, productionLogger } from '../../server/logging.ts';
import { waitFor } from '../support/wait-for.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function logFile() {
  const dir = mkdtempSync(path.join(tmpdir(), 'boostly-log-'));
  dirs.push(dir);
  const file = path.join(dir, 'out.log');
  const fd = openSync(file, 'a');
  return { fd, read: () => readFileSync(file, 'utf8') };
}

describe('the production logger', () => {
  it('buffers routine lines (no write per line) and writes them on its regular flush', async () => {
    const out = logFile();
    const logger = productionLogger('info', out.fd, 200);
    logger.info({ method: 'GET', url: '/?token=abc', status: 200 }, 'request');
    expect(out.read()).toBe('');
    await waitFor(() => out.read() !== '', { timeout: 3000, interval: 20, message: 'the buffered line' });
    const [line] = out.read().trim().split('\n');
    expect(JSON.parse(line ?? '')).toMatchObject({ msg: 'request', url: `/?token=${REDACTED}`, status: 200 });
  });

  it('writes an error at once, with what was buffered before it', async () => {
    const out = logFile();
    // No regular flush during the test: only the error can cause the write.
    const logger = productionLogger('info', out.fd, 60_000);
    logger.info('routine');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(out.read()).toBe('');
    logger.error({ err: new Error('the supplier panel refused the key') }, 'submission failed');
    await waitFor(() => out.read().includes('submission failed'), { timeout: 3000, interval: 5, message: 'the error' });
    expect(out.read()).toContain('"msg":"routine"');
  });
});

describe('the development logger', () => {
  it('writes one readable line per event, redacted like production', () => {
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const logger = developmentLogger('info', output);
    logger.info({ method: 'POST', url: '/api/auth/login', password: 'hunter2', status: 401, ms: 12 }, 'request');
    logger.warn('the simulated panel is slow');
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: request \{.*"url":"\/api\/auth\/login".*\}$/);
    expect(lines[0]).not.toContain('hunter2');
    expect(lines[0]).toContain(REDACTED);
    expect(lines[1]).toMatch(/WARN: the simulated panel is slow$/);
    expect(() => JSON.parse(lines[0] ?? '')).toThrow();
  });
});
