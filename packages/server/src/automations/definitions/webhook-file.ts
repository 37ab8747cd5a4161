/**
 * `webhooks/<name>.yaml` (contract: applyFactoryDefinitions): a YAML mapping with `authMode` (token |
 * url_token | signature, default token), `signatureScheme` (signature only, required there), `secretName`
 * (required: an existing team secret — checked at apply), `name` (default <name>), `deliveryIdHeader`,
 * `enabled` (default true). Any other key is an error.
 */
import { isCredentialHeader, isSignatureSchemeName, SIGNATURE_SCHEME_NAMES, type SignatureSchemeName } from '../../webhooks/schemes';
import type { WebhookAuthMode } from '../../webhooks/secrets';
import { isObject, parseYaml, unknownKeys, WEBHOOK_FILE, type DefinitionFile, type FileError, type Parsed } from './files';

export interface WebhookDefinition {
  file: string;
  name: string;
  authMode: WebhookAuthMode;
  signatureScheme: SignatureSchemeName | null;
  secretName: string;
  deliveryIdHeader: string | null;
  enabled: boolean;
}

const KEYS = ['authMode', 'signatureScheme', 'secretName', 'name', 'deliveryIdHeader', 'enabled'] as const;
// A Record, so a mode the contract adds fails the type check until it is listed here.
const AUTH_MODES = Object.keys({ token: true, url_token: true, signature: true } satisfies Record<WebhookAuthMode, true>) as WebhookAuthMode[];
const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;

export function parseWebhookFile({ path, content }: DefinitionFile): Parsed<WebhookDefinition> {
  const stem = WEBHOOK_FILE.exec(path)?.[1];
  if (stem === undefined) return { ok: false, errors: [{ file: path, message: 'a webhook file is webhooks/<name>.yaml' }] };
  const yaml = parseYaml(content);
  if (!yaml.ok) return { ok: false, errors: [{ file: path, message: yaml.message }] };
  const doc = yaml.value;
  if (!isObject(doc)) return { ok: false, errors: [{ file: path, message: 'must be a YAML mapping of webhook settings' }] };

  const errors: FileError[] = unknownKeys(path, doc, KEYS);
  const fail = (message: string) => errors.push({ file: path, message });

  const authMode = doc.authMode ?? 'token';
  if (!AUTH_MODES.includes(authMode as WebhookAuthMode)) fail(`authMode must be one of ${AUTH_MODES.join(', ')}`);
  const scheme = doc.signatureScheme;
  if (authMode === 'signature') {
    if (scheme === undefined) fail('signatureScheme is required when authMode is signature');
    else if (!isSignatureSchemeName(scheme)) fail(`signatureScheme must be one of ${SIGNATURE_SCHEME_NAMES.join(', ')}`);
  } else if (scheme !== undefined) {
    fail('signatureScheme is only allowed when authMode is signature');
  }
  const secretName = doc.secretName;
  if (secretName === undefined) fail('secretName is required: the name of an existing team secret');
  else if (typeof secretName !== 'string' || !SECRET_NAME.test(secretName))
    fail('secretName must be a secret name (letters, digits and _, not starting with a digit)');
  const name = doc.name ?? stem;
  if (typeof name !== 'string' || name.length < 1 || name.length > 100) fail('name must be a string of 1–100 characters');
  const header = doc.deliveryIdHeader ?? null;
  if (header !== null && (typeof header !== 'string' || !HEADER_NAME.test(header))) fail('deliveryIdHeader must be an HTTP header name');
  else if (header !== null && isCredentialHeader(header))
    fail('deliveryIdHeader must not name a header that carries a credential (a token, a cookie or a signature)');
  const enabled = doc.enabled ?? true;
  if (typeof enabled !== 'boolean') fail('enabled must be true or false');

  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      file: path,
      name: name as string,
      authMode: authMode as WebhookAuthMode,
      signatureScheme: authMode === 'signature' ? (scheme as SignatureSchemeName) : null,
      secretName: secretName as string,
      deliveryIdHeader: header as string | null,
      enabled: enabled as boolean,
    },
  };
}
