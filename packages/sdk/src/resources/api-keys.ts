import type { components, operations } from '@agent-runs/contract';
import type { APIPromise } from '../core/api-promise';
import type { PagePromise } from '../core/pagination';
import { APIResource } from '../core/resource';
import type { RequestOptions } from '../internal/request-options';

export type ApiKey = components['schemas']['ApiKey'];
export type ApiKeyRole = components['schemas']['ApiKeyRole'];
export type ApiKeyWithValue = components['schemas']['ApiKeyWithValue'];
export type CreateApiKeyRequest = components['schemas']['CreateApiKeyRequest'];
export type ListApiKeysResponse = components['schemas']['ListApiKeysResponse'];
/** The calling key and its team (`apiKeys.current()`). */
export type CurrentApiKey = components['schemas']['CurrentApiKey'];
export type Team = components['schemas']['Team'];
export type ApiKeyListParams = NonNullable<operations['listApiKeys']['parameters']['query']>;

export class APIKeys extends APIResource {
  /** Creates a key; the answer holds `api_key`, shown only here. `POST /api-keys` (createApiKey). */
  create(body: CreateApiKeyRequest, options?: RequestOptions): APIPromise<ApiKeyWithValue> {
    return this._client._operation('post', '/api-keys', { body }, options);
  }

  /** The key this client calls with (its role) and its team; any role. `GET /api-keys/current` (getCurrentApiKey). */
  current(options?: RequestOptions): APIPromise<CurrentApiKey> {
    return this._client._operation('get', '/api-keys/current', {}, options);
  }

  /** `GET /api-keys` (listApiKeys). */
  list(query?: ApiKeyListParams, options?: RequestOptions): PagePromise<ApiKey> {
    return this._client._list('/api-keys', 'api_keys', { params: { query } }, options);
  }

  /** `DELETE /api-keys/{keyId}` (deleteApiKey). */
  delete(keyId: string, options?: RequestOptions): APIPromise<void> {
    return this._client._operation('delete', '/api-keys/{keyId}', { params: { path: { keyId } } }, options) as APIPromise<void>;
  }
}
