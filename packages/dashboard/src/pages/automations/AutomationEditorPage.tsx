import type { Automation, CloudEnvironment, Webhook } from '@agent-runs/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { validationErrors } from '../../api/client';
import { environmentsForSelectQuery } from '../../api/environments';
import { automationDeleted, automationQuery, automationStored, factoryQuery, webhooksQuery } from '../../api/factories';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/Layout';
import { useSession } from '../../session';
import {
  emptyForm,
  formFromAutomation,
  jsonFieldProblem,
  LIMIT_CONFIG_FIELDS,
  requestFromForm,
  sameForm,
  type AutomationForm,
  type KeptParts,
} from './automation-form';
import { TestFilterPanel } from './TestFilterPanel';
import { WebhookSelection } from './WebhookSelection';
import './automations.css';

/** Create (`/factories/:factoryUid/automations/new`) or edit an automation, and test its filter. */
export function AutomationEditorPage({ factoryUid, automationUid }: { factoryUid: string; automationUid?: string | undefined }) {
  const { client } = useSession();
  const factory = useQuery(factoryQuery(client, factoryUid));
  const webhooks = useQuery(webhooksQuery(client, factoryUid));
  const environments = useQuery(environmentsForSelectQuery(client));
  const automation = useQuery({ ...automationQuery(client, factoryUid, automationUid ?? ''), enabled: automationUid !== undefined });

  const title = automationUid ? (automation.data?.name ?? 'Automation') : 'New automation';
  const error = factory.error ?? webhooks.error ?? automation.error;
  const ready = factory.data && webhooks.data && (automationUid === undefined || automation.data);

  return (
    <>
      <p className="breadcrumb">
        <Link href={`/factories/${factoryUid}`}>{factory.data?.name ?? 'Factory'}</Link> / Automations
      </p>
      <PageHeader title={title} />
      <ErrorNotice error={error} />
      {!error && !ready && (
        <p className="loading" role="status">
          Loading…
        </p>
      )}
      {ready && (
        <Editor
          factoryUid={factoryUid}
          filesFactory={factory.data.definition_source === 'files'}
          automation={automation.data}
          webhooks={webhooks.data}
          environments={environments.data ?? []}
          environmentsError={environments.error}
        />
      )}
    </>
  );
}

interface EditorProps {
  factoryUid: string;
  filesFactory: boolean;
  automation: Automation | undefined;
  webhooks: Webhook[];
  environments: CloudEnvironment[];
  environmentsError: unknown;
}

function initialState(automation: Automation | undefined): { form: AutomationForm; kept: KeptParts } {
  return automation ? formFromAutomation(automation) : { form: emptyForm(), kept: { otherConfig: {}, otherTriggers: [] } };
}

function Editor({ factoryUid, filesFactory, automation, webhooks, environments, environmentsError }: EditorProps) {
  const { client, isAdmin } = useSession();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [saved, setSaved] = useState(() => initialState(automation));
  const [form, setForm] = useState(saved.form);
  const [justSaved, setJustSaved] = useState(false);
  const dirty = !sameForm(form, saved.form);
  const update = (change: Partial<AutomationForm>) => {
    setJustSaved(false);
    setForm((f) => ({ ...f, ...change }));
  };
  const setConfig = (field: keyof AutomationForm['config'], value: string) => update({ config: { ...form.config, [field]: value } });

  const save = useMutation({
    mutationFn: async () => {
      if (!automation) return client.factories.automations.create(factoryUid, requestFromForm(form, saved.kept));
      // A files factory's automation changes only `enabled` through the API (anything else answers 409).
      const body = filesFactory ? { enabled: form.enabled } : requestFromForm(form, saved.kept);
      return client.factories.automations.update(factoryUid, automation.uid, body);
    },
    onSuccess: (result) => {
      void automationStored(queryClient, factoryUid, result);
      if (!automation) {
        navigate(`/factories/${factoryUid}/automations/${result.uid}`, { replace: true });
        return;
      }
      const next = formFromAutomation(result);
      setSaved(next);
      setForm(next.form);
      setJustSaved(true);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };

  const filterProblem = jsonFieldProblem(form.payloadFilter);
  const mcpProblem = jsonFieldProblem(form.mcpServers);
  // The server's 422 names the filter by JSON path; the field is marked too, beside the notice.
  const serverFilterErrors = validationErrors(save.error).filter((e) => /\.filter\.payload/.test(e.path));
  const readOnly = !isAdmin;
  const environmentKnown = form.config.environment_id === '' || environments.some((e) => e.uid === form.config.environment_id);

  return (
    <>
      {readOnly && <div className="notice">Read-only: only admin keys change automations. You can still test the filter.</div>}
      {filesFactory && (
        <div className="notice notice-warning">
          This factory is defined by files: only <em>Enabled</em> can change here; edit the definition files for the rest.
        </div>
      )}
      {automation && automation.triggers.length > 1 && (
        <div className="notice">This automation has {automation.triggers.length} triggers. The editor edits the first; the others are kept as they are.</div>
      )}
      <form onSubmit={submit} aria-label="Automation">
        <fieldset disabled={readOnly || filesFactory} className="plain">
          <section className="card">
            <label htmlFor="automation-name">Name</label>
            <input id="automation-name" required maxLength={100} value={form.name} onChange={(e) => update({ name: e.target.value })} />
            <label htmlFor="automation-prompt">Prompt</label>
            <textarea id="automation-prompt" required className="prose" rows={5} value={form.prompt} onChange={(e) => update({ prompt: e.target.value })} />
            <p className="hint">Each run starts with this prompt, followed by the delivery's envelope and payload.</p>
          </section>

          <section className="card">
            <h2 className="card-heading">Trigger</h2>
            <WebhookSelection webhooks={webhooks} selected={form.webhookIds} onChange={(webhookIds) => update({ webhookIds })} />
            <label htmlFor="payload-filter">Payload filter (JSON)</label>
            <textarea
              id="payload-filter"
              rows={8}
              spellCheck={false}
              placeholder={'{\n  "action": ["opened", "reopened"],\n  "issue": { "labels": { "not_in": ["wontfix"] } }\n}'}
              aria-invalid={filterProblem !== null || serverFilterErrors.length > 0}
              aria-describedby="payload-filter-help"
              value={form.payloadFilter}
              onChange={(e) => update({ payloadFilter: e.target.value })}
            />
            <p id="payload-filter-help" className="hint">
              {filterProblem ? (
                <span className="field-problem">Not valid JSON: {filterProblem}</span>
              ) : (
                <>
                  Mirrors the delivery body: every key must match; an array lists allowed values; operators <code>in</code>, <code>not_in</code>,{' '}
                  <code>exists</code>. Empty: every delivery of the selected webhooks.
                </>
              )}
            </p>
          </section>

          <section className="card">
            <h2 className="card-heading">Agent configuration</h2>
            <div className="config-grid">
              <div>
                <label htmlFor="config-name">Run name</label>
                <input id="config-name" value={form.config.name} onChange={(e) => setConfig('name', e.target.value)} />
              </div>
              <div>
                <label htmlFor="config-model">Model ID</label>
                <input id="config-model" placeholder="server default" value={form.config.model_id} onChange={(e) => setConfig('model_id', e.target.value)} />
              </div>
              <div>
                <label htmlFor="config-environment">Environment</label>
                <select id="config-environment" value={form.config.environment_id} onChange={(e) => setConfig('environment_id', e.target.value)}>
                  <option value="">None</option>
                  {environments.map((env) => (
                    <option key={env.uid} value={env.uid}>
                      {env.config.name}
                    </option>
                  ))}
                  {!environmentKnown && <option value={form.config.environment_id}>{form.config.environment_id} (unknown environment)</option>}
                </select>
              </div>
              <div>
                <label htmlFor="config-skill">Skill spec</label>
                <input
                  id="config-skill"
                  placeholder="owner/repo:skill-name"
                  value={form.config.skill_spec}
                  onChange={(e) => setConfig('skill_spec', e.target.value)}
                />
              </div>
              {LIMIT_CONFIG_FIELDS.map((field) => (
                <div key={field}>
                  <label htmlFor={`config-${field}`}>{LIMIT_LABELS[field]}</label>
                  <input
                    id={`config-${field}`}
                    type="number"
                    inputMode="numeric"
                    placeholder="default"
                    value={form.config[field]}
                    onChange={(e) => setConfig(field, e.target.value)}
                  />
                </div>
              ))}
            </div>
            <ErrorNotice error={environmentsError} title="Could not list environments" />
            <label htmlFor="config-base-prompt">Base prompt</label>
            <textarea
              id="config-base-prompt"
              className="prose"
              rows={3}
              value={form.config.base_prompt}
              onChange={(e) => setConfig('base_prompt', e.target.value)}
            />
            <label htmlFor="config-mcp">MCP servers (JSON, by name)</label>
            <textarea
              id="config-mcp"
              rows={3}
              spellCheck={false}
              aria-invalid={mcpProblem !== null}
              aria-describedby="config-mcp-help"
              value={form.mcpServers}
              onChange={(e) => update({ mcpServers: e.target.value })}
            />
            <p id="config-mcp-help" className="hint">
              {mcpProblem ? <span className="field-problem">Not valid JSON: {mcpProblem}</span> : 'Empty: no MCP servers.'}
            </p>
          </section>
        </fieldset>
        <fieldset disabled={readOnly} className="plain">
          <label className="inline">
            <input type="checkbox" checked={form.enabled} onChange={(e) => update({ enabled: e.target.checked })} />
            Enabled: deliveries start runs
          </label>
        </fieldset>

        <ErrorNotice error={save.error} title="Not saved" />
        {justSaved && !dirty && (
          <div className="notice notice-success" role="status">
            Saved.
          </div>
        )}
        {isAdmin && (
          <div className="actions">
            <button type="submit" className="primary" disabled={save.isPending || filterProblem !== null || mcpProblem !== null}>
              {save.isPending ? 'Saving…' : automation ? 'Save changes' : 'Create automation'}
            </button>
            {automation && dirty && <span className="hint">Unsaved changes</span>}
            {automation && (
              <ConfirmButton
                label="Delete automation"
                title={`Delete ${automation.name}?`}
                danger
                onConfirm={async () => {
                  await client.factories.automations.delete(factoryUid, automation.uid);
                  void automationDeleted(queryClient, factoryUid, automation.uid);
                  navigate(`/factories/${factoryUid}`);
                }}
              >
                <p>Deliveries no longer start runs from it. Runs it already started are not affected.</p>
              </ConfirmButton>
            )}
          </div>
        )}
      </form>

      <TestFilterPanel factoryUid={factoryUid} savedAutomationUid={automation && !dirty ? automation.uid : undefined} form={form} webhooks={webhooks} />
    </>
  );
}

const LIMIT_LABELS: Record<(typeof LIMIT_CONFIG_FIELDS)[number], string> = {
  max_turns: 'Max turns',
  model_call_timeout_seconds: 'Model call timeout (s)',
  run_timeout_seconds: 'Run timeout (s)',
};
