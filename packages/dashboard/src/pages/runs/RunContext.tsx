/**
 * What a run ran in and what it spent, as far as it applies to the run: the harness and model it asked for,
 * the image digest it ran on, the repositories of its environment at their refs; its usage and cost, and
 * where they stand against the run's own budget (`max_tokens`, `max_cost`). Nothing is shown for what the
 * run did not use (a command run has no model and no usage).
 */
import type { RunItem } from '@agent-runs/sdk';
import { useQuery } from '@tanstack/react-query';
import { environmentQuery } from '../../api/environments';
import { dollars } from '../../components/dollars';
import { useClient } from '../../session';

const percent = (used: number, limit: number) => `${Math.min(100, Math.round((used / limit) * 100))} %`;

export function RanIn({ run }: { run: RunItem }) {
  const client = useClient();
  const config = run.agent_config ?? {};
  const environmentId = config.environment_id ?? undefined;
  const environment = useQuery({ ...environmentQuery(client, environmentId ?? ''), enabled: environmentId !== undefined });
  const env = environment.data?.config;
  const harness = config.harness?.type;
  const model = config.harness?.model_id ?? config.model_id;
  // Runners without a model record their own name as model_id (docs/decisions.md on `GET /agent/models`): not a model.
  const modelless = !config.harness?.model_id && (model === 'command' || model === 'echo');
  const repositories = [
    ...(env?.github_repos ?? []).map((r) => ({ name: `${r.owner}/${r.repo}`, ref: r.ref, path: r.path ?? r.repo })),
    ...(env?.repos ?? []).map((r) => ({ name: r.url, ref: r.ref, path: r.path })),
  ];
  if (!harness && (!model || modelless) && !run.image_digest && !env) return null;
  return (
    <section className="card" aria-labelledby="ran-in-heading">
      <h2 id="ran-in-heading">Ran in</h2>
      <dl className="fields">
        {harness && (
          <>
            <dt>Harness</dt>
            <dd>
              <code>{harness}</code>
            </dd>
          </>
        )}
        {model && !modelless && (
          <>
            <dt>Model</dt>
            <dd>
              <code>{model}</code>
            </dd>
          </>
        )}
        {env && (
          <>
            <dt>Environment</dt>
            <dd>{environment.data?.config.name}</dd>
          </>
        )}
        {(env?.docker_image || run.image_digest) && (
          <>
            <dt>Image</dt>
            <dd className="break">
              {env?.docker_image && <code>{env.docker_image}</code>} {run.image_digest && <code className="muted">{run.image_digest}</code>}
            </dd>
          </>
        )}
        {repositories.length > 0 && (
          <>
            <dt>Repositories</dt>
            <dd>
              <ul className="plain-list">
                {repositories.map((r) => (
                  <li key={`${r.name}:${r.path ?? ''}`} className="break">
                    <code>{r.name}</code>
                    {r.ref && (
                      <>
                        {' '}
                        at <code>{r.ref}</code>
                      </>
                    )}
                    {r.path && <span className="muted"> in /workspace/{r.path}</span>}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}

export function Usage({ run }: { run: RunItem }) {
  const usage = run.usage;
  if (!usage) return null;
  const maxTokens = run.agent_config?.max_tokens ?? undefined;
  const maxCost = run.agent_config?.max_cost ?? undefined;
  return (
    <section aria-labelledby="usage-heading">
      <h2 id="usage-heading">Usage</h2>
      <dl className="fields">
        <dt>Prompt tokens</dt>
        <dd>{usage.prompt_tokens.toLocaleString()}</dd>
        <dt>Completion tokens</dt>
        <dd>{usage.completion_tokens.toLocaleString()}</dd>
        <dt>Total tokens</dt>
        <dd>
          {usage.total_tokens.toLocaleString()}
          {maxTokens !== undefined && (
            <span className="muted">
              {' '}
              of {maxTokens.toLocaleString()} allowed ({percent(usage.total_tokens, maxTokens)})
            </span>
          )}
        </dd>
        {usage.cost_usd !== undefined && (
          <>
            <dt>Cost</dt>
            <dd>
              {dollars(usage.cost_usd)}
              {maxCost !== undefined && (
                <span className="muted">
                  {' '}
                  of {dollars(maxCost)} allowed ({percent(usage.cost_usd, maxCost)})
                </span>
              )}
            </dd>
          </>
        )}
      </dl>
      {maxTokens !== undefined && <meter min={0} max={maxTokens} value={usage.total_tokens} aria-label="Tokens used of the run's budget" />}
    </section>
  );
}
