/**
 * Decrypted webhook secrets by their ciphertext, so a delivery costs no AES-GCM decryption. One per server,
 * on its ServerContext. A rotation writes a new ciphertext (fresh nonce), so an entry can never be stale.
 */
import type { SecretBox } from '../crypto/secret-box';

const MAX_ENTRIES = 1024;

export class WebhookSecretCache {
  readonly #secrets: SecretBox;
  readonly #plain = new Map<string, string>();

  constructor(secrets: SecretBox) {
    this.#secrets = secrets;
  }

  decrypt(ciphertext: string): string {
    let plain = this.#plain.get(ciphertext);
    if (plain === undefined) {
      plain = this.#secrets.decrypt(ciphertext);
      // Emptied when full: a refill costs one decryption per webhook still receiving.
      if (this.#plain.size >= MAX_ENTRIES) this.#plain.clear();
      this.#plain.set(ciphertext, plain);
    }
    return plain;
  }
}
