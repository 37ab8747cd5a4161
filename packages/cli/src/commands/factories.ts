import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  type ApplyDefinitionsResponse,
  type CreateFactoryRequest,
  type DefinitionFile,
  type DefinitionSource,
  definitionSourceValues,
  type Factory,
} from '@agent-runs/sdk';
import { type Command, Option } from 'commander';
import { addPageOptions, contextOf, factoryOption, type PageOptions, pageQuery } from '../context';
import { UsageError } from '../errors';
import { type Column, formatFields, formatPage, formatTable, formatTime } from '../output';

/** The definition files a factory directory holds: folder and file-name ending, as the API names them. */
const DEFINITION_KINDS = [
  { folder: 'webhooks', extension: '.yaml' },
  { folder: 'automations', extension: '.md' },
] as const;

/** `factories list|create|get|apply` (also spelled `factory`, as `factory apply` was first). */
export function registerFactoriesCommands(program: Command): void {
  const factories = program.command('factories').alias('factory').description('list, create and inspect factories; apply definition files to one');

  addPageOptions(factories.command('list').description("list the team's factories, newest first"), 'factories', 50).action(
    async (options: PageOptions, command: Command) => {
      const { client, out } = contextOf(command);
      const page = await client.factories.list(pageQuery(options));
      out.result(page.body, () => formatPage(page.data, page.page_info, FACTORY_COLUMNS, 'no factories'));
    },
  );

  factories
    .command('create')
    .description('create a factory (admin key); its definition source is fixed from then on')
    .requiredOption('--name <name>', 'name, unique within the team')
    .addOption(
      new Option(
        '--definition-source <source>',
        'api: changed through the API and these commands; files: only by `factories apply` (server default api)',
      ).choices(definitionSourceValues),
    )
    .action(async (options: { name: string; definitionSource?: DefinitionSource }, command: Command) => {
      const { client, out } = contextOf(command);
      const body: CreateFactoryRequest = { name: options.name };
      if (options.definitionSource !== undefined) body.definition_source = options.definitionSource;
      const factory = await client.factories.create(body);
      out.result(factory, () => formatFactory(factory));
    });

  factories
    .command('get')
    .description('show one factory')
    .argument('<factoryUid>', 'the factory (fac_…)')
    .action(async (factoryUid: string, _options: unknown, command: Command) => {
      const { client, out } = contextOf(command);
      const factory = await client.factories.retrieve(factoryUid);
      out.result(factory, () => formatFactory(factory));
    });

  factories
    .command('apply')
    .description(
      "make the factory's webhooks and automations exactly those of <dir>/webhooks/*.yaml and <dir>/automations/*.md " +
        '(definitions missing from <dir> are deleted)',
    )
    .addOption(factoryOption())
    .argument('<dir>', 'the directory holding webhooks/ and automations/')
    .action(async (dir: string, options: { factory: string }, command: Command) => {
      const { client, out, invocation } = contextOf(command);
      const files = await readDefinitionFiles(dir, invocation.io.cwd);
      const applied = await client.factories.applyDefinitions(options.factory, { files });
      out.result(applied, () => formatApplied(applied));
    });
}

const FACTORY_COLUMNS: Column<Factory>[] = [
  { header: 'UID', value: (factory) => factory.uid },
  { header: 'NAME', value: (factory) => factory.name, maxWidth: 40 },
  { header: 'SOURCE', value: (factory) => factory.definition_source },
  { header: 'CREATED', value: (factory) => formatTime(factory.created_at) },
];

function formatFactory(factory: Factory): string {
  return formatFields([
    ['uid', factory.uid],
    ['name', factory.name],
    ['definition_source', factory.definition_source],
    ['created_at', formatTime(factory.created_at)],
  ]);
}

/**
 * `{path, content}` of every `<dir>/webhooks/*.yaml` and `<dir>/automations/*.md`, paths relative to
 * `dir` with `/` separators, sorted so the request is the same on every machine. An empty set would
 * delete every definition of the factory, so it is refused as a likely mistake (wrong directory). A
 * relative `dir` is relative to `cwd`; messages name it as given.
 */
export async function readDefinitionFiles(dir: string, cwd: string): Promise<DefinitionFile[]> {
  const root = path.resolve(cwd, dir);
  const info = await stat(root).catch(() => undefined);
  if (!info?.isDirectory()) throw new UsageError(`${dir} is not a directory`);
  const files: DefinitionFile[] = [];
  for (const { folder, extension } of DEFINITION_KINDS) {
    const names = await readdir(path.join(root, folder), { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    const definitionNames = names
      .filter((entry) => entry.isFile() && entry.name.endsWith(extension))
      .map((entry) => entry.name)
      .sort();
    for (const name of definitionNames) {
      files.push({ path: `${folder}/${name}`, content: await readFile(path.join(root, folder, name), 'utf8') });
    }
  }
  if (files.length === 0) {
    throw new UsageError(
      `no definition files in ${dir} (expected webhooks/*.yaml or automations/*.md); ` +
        'applying none would delete every webhook and automation of the factory',
    );
  }
  return files;
}

function formatApplied(applied: ApplyDefinitionsResponse): string {
  const sections: string[] = [];
  if (applied.webhooks.length > 0) {
    sections.push(
      formatTable(applied.webhooks, [
        { header: 'WEBHOOK FILE', value: (webhook) => webhook.file },
        { header: 'UID', value: (webhook) => webhook.uid },
        { header: 'NAME', value: (webhook) => webhook.name },
        { header: 'SECRET NAME', value: (webhook) => webhook.secret_name },
      ]),
    );
  }
  if (applied.automations.length > 0) {
    sections.push(
      formatTable(applied.automations, [
        { header: 'AUTOMATION FILE', value: (automation) => automation.file },
        { header: 'UID', value: (automation) => automation.uid },
        { header: 'NAME', value: (automation) => automation.name },
      ]),
    );
  }
  const deleted = [...applied.deleted.webhooks, ...applied.deleted.automations];
  sections.push(deleted.length > 0 ? `deleted: ${deleted.join(', ')}` : 'deleted: none');
  return sections.join('\n\n');
}
