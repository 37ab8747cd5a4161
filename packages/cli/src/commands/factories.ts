import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ApplyDefinitionsResponse, DefinitionFile } from '@agent-runs/sdk';
import type { Command } from 'commander';
import { contextOf } from '../context';
import { UsageError } from '../errors';
import { formatTable } from '../output';

/** The definition files a factory directory holds: folder and file-name ending, as the API names them. */
const DEFINITION_KINDS = [
  { folder: 'webhooks', extension: '.yaml' },
  { folder: 'automations', extension: '.md' },
] as const;

/** `factory apply`: definition files → the factory's webhooks and automations. */
export function registerFactoryCommands(program: Command): void {
  const factory = program.command('factory').description('manage a factory from definition files');

  factory
    .command('apply')
    .description(
      'make the factory\'s webhooks and automations exactly those of <dir>/webhooks/*.yaml and <dir>/automations/*.md ' +
        '(definitions missing from <dir> are deleted)',
    )
    .requiredOption('--factory <uid>', 'the factory (fac_…)')
    .argument('<dir>', 'the directory holding webhooks/ and automations/')
    .action(async (dir: string, options: { factory: string }, command: Command) => {
      const { client, out } = contextOf(command);
      const files = await readDefinitionFiles(dir);
      const applied = await client.factories.applyDefinitions(options.factory, { files });
      out.result(applied, () => formatApplied(applied));
    });
}

/**
 * `{path, content}` of every `<dir>/webhooks/*.yaml` and `<dir>/automations/*.md`, paths relative to
 * `dir` with `/` separators, sorted so the request is the same on every machine. An empty set would
 * delete every definition of the factory, so it is refused as a likely mistake (wrong directory).
 */
export async function readDefinitionFiles(dir: string): Promise<DefinitionFile[]> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new UsageError(`${dir} is not a directory`);
  const files: DefinitionFile[] = [];
  for (const { folder, extension } of DEFINITION_KINDS) {
    const names = await readdir(path.join(dir, folder), { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    const definitionNames = names
      .filter((entry) => entry.isFile() && entry.name.endsWith(extension))
      .map((entry) => entry.name)
      .sort();
    for (const name of definitionNames) {
      files.push({ path: `${folder}/${name}`, content: await readFile(path.join(dir, folder, name), 'utf8') });
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
