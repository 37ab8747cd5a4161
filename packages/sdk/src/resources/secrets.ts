import type { components, operations } from '@agent-runs/contract';
import type { APIPromise } from '../core/api-promise';
import type { PagePromise } from '../core/pagination';
import { APIResource } from '../core/resource';
import type { RequestOptions } from '../internal/request-options';

export type SecretMetadata = components['schemas']['SecretMetadata'];
export type ListSecretsResponse = components['schemas']['ListSecretsResponse'];
export type PutSecretRequest = components['schemas']['PutSecretRequest'];
export type SecretListParams = NonNullable<operations['listSecrets']['parameters']['query']>;

/** Team secrets: write-only values, listed by name. */
export class Secrets extends APIResource {
  /** Names and dates of the team's secrets. `GET /secrets` (listSecrets). */
  list(query?: SecretListParams, options?: RequestOptions): PagePromise<SecretMetadata> {
    return this._client._list('/secrets', 'secrets', { params: { query } }, options);
  }

  /** Creates or replaces a secret; answers its name, never the value. `PUT /secrets/{name}` (putSecret). */
  put(name: string, body: PutSecretRequest, options?: RequestOptions): APIPromise<SecretMetadata> {
    return this._client._operation('put', '/secrets/{name}', { params: { path: { name } }, body }, options);
  }

  /** `DELETE /secrets/{name}` (deleteSecret). */
  delete(name: string, options?: RequestOptions): APIPromise<void> {
    return this._client._operation('delete', '/secrets/{name}', { params: { path: { name } } }, options) as APIPromise<void>;
  }
}
