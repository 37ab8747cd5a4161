import type { AgentListParams, AgentListVariant, ModelInfo } from '@agent-runs/sdk';
import { type Command, InvalidArgumentError } from 'commander';
import { contextOf } from '../context';
import { type Column, formatTable, formatTime } from '../output';

interface AgentsOptions {
  repo?: string;
  sortBy?: 'name' | 'last_run';
  includeMalformed?: boolean;
}

/** `agents` (GET /agent: the skills a run can start from) and `models` (GET /agent/models). */
export function registerAgentsCommands(program: Command): void {
  program
    .command('agents')
    .description('list the skills a run can start from (pass an ID to `run --skill`), grouped by name')
    .option('--repo <owner/repo>', 'only the skills of this repository (agent-runs/bundled: the bundled skills)')
    .option('--sort-by <key>', 'name (default) or last_run (the most recently run first)', sortBy)
    .option('--include-malformed', 'also list skills whose SKILL.md is malformed, with why')
    .action(async (options: AgentsOptions, command: Command) => {
      const { client, out } = contextOf(command);
      const query: AgentListParams = {};
      if (options.repo !== undefined) query.repo = options.repo;
      if (options.sortBy !== undefined) query.sort_by = options.sortBy;
      if (options.includeMalformed) query.include_malformed_skills = true;
      const answer = await client.agent.list(query);
      const rows = answer.agents.flatMap((agent) => agent.variants.map((variant) => ({ name: agent.name, variant })));
      out.result(answer, () => (rows.length === 0 ? 'no agents' : formatTable(rows, AGENT_COLUMNS)));
    });

  program
    .command('models')
    .description('list the models runs of this server can use; the default is marked *')
    .action(async (_options: unknown, command: Command) => {
      const { client, out } = contextOf(command);
      const answer = await client.agent.models.list();
      const columns: Column<ModelInfo>[] = [
        { header: 'DEFAULT', value: (m) => (m.id === answer.default_model_id ? '*' : '') },
        { header: 'ID', value: (m) => m.id },
        { header: 'PROVIDER', value: (m) => m.provider },
        { header: 'DESCRIPTION', value: (m) => m.description ?? '', maxWidth: 80 },
      ];
      out.result(answer, () => (answer.models.length === 0 ? 'no models' : formatTable(answer.models, columns)));
    });
}

const AGENT_COLUMNS: Column<{ name: string; variant: AgentListVariant }>[] = [
  { header: 'NAME', value: (r) => r.name, maxWidth: 40 },
  { header: 'ID', value: (r) => r.variant.id },
  { header: 'LAST RUN', value: (r) => (r.variant.last_run_timestamp ? formatTime(r.variant.last_run_timestamp) : '') },
  { header: 'DESCRIPTION', value: (r) => r.variant.error ?? r.variant.description, maxWidth: 60 },
];

function sortBy(value: string): 'name' | 'last_run' {
  if (value !== 'name' && value !== 'last_run') throw new InvalidArgumentError(`'${value}' is not name or last_run.`);
  return value;
}
