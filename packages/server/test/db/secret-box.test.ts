import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSecretsKey, SecretBox, SecretBoxError } from '../../src/crypto/secret-box';
import { makeTempDir } from '../support/databases';

describe('SecretBox (secrets at rest)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('encrypts to versioned v1.<nonce>.<ciphertext+tag> text with a fresh nonce each time, and decrypts it', () => {
    const box = new SecretBox(randomBytes(32));
    const a = box.encrypt('whsec_top secret ✓');
    const b = box.encrypt('whsec_top secret ✓');
    expect(a).toMatch(/^v1\.[A-Za-z0-9+/]{16}\.[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('secret');
    expect(box.decrypt(a)).toBe('whsec_top secret ✓');
    expect(box.decrypt(box.encrypt(''))).toBe('');
  });

  it('refuses tampered text, another key and unknown versions', () => {
    const box = new SecretBox(randomBytes(32));
    const sealed = box.encrypt('value');
    const [v, nonce, ct] = sealed.split('.') as [string, string, string];
    const flipped = Buffer.from(ct, 'base64');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.decrypt(`${v}.${nonce}.${flipped.toString('base64')}`)).toThrow(SecretBoxError);
    expect(() => new SecretBox(randomBytes(32)).decrypt(sealed)).toThrow(SecretBoxError);
    expect(() => box.decrypt(`v2.${nonce}.${ct}`)).toThrow(SecretBoxError);
    expect(() => box.decrypt('plaintext')).toThrow(SecretBoxError);
    expect(() => new SecretBox(randomBytes(16))).toThrow(SecretBoxError);
    expect(JSON.stringify({ box })).not.toMatch(/[A-Za-z0-9+/]{40}/);
  });

  it('takes SECRETS_KEY when set and insists on exactly 32 bytes', () => {
    const dataDir = makeTempDir();
    dirs.push(dataDir);
    const key = randomBytes(32);
    expect(loadSecretsKey({ secretsKey: key.toString('base64'), dataDir, databaseUrl: 'postgres://x/y' }).equals(key)).toBe(true);
    expect(() => loadSecretsKey({ secretsKey: randomBytes(31).toString('base64'), dataDir, databaseUrl: 'sqlite::memory:' })).toThrow(/32 bytes/);
    expect(() => loadSecretsKey({ secretsKey: 'not base64!!', dataDir, databaseUrl: 'sqlite::memory:' })).toThrow(/32 bytes/);
    expect(() => loadSecretsKey({ secretsKey: undefined, dataDir, databaseUrl: 'postgres://x/y' })).toThrow(/required/);
    expect(fs.existsSync(path.join(dataDir, 'secrets.key'))).toBe(false);
  });

  it('with SQLite and no SECRETS_KEY, generates data/secrets.key (0600) on first start and reads it afterwards', () => {
    const dataDir = path.join(makeTempDir(), 'data');
    dirs.push(path.dirname(dataDir));
    const settings = { secretsKey: undefined, dataDir, databaseUrl: 'sqlite:/tmp/x.sqlite' };
    const first = loadSecretsKey(settings);
    const file = path.join(dataDir, 'secrets.key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(first).toHaveLength(32);
    expect(loadSecretsKey(settings).equals(first)).toBe(true);
    const sealed = new SecretBox(first).encrypt('kept across restarts');
    expect(new SecretBox(loadSecretsKey(settings)).decrypt(sealed)).toBe('kept across restarts');
  });
});
