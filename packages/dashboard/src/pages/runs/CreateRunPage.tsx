/**
 * A new run (`POST /agent/runs`): the prompt, a title, the agent configuration and attachments. The
 * server's 400/422 problems are shown at the fields their `errors` paths name.
 */
import type { AmbientAgentConfig, RunAgentRequest, RunAttachmentInput } from '@agent-runs/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { validationErrors } from '../../api/client';
import { environmentsForSelectQuery } from '../../api/environments';
import { invalidateRunLists, modelsQuery } from '../../api/runs';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/Layout';
import { useClient } from '../../session';
import './runs.css';

const MAX_ATTACHMENTS = 5;

interface Draft {
  prompt: string;
  title: string;
  name: string;
  model_id: string;
  base_prompt: string;
  environment_id: string;
  skill_spec: string;
  mcp_servers: string;
  max_turns: string;
  model_call_timeout_seconds: string;
  run_timeout_seconds: string;
}

const EMPTY: Draft = {
  prompt: '',
  title: '',
  name: '',
  model_id: '',
  base_prompt: '',
  environment_id: '',
  skill_spec: '',
  mcp_servers: '',
  max_turns: '',
  model_call_timeout_seconds: '',
  run_timeout_seconds: '',
};

/** Client-side checks, keyed by the JSON path the server would use. */
function checkDraft(draft: Draft, files: File[]): Record<string, string> {
  const errors: Record<string, string> = {};
  if (draft.mcp_servers.trim()) {
    try {
      const value: unknown = JSON.parse(draft.mcp_servers);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        errors['$.config.mcp_servers'] = 'must be a JSON object: server names to their settings';
      }
    } catch (err) {
      errors['$.config.mcp_servers'] = `is not valid JSON (${err instanceof Error ? err.message : String(err)})`;
    }
  }
  if (files.length > MAX_ATTACHMENTS) errors['$.attachments'] = `at most ${MAX_ATTACHMENTS} files`;
  return errors;
}

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error(`Could not read ${file.name}`));
    reader.readAsDataURL(file);
  });
}

async function requestOf(draft: Draft, files: File[]): Promise<RunAgentRequest> {
  const config: AmbientAgentConfig = {};
  for (const key of ['name', 'model_id', 'base_prompt', 'environment_id', 'skill_spec'] as const) {
    if (draft[key].trim()) config[key] = draft[key].trim();
  }
  if (draft.mcp_servers.trim()) config.mcp_servers = JSON.parse(draft.mcp_servers) as AmbientAgentConfig['mcp_servers'];
  for (const key of ['max_turns', 'model_call_timeout_seconds', 'run_timeout_seconds'] as const) {
    if (draft[key].trim()) config[key] = Number(draft[key]);
  }
  const attachments: RunAttachmentInput[] = await Promise.all(
    files.map(async (file) => ({ file_name: file.name, mime_type: file.type || 'application/octet-stream', data: await readBase64(file) })),
  );
  return {
    prompt: draft.prompt,
    ...(draft.title.trim() ? { title: draft.title.trim() } : {}),
    ...(Object.keys(config).length > 0 ? { config } : {}),
    ...(attachments.length > 0 ? { attachments } : {}),
  };
}

/** The messages for `path` and anything beneath it (`$.attachments` covers `$.attachments[0].data`). */
function messagesAt(errors: Array<{ path: string; message: string }>, path: string): string[] {
  return errors.filter((e) => e.path === path || e.path.startsWith(`${path}.`) || e.path.startsWith(`${path}[`)).map((e) => e.message);
}

export function CreateRunPage() {
  const client = useClient();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [draft, setDraft] = useState(EMPTY);
  const [files, setFiles] = useState<File[]>([]);
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const environments = useQuery(environmentsForSelectQuery(client));
  // Suggestions for the model field; any id may still be typed.
  const models = useQuery(modelsQuery(client));

  const serverErrors = validationErrors(error);
  const fieldErrors = (path: string) => [...(clientErrors[path] ? [clientErrors[path]] : []), ...messagesAt(serverErrors, path)];
  const set = (key: keyof Draft) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems = checkDraft(draft, files);
    setClientErrors(problems);
    setError(null);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      const created = await client.agent.runs.create(await requestOf(draft, files));
      void invalidateRunLists(queryClient);
      navigate(`/runs/${created.run_id}`);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  /** A labelled control with its hint and its errors, wired up with aria-describedby / aria-invalid. */
  const field = (id: string, path: string, label: string, control: (describedBy: string | undefined, invalid: boolean) => ReactNode, hint?: string) => {
    const messages = fieldErrors(path);
    const describedBy = [hint ? `${id}-hint` : '', messages.length ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
    return (
      <div>
        <label htmlFor={id}>{label}</label>
        {control(describedBy, messages.length > 0)}
        {hint && (
          <p className="hint" id={`${id}-hint`}>
            {hint}
          </p>
        )}
        {messages.length > 0 && (
          <p className="field-error" id={`${id}-error`}>
            {messages.join('; ')}
          </p>
        )}
      </div>
    );
  };
  const input = (id: string, key: keyof Draft, path: string, label: string, hint?: string, extra: Record<string, unknown> = {}) =>
    field(
      id,
      path,
      label,
      (describedBy, invalid) => (
        <input id={id} value={draft[key]} onChange={set(key)} aria-describedby={describedBy} aria-invalid={invalid || undefined} {...extra} />
      ),
      hint,
    );

  return (
    <>
      <PageHeader title="New run" />
      <form className="run-form card" onSubmit={submit}>
        {field(
          'run-prompt',
          '$.prompt',
          'Prompt',
          (describedBy, invalid) => (
            <textarea
              id="run-prompt"
              required
              rows={6}
              value={draft.prompt}
              onChange={set('prompt')}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
            />
          ),
          'What the agent should do. Required.',
        )}
        {input('run-title', 'title', '$.title', 'Title', 'Defaults to the first line of the prompt.', { maxLength: 200 })}

        <fieldset>
          <legend>Agent configuration (optional)</legend>
          {input('run-config-name', 'name', '$.config.name', 'Config name', 'A label to group and filter runs by.')}
          {input(
            'run-model',
            'model_id',
            '$.config.model_id',
            'Model',
            `Defaults to the server's model${models.data?.default_model_id ? ` (${models.data.default_model_id})` : ''}.`,
            { list: 'run-models' },
          )}
          <datalist id="run-models">
            {models.data?.models.map((model) => (
              <option key={model.id} value={model.id} />
            ))}
          </datalist>
          {field(
            'run-base-prompt',
            '$.config.base_prompt',
            'Base prompt',
            (describedBy, invalid) => (
              <textarea
                id="run-base-prompt"
                rows={3}
                value={draft.base_prompt}
                onChange={set('base_prompt')}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
              />
            ),
            "Shapes the agent's behaviour.",
          )}
          {field('run-environment', '$.config.environment_id', 'Environment', (describedBy, invalid) => (
            <select
              id="run-environment"
              value={draft.environment_id}
              onChange={set('environment_id')}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
            >
              <option value="">None</option>
              {environments.data?.map((env) => (
                <option key={env.uid} value={env.uid}>
                  {env.config.name} ({env.uid})
                </option>
              ))}
            </select>
          ))}
          <ErrorNotice error={environments.error} title="Could not list environments" />
          {input(
            'run-skill-spec',
            'skill_spec',
            '$.config.skill_spec',
            'Skill',
            'A skill as the base prompt: owner/repo:skill-name or owner/repo:path/to/SKILL.md.',
          )}
          {field(
            'run-mcp-servers',
            '$.config.mcp_servers',
            'MCP servers (JSON)',
            (describedBy, invalid) => (
              <textarea
                id="run-mcp-servers"
                rows={4}
                spellCheck={false}
                placeholder={'{ "search": { "url": "https://mcp.example.org/search" } }'}
                value={draft.mcp_servers}
                onChange={set('mcp_servers')}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
              />
            ),
            'An object of servers by name: {"command", "args", "env"} for a local process or {"url", "headers"} for HTTP.',
          )}
          <div className="limits">
            {input('run-max-turns', 'max_turns', '$.config.max_turns', 'Max turns', '1–200, default 20.', { type: 'number', min: 1, max: 200 })}
            {input('run-model-timeout', 'model_call_timeout_seconds', '$.config.model_call_timeout_seconds', 'Model call timeout (s)', 'Default 120.', {
              type: 'number',
              min: 1,
            })}
            {input('run-run-timeout', 'run_timeout_seconds', '$.config.run_timeout_seconds', 'Run timeout (s)', 'Per step, default 1800.', {
              type: 'number',
              min: 1,
            })}
          </div>
        </fieldset>

        {field(
          'run-attachments',
          '$.attachments',
          'Attachments',
          (describedBy, invalid) => (
            <input
              id="run-attachments"
              type="file"
              multiple
              onChange={(e) => setFiles(Array.from(e.target.files ?? []))}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
            />
          ),
          `Up to ${MAX_ATTACHMENTS} files, within the request size limit.`,
        )}

        <ErrorNotice error={error} title="Could not start the run" />
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Starting…' : 'Start run'}
          </button>
        </div>
      </form>
    </>
  );
}
