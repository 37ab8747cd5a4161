import type { CloudEnvironment, CreateEnvironmentRequest, EnvironmentListParams } from '@agent-runs/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import { environmentsQuery, invalidateEnvironments } from '../../api/environments';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/Layout';
import { StateBadge } from '../../components/StateBadge';
import { Pager, useCursorPages } from '../../components/Pager';
import { Time } from '../../components/Time';
import { useSession } from '../../session';
import './environments.css';

const PAGE_SIZE = 20;

type SortBy = NonNullable<EnvironmentListParams['sort_by']>;

/**
 * Cloud environments (the Oz API's CloudEnvironment): every key reads them, most recently updated first or
 * by name, with what their newest run says; admins create, edit and delete (x-required-role in the contract).
 */
export function EnvironmentsPage() {
  const { client, isAdmin } = useSession();
  const pages = useCursorPages();
  const [creating, setCreating] = useState(false);
  const [sortBy, setSortBy] = useState<SortBy>('last_updated');
  const environments = useQuery(environmentsQuery(client, { sort_by: sortBy, limit: PAGE_SIZE, cursor: pages.cursor }));

  return (
    <>
      <PageHeader title="Environments">
        <label className="inline">
          Sort{' '}
          <select
            aria-label="Sort environments"
            value={sortBy}
            onChange={(e) => {
              setSortBy(e.target.value as SortBy);
              pages.reset();
            }}
          >
            <option value="last_updated">Recently updated</option>
            <option value="name">Name</option>
          </select>
        </label>
        {isAdmin && !creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New environment
          </button>
        )}
      </PageHeader>
      <p className="hint">An environment's setup commands run before the agent starts; its variables are set for the run (values are write-only).</p>
      {creating && (
        <EnvironmentForm
          onDone={() => {
            setCreating(false);
            pages.reset();
          }}
        />
      )}
      <ErrorNotice error={environments.error} />
      {environments.data && environments.data.data.length === 0 && !pages.hasPrevious && <p className="muted">No environments yet.</p>}
      <ul className="environment-list" aria-label="Environments">
        {environments.data?.data.map((env) => (
          <EnvironmentItem key={env.uid} environment={env} />
        ))}
      </ul>
      <Pager pages={pages} nextCursor={environments.data?.page_info.next_cursor} what="environments" />
    </>
  );
}

function EnvironmentItem({ environment: env }: { environment: CloudEnvironment }) {
  const { client, isAdmin } = useSession();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const { name, description, setup_commands: setupCommands } = env.config;
  if (editing)
    return (
      <li>
        <EnvironmentForm environment={env} onDone={() => setEditing(false)} />
      </li>
    );
  return (
    <li className="card" aria-label={name}>
      <div className="page-header">
        <h2 className="env-name">
          {name} {env.setup_failed && <span className="badge state-failed">setup failed</span>}
        </h2>
        {isAdmin && (
          <div className="actions">
            <button type="button" onClick={() => setEditing(true)} aria-label={`Edit ${name}`}>
              Edit
            </button>
            <ConfirmButton
              label={`Delete ${name}`}
              title={`Delete environment ${name}?`}
              confirmLabel="Delete environment"
              danger
              onConfirm={async () => {
                await client.agent.environments.delete(env.uid);
                await invalidateEnvironments(queryClient);
              }}
            >
              <p>
                Runs already created keep their configuration. A new run that names it is refused, and a run started by an automation that still names it ends
                in ERROR.
              </p>
            </ConfirmButton>
          </div>
        )}
      </div>
      <dl className="fields">
        <dt>ID</dt>
        <dd>
          <code>{env.uid}</code>
        </dd>
        <dt>Description</dt>
        <dd>{description || <span className="muted">—</span>}</dd>
        <dt>Setup commands</dt>
        <dd>{setupCommands.length > 0 ? <pre>{setupCommands.join('\n')}</pre> : <span className="muted">none</span>}</dd>
        {env.config.docker_image && (
          <>
            <dt>Image</dt>
            <dd>
              <code className="break">{env.config.docker_image}</code>
              {env.config.registry_secret_name && <span className="muted"> (registry secret {env.config.registry_secret_name})</span>}
            </dd>
          </>
        )}
        {repositoryLines(env.config).length > 0 && (
          <>
            <dt>Repositories</dt>
            <dd>
              <ul className="plain-list" aria-label={`Repositories of ${name}`}>
                {repositoryLines(env.config).map((line) => (
                  <li key={line}>
                    <code className="break">{line}</code>
                  </li>
                ))}
              </ul>
              <span className="muted">
                {env.config.auto_pr ? 'opens a pull request' : 'pushes a branch'} with the token in {env.config.git_token_secret_name ?? 'GIT_TOKEN'}
              </span>
            </dd>
          </>
        )}
        <dt>Secret variables (setup only)</dt>
        <dd>
          {env.env_var_names.length > 0 ? (
            env.env_var_names.map((n) => (
              <code key={n} className="var-name">
                {n}
              </code>
            ))
          ) : (
            <span className="muted">none</span>
          )}
        </dd>
        <dt>Plain variables</dt>
        <dd>
          {Object.keys(env.plain_env_vars).length > 0 ? (
            Object.entries(env.plain_env_vars).map(([name, value]) => <code key={name} className="var-name">{`${name}=${value}`}</code>)
          ) : (
            <span className="muted">none</span>
          )}
        </dd>
        <dt>Last run</dt>
        <dd>
          {env.last_task_created ? (
            <>
              <Link href={`/runs/${env.last_task_created.id}`}>{env.last_task_created.title || env.last_task_created.id}</Link>{' '}
              <StateBadge state={env.last_task_created.state} /> · <Time value={env.last_task_created.created_at} />
            </>
          ) : (
            <span className="muted">none yet</span>
          )}
        </dd>
        <dt>Updated</dt>
        <dd>
          <Time value={env.last_updated} />
          {env.last_editor && <span className="muted"> by {env.last_editor.display_name}</span>}
        </dd>
      </dl>
    </li>
  );
}

/** `NAME=value` per line → a map; a line without `=` is reported by its number. */
function parseVariables(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const eq = line.indexOf('=');
    if (eq < 1) throw new Error(`Variables, line ${index + 1}: write NAME=value.`);
    vars[line.slice(0, eq).trim()] = line.slice(eq + 1);
  });
  return vars;
}

type EnvironmentConfig = CloudEnvironment['config'];
type Repositories = Pick<CreateEnvironmentRequest, 'github_repos' | 'repos'>;

/** One line per repository: `owner/repo [ref] [path]` (GitHub) or `https://… [ref] [path]` (any git URL). */
function repositoryLines(config: EnvironmentConfig): string[] {
  const line = (name: string, ref?: string | null, path?: string | null) =>
    [name, ref ?? (path ? '-' : undefined), path ?? undefined].filter(Boolean).join(' ');
  return [
    ...(config.github_repos ?? []).map((r) => line(`${r.owner}/${r.repo}`, r.ref, r.path)),
    ...(config.repos ?? []).map((r) => line(r.url, r.ref, r.path)),
  ];
}

/** The form's repository lines as the contract's `github_repos` and `repos`; `-` stands for "no ref". */
function parseRepositories(text: string): Repositories {
  const github_repos: NonNullable<Repositories['github_repos']> = [];
  const repos: NonNullable<Repositories['repos']> = [];
  lines(text).forEach((entry, index) => {
    const [name = '', ref, path, ...rest] = entry.split(/\s+/);
    if (rest.length > 0) throw new Error(`Repositories, line ${index + 1}: write the repository, then optionally a ref and a path.`);
    const optional = { ...(ref && ref !== '-' ? { ref } : {}), ...(path ? { path } : {}) };
    if (/^https?:\/\//.test(name)) repos.push({ url: name, ...optional });
    else {
      const match = /^([^/\s]+)\/([^/\s]+)$/.exec(name);
      if (!match) throw new Error(`Repositories, line ${index + 1}: write owner/repo for GitHub or an http(s) git URL.`);
      github_repos.push({ owner: match[1]!, repo: match[2]!, ...optional });
    }
  });
  return { github_repos, repos };
}

const lines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

/** Create (no `environment`) or edit an environment. Variables are replaced only when asked to. */
function EnvironmentForm({ environment, onDone }: { environment?: CloudEnvironment; onDone(): void }) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  const [name, setName] = useState(environment?.config.name ?? '');
  const [description, setDescription] = useState(environment?.config.description ?? '');
  const [setup, setSetup] = useState(environment?.config.setup_commands.join('\n') ?? '');
  const [image, setImage] = useState(environment?.config.docker_image ?? '');
  const [registrySecret, setRegistrySecret] = useState(environment?.config.registry_secret_name ?? '');
  const [repositories, setRepositories] = useState(environment ? repositoryLines(environment.config).join('\n') : '');
  const [gitTokenSecret, setGitTokenSecret] = useState(environment?.config.git_token_secret_name ?? '');
  const [autoPr, setAutoPr] = useState(environment?.config.auto_pr ?? false);
  const [replaceVars, setReplaceVars] = useState(!environment);
  const [vars, setVars] = useState('');
  const idPrefix = environment ? `env-${environment.uid}` : 'env-new';

  const save = useMutation({
    mutationFn: async () => {
      // An emptied description is removed (null), not stored as an empty string.
      const body: CreateEnvironmentRequest = {
        name: name.trim(),
        description: description.trim() === '' ? null : description,
        setup_commands: lines(setup),
        ...parseRepositories(repositories),
        auto_pr: autoPr,
      };
      // Empty is "none": left out of a new environment, removed (null) from an existing one.
      const named = { docker_image: image.trim(), registry_secret_name: registrySecret.trim(), git_token_secret_name: gitTokenSecret.trim() };
      for (const [field, value] of Object.entries(named) as Array<[keyof typeof named, string]>) {
        if (value !== '') body[field] = value;
      }
      if (replaceVars) body.env_vars = parseVariables(vars);
      if (!environment) return client.agent.environments.create(body);
      const cleared = Object.fromEntries(
        Object.entries(named)
          .filter(([, value]) => value === '')
          .map(([field]) => [field, null]),
      );
      return client.agent.environments.update(environment.uid, { ...body, ...cleared });
    },
    onSuccess: async () => {
      await invalidateEnvironments(queryClient);
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <form className="card" onSubmit={submit} aria-label={environment ? `Edit ${environment.config.name}` : 'New environment'}>
      <h2 className="card-heading">{environment ? `Edit ${environment.config.name}` : 'New environment'}</h2>
      <label htmlFor={`${idPrefix}-name`}>Name</label>
      <input id={`${idPrefix}-name`} required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
      <label htmlFor={`${idPrefix}-description`}>Description</label>
      <input id={`${idPrefix}-description`} maxLength={1000} value={description} onChange={(e) => setDescription(e.target.value)} />
      <div className="form-row">
        <div>
          <label htmlFor={`${idPrefix}-image`}>Container image</label>
          <input
            id={`${idPrefix}-image`}
            spellCheck={false}
            placeholder="registry.example.com/team/devbox:1.4 (empty: the server's system)"
            value={image}
            onChange={(e) => setImage(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor={`${idPrefix}-registry-secret`}>Registry secret</label>
          <input
            id={`${idPrefix}-registry-secret`}
            spellCheck={false}
            placeholder="none: read anonymously"
            value={registrySecret}
            onChange={(e) => setRegistrySecret(e.target.value)}
          />
        </div>
      </div>
      <label htmlFor={`${idPrefix}-repositories`}>Repositories (one per line: owner/repo or a git URL, then optionally a ref and a path)</label>
      <textarea
        id={`${idPrefix}-repositories`}
        rows={2}
        spellCheck={false}
        placeholder={'acme/app main\nhttps://git.example.com/libs/util.git v1.0 vendor/util'}
        value={repositories}
        onChange={(e) => setRepositories(e.target.value)}
      />
      <div className="form-row">
        <div>
          <label htmlFor={`${idPrefix}-git-token`}>Git token secret</label>
          <input
            id={`${idPrefix}-git-token`}
            spellCheck={false}
            placeholder="GIT_TOKEN"
            value={gitTokenSecret}
            onChange={(e) => setGitTokenSecret(e.target.value)}
          />
        </div>
        <label className="inline">
          <input type="checkbox" checked={autoPr} onChange={(e) => setAutoPr(e.target.checked)} /> Open a pull request when a run changes a repository
        </label>
      </div>
      <label htmlFor={`${idPrefix}-setup`}>Setup commands (one per line)</label>
      <textarea id={`${idPrefix}-setup`} rows={3} spellCheck={false} value={setup} onChange={(e) => setSetup(e.target.value)} />
      {environment && (
        <label className="inline replace-vars">
          <input type="checkbox" checked={replaceVars} onChange={(e) => setReplaceVars(e.target.checked)} />
          Replace all variables ({environment.env_var_names.length > 0 ? environment.env_var_names.join(', ') : 'none now'})
        </label>
      )}
      {replaceVars && (
        <>
          <label htmlFor={`${idPrefix}-vars`}>Variables (NAME=value per line)</label>
          <textarea
            id={`${idPrefix}-vars`}
            rows={3}
            spellCheck={false}
            autoComplete="off"
            placeholder="NPM_TOKEN=…"
            value={vars}
            onChange={(e) => setVars(e.target.value)}
          />
          <p className="hint">Values are write-only: afterwards only the names are shown.</p>
        </>
      )}
      <ErrorNotice error={save.error} title="Not saved" />
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {environment ? 'Save environment' : 'Create environment'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
