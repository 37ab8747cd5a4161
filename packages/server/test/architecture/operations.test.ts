/**
 * The contract drives the routes (api/operations.ts): every REST operation of openapi/v1.yaml has exactly
 * one handler in api/handlers.ts, mounted at the contract's path, and there is no handler the contract
 * does not name.
 */
import { describe, expect, it } from 'vitest';
import { handlers } from '../../src/api/handlers';
import { expressPath } from '../../src/api/operations';
import { loadRestSpec } from '../../src/http/validator';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function contractOperations(): Array<{ operationId: string; method: string; path: string }> {
  return Object.entries(loadRestSpec().paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operationId = (item[method] as { operationId?: string } | undefined)?.operationId;
      return operationId ? [{ operationId, method, path }] : [];
    }),
  );
}

describe('operations and handlers', () => {
  it('every REST operationId has a handler and every handler an operation', () => {
    const ids = contractOperations().map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(Object.keys(handlers).sort()).toEqual([...ids].sort());
  });

  it('contract paths become Express paths with named parameters', () => {
    expect(expressPath('/factories/{factoryUid}/webhooks/{webhookUid}/rotate-secret')).toBe('/factories/:factoryUid/webhooks/:webhookUid/rotate-secret');
  });
});
