/**
 * Encryption of secrets at rest: AES-256-GCM with a random 12-byte nonce per value, stored as the versioned
 * text `v1.<base64 nonce>.<base64 ciphertext+tag>` (tables.ts `EncryptedText`).
 *
 * The same key signs what the server hands out and must recognise later (signed download URLs): HMAC-SHA256
 * under a key derived per purpose (HKDF), so a signature made for one purpose never verifies for another and
 * the encryption key itself is never used as a MAC key.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDir } from '../private-files';
import type { Settings } from '../settings';

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {}

export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== KEY_BYTES) throw new SecretBoxError(`the secrets key must be ${KEY_BYTES} bytes`);
    this.#key = Buffer.from(key);
  }

  encrypt(plaintext: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce);
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `v1.${nonce.toString('base64')}.${sealed.toString('base64')}`;
  }

  decrypt(text: string): string {
    const [version, nonceB64, sealedB64, ...rest] = text.split('.');
    if (version !== 'v1' || nonceB64 === undefined || sealedB64 === undefined || rest.length > 0) {
      throw new SecretBoxError('not a v1 encrypted value');
    }
    const nonce = Buffer.from(nonceB64, 'base64');
    const sealed = Buffer.from(sealedB64, 'base64');
    if (nonce.length !== NONCE_BYTES || sealed.length < TAG_BYTES) throw new SecretBoxError('malformed encrypted value');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, nonce);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('encrypted value does not verify under this key (wrong SECRETS_KEY?)');
    }
  }

  /** HMAC-SHA256 of `message` under the key derived for `purpose`, base64url. */
  sign(purpose: string, message: string): string {
    return createHmac('sha256', this.#purposeKey(purpose)).update(message, 'utf8').digest('base64url');
  }

  /** Whether `signature` is `sign(purpose, message)`, compared in constant time. */
  verify(purpose: string, message: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(purpose, message), 'utf8');
    const given = Buffer.from(signature, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  #purposeKey(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.#key, Buffer.alloc(0), `agent-runs signing: ${purpose}`, KEY_BYTES));
  }

  /** Never let the key reach a log line through util.inspect or JSON.stringify. */
  toJSON(): string {
    return '[SecretBox]';
  }
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return '[SecretBox]';
  }
}

/** Decodes SECRETS_KEY: base64 of exactly 32 bytes. */
export function parseSecretsKey(base64: string): Buffer {
  const trimmed = base64.trim();
  const key = Buffer.from(trimmed, 'base64');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) || key.length !== KEY_BYTES) {
    throw new SecretBoxError(`SECRETS_KEY must be base64 of exactly ${KEY_BYTES} bytes`);
  }
  return key;
}

/**
 * The key from SECRETS_KEY; otherwise (SQLite only — settings refuse PostgreSQL without it) the key file
 * `<dataDir>/secrets.key`, generated with mode 0600 on first start and read on every later one.
 */
export function loadSecretsKey(settings: Pick<Settings, 'secretsKey' | 'dataDir' | 'databaseUrl'>): Buffer {
  if (settings.secretsKey !== undefined) return parseSecretsKey(settings.secretsKey);
  if (!settings.databaseUrl.startsWith('sqlite:')) {
    throw new SecretBoxError('SECRETS_KEY is required with PostgreSQL (base64 of 32 bytes)');
  }
  const file = path.join(settings.dataDir, 'secrets.key');
  ensurePrivateDir(settings.dataDir);
  try {
    // 'wx' fails if the file exists, so two processes starting together never overwrite each other's key.
    fs.writeFileSync(file, randomBytes(KEY_BYTES).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return parseSecretsKey(fs.readFileSync(file, 'utf8'));
}

export function createSecretBox(settings: Pick<Settings, 'secretsKey' | 'dataDir' | 'databaseUrl'>): SecretBox {
  return new SecretBox(loadSecretsKey(settings));
}
