/**
 * TOTP_ENCRYPTION_KEY (decision 022): what the variable accepts and what the config says about a
 * bad one (never the value), that logs redact it, and the sealing under environment keys:
 * authenticated, bound to the admin, readable under the current or the previous key only.
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { totpKeySource } from '../../core/auth/totp-keys.ts';
import {
  UnknownTotpKeyError,
  createDatabaseKeyBox,
  createEnvironmentSealer,
  isSealedUnderEnvironmentKey,
  parseTotpKey,
  totpSecretContext,
} from '../../core/auth/totp.ts';
import { ConfigError, loadConfig } from '../../server/config.ts';
import { REDACTED, loggerOptions } from '../../server/logging.ts';

const raw = randomBytes(32);

describe('the TOTP_ENCRYPTION_KEY value', () => {
  it('is 32 bytes as base64 (with or without padding, URL-safe too) or as 64 hex digits', () => {
    for (const text of [
      raw.toString('base64'),
      raw.toString('base64').replace(/=$/, ''),
      raw.toString('base64url'),
      raw.toString('hex'),
      raw.toString('hex').toUpperCase(),
      ` ${raw.toString('base64')}\n`,
    ]) {
      expect(parseTotpKey(text)?.equals(raw), text).toBe(true);
    }
  });

  it('refuses anything else', () => {
    for (const text of [
      '',
      'secret',
      randomBytes(16).toString('base64'),
      randomBytes(33).toString('base64'),
      randomBytes(31).toString('hex'),
      `${raw.toString('hex')}00`,
      'z'.repeat(64),
    ]) {
      expect(parseTotpKey(text), text).toBeNull();
    }
  });

  it('stops the config with a message naming the variable and how to make one, never the value', () => {
    const bad = 'not-a-key-VALUE-1234';
    for (const name of ['TOTP_ENCRYPTION_KEY', 'TOTP_ENCRYPTION_KEY_PREVIOUS']) {
      const env = { TOTP_ENCRYPTION_KEY: raw.toString('base64'), [name]: bad };
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(
        new RegExp(`${name}: must be 32 random bytes as base64 or hex: make one with \`openssl rand -base64 32\``),
      );
      try {
        loadConfig(env);
      } catch (error) {
        expect((error as Error).message).not.toContain(bad);
      }
    }
    expect(() => loadConfig({ TOTP_ENCRYPTION_KEY_PREVIOUS: raw.toString('hex') })).toThrow(
      /TOTP_ENCRYPTION_KEY: TOTP_ENCRYPTION_KEY_PREVIOUS is only read next to/,
    );
    const config = loadConfig({ TOTP_ENCRYPTION_KEY: raw.toString('hex') });
    expect(config.TOTP_ENCRYPTION_KEY).toBe(raw.toString('hex'));
  });

  it('picks the key source: the environment, else the database key in development, else none in production', () => {
    expect(totpKeySource({ key: raw.toString('base64'), production: true })).toMatchObject({
      kind: 'environment',
      keys: { current: raw, previous: null },
    });
    expect(totpKeySource({ key: undefined, production: false })).toEqual({ kind: 'database' });
    expect(totpKeySource({ key: undefined, production: true })).toEqual({ kind: 'unavailable' });
  });

  it('is redacted from logs, at the top level and inside a logged object', () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    const logger = pino(loggerOptions('info'), stream);
    const key = raw.toString('base64');
    logger.info({ TOTP_ENCRYPTION_KEY: key, TOTP_ENCRYPTION_KEY_PREVIOUS: key }, 'top level');
    logger.info({ config: { TOTP_ENCRYPTION_KEY: key } }, 'nested');
    expect(lines.join('')).not.toContain(key);
    expect(lines.join('')).toContain(REDACTED);
  });
});

describe('sealing under environment keys', () => {
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);
  const context = totpSecretContext(7);

  it('opens under the current or the previous key, and knows which one a value is under', () => {
    const underA = createEnvironmentSealer({ current: keyA, previous: null });
    const sealed = underA.seal(context, Buffer.from('JBSWY3DPEHPK3PXP'));
    expect(isSealedUnderEnvironmentKey(sealed)).toBe(true);
    expect(sealed).not.toContain(keyA.toString('base64'));
    expect(underA.isCurrent(sealed)).toBe(true);

    const rotating = createEnvironmentSealer({ current: keyB, previous: keyA });
    expect(rotating.open(context, sealed).toString()).toBe('JBSWY3DPEHPK3PXP');
    expect(rotating.isCurrent(sealed)).toBe(false);
    const resealed = rotating.seal(context, rotating.open(context, sealed));
    expect(rotating.isCurrent(resealed)).toBe(true);

    expect(() => createEnvironmentSealer({ current: keyB, previous: null }).open(context, sealed)).toThrow(
      UnknownTotpKeyError,
    );
    expect(() => underA.open(context, resealed)).toThrow(UnknownTotpKeyError);
  });

  it('is authenticated and bound to the admin: another admin, a changed byte, or an old-format value do not open', () => {
    const sealer = createEnvironmentSealer({ current: keyA, previous: null });
    const sealed = sealer.seal(context, Buffer.from('JBSWY3DPEHPK3PXP'));
    expect(() => sealer.open(totpSecretContext(8), sealed)).toThrow();
    const parts = sealed.split(':');
    const body = Buffer.from(parts[4], 'base64');
    body[0] ^= 1;
    parts[4] = body.toString('base64');
    expect(() => sealer.open(context, parts.join(':'))).toThrow();
    const databaseSealed = createDatabaseKeyBox('install-secret').seal('JBSWY3DPEHPK3PXP');
    expect(isSealedUnderEnvironmentKey(databaseSealed)).toBe(false);
    expect(() => sealer.open(context, databaseSealed)).toThrow(UnknownTotpKeyError);
  });
});
