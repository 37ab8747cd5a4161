/**
 * A run's `config.harness_auth_secrets` (the Oz API's field, plus `gemini_auth_secret_name` as an
 * extension): names of team secrets holding the team's own provider keys, which the gateway then uses
 * for the run's processes instead of the operator's. Read when an execution starts; the values stay in
 * the server (the sandbox sees only the execution's gateway key).
 */
import type { ServerContext } from '../../context';
import { findTeamSecret } from '../../secrets/repository';
import type { ModelProviderName } from '../../settings';
import { RunFailureError, type ResolvedAgentConfig } from '../../runs/contract';
import type { TeamProviderKeys } from './gateway';

export const HARNESS_AUTH_SECRET_FIELDS = {
  codex_auth_secret_name: 'openai',
  claude_auth_secret_name: 'anthropic',
  gemini_auth_secret_name: 'gemini',
} as const satisfies Record<string, ModelProviderName>;

/** Thrown when a named secret is missing: the worker FAILS the run with the status message. */
export class HarnessAuthSecretError extends RunFailureError {
  override readonly name = 'HarnessAuthSecretError';
  constructor(field: string, name: string) {
    super(`config.harness_auth_secrets.${field} names the secret ${name}, which the team does not have.`, 'harness_auth_secret_not_found');
  }
}

export async function harnessAuthKeys(ctx: Pick<ServerContext, 'db' | 'secrets'>, teamId: string, config: ResolvedAgentConfig): Promise<TeamProviderKeys> {
  const named = (config.harness_auth_secrets ?? {}) as Record<string, unknown>;
  const keys: TeamProviderKeys = {};
  for (const [field, provider] of Object.entries(HARNESS_AUTH_SECRET_FIELDS)) {
    const name = named[field];
    if (typeof name !== 'string' || name === '') continue;
    const row = await findTeamSecret(ctx.db, teamId, name);
    if (!row) throw new HarnessAuthSecretError(field, name);
    keys[provider] = ctx.secrets.decrypt(row.value);
  }
  return keys;
}
