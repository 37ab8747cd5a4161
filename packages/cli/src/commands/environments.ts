import type { CloudEnvironment, EnvironmentListParams } from '@agent-runs/sdk';
import { type Command, InvalidArgumentError } from 'commander';
import { addPageOptions, contextOf, type PageOptions, pageQuery } from '../context';
import { type Column, formatFields, formatPage, formatTime } from '../output';

/** `environments list|get`: the team's cloud environments (Oz's CloudEnvironment shape). */
export function registerEnvironmentsCommands(program: Command): void {
  const environments = program.command('environments').description("read the team's cloud environments (select one with `run --environment`)");

  addPageOptions(
    environments
      .command('list')
      .description('list environments, most recently updated first')
      .option('--sort-by <key>', 'last_updated (default) or name', sortBy),
    'environments',
    50,
  ).action(async (options: PageOptions & { sortBy?: EnvironmentListParams['sort_by'] }, command: Command) => {
    const { client, out } = contextOf(command);
    const query: EnvironmentListParams = pageQuery(options);
    if (options.sortBy !== undefined) query.sort_by = options.sortBy;
    const page = await client.agent.environments.list(query);
    out.result(page.body, () => formatPage(page.data, page.page_info, ENVIRONMENT_COLUMNS, 'no environments'));
  });

  environments
    .command('get')
    .description('show one environment')
    .argument('<environmentId>', 'the environment (env_…)')
    .action(async (environmentId: string, _options: unknown, command: Command) => {
      const { client, out } = contextOf(command);
      const env = await client.agent.environments.retrieve(environmentId);
      out.result(env, () =>
        formatFields([
          ['uid', env.uid],
          ['name', env.config.name],
          ['description', env.config.description],
          ['setup_commands', env.config.setup_commands.join('\n')],
          ['env_var_names', env.env_var_names.join(', ')],
          [
            'plain_env_vars',
            Object.entries(env.plain_env_vars)
              .map(([name, value]) => `${name}=${value}`)
              .join('\n'),
          ],
          ['last_updated', formatTime(env.last_updated)],
          ['last_task', env.last_task_created ? `${env.last_task_created.id} (${env.last_task_created.state})` : undefined],
          ['setup_failed', env.setup_failed ? 'yes' : undefined],
        ]),
      );
    });
}

const ENVIRONMENT_COLUMNS: Column<CloudEnvironment>[] = [
  { header: 'UID', value: (e) => e.uid },
  { header: 'NAME', value: (e) => e.config.name, maxWidth: 40 },
  { header: 'UPDATED', value: (e) => formatTime(e.last_updated) },
  { header: 'LAST RUN', value: (e) => (e.last_task_created ? e.last_task_created.state : '') },
  { header: 'SETUP', value: (e) => (e.setup_failed ? 'failed' : '') },
];

function sortBy(value: string): 'last_updated' | 'name' {
  if (value !== 'last_updated' && value !== 'name') throw new InvalidArgumentError(`'${value}' is not last_updated or name.`);
  return value;
}
