import { createWriteStream } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ArtifactResponse } from '@agent-runs/sdk';
import type { Command } from 'commander';
import { contextOf } from '../context';
import { UsageError } from '../errors';
import { formatFields, formatTime } from '../output';

/** `artifacts get|download`: what a run published (a run's artifacts and their uids: `runs get`). */
export function registerArtifactsCommands(program: Command): void {
  const artifacts = program.command('artifacts').description("read what runs published (a run's list: runs get)");

  artifacts
    .command('get')
    .description("show one artifact: a file's signed download URL, or a plan's Markdown")
    .argument('<artifactUid>', 'the artifact uid (runs get lists them)')
    .action(async (artifactUid: string, _options: unknown, command: Command) => {
      const { client, out } = contextOf(command);
      const artifact = await client.agent.getArtifact(artifactUid);
      out.result(artifact, () => formatArtifact(artifact));
    });

  artifacts
    .command('download')
    .description('save the bytes of a file, screenshot or plan')
    .argument('<artifactUid>', 'the artifact uid (runs get lists them)')
    .option('-o, --output <file>', "where to write it ('-' for stdout; default: its file name in the current directory)")
    .option('--force', 'overwrite an existing file')
    .action(async (artifactUid: string, options: { output?: string; force?: boolean }, command: Command) => {
      const { client, out, invocation } = contextOf(command);
      const response = await client.agent.downloadArtifact(artifactUid);
      const name = options.output ?? fileNameOf(response.headers.get('content-disposition')) ?? artifactUid;
      if (name === '-') {
        // `end: false`: stdout outlives the command (the process's own must never be ended).
        await pipeline(Readable.fromWeb(response.body! as never), invocation.io.stdout, { end: false });
        return;
      }
      const target = path.resolve(invocation.io.cwd, name);
      if (
        !options.force &&
        (await access(target).then(
          () => true,
          () => false,
        ))
      ) {
        await response.body?.cancel();
        throw new UsageError(`${name} exists: pass --force to overwrite it, or --output another path`);
      }
      await pipeline(Readable.fromWeb(response.body! as never), createWriteStream(target));
      out.note(`wrote ${name}`);
    });
}

/**
 * The file name the server gave (`Content-Disposition`), as a plain name in the current directory: an
 * agent chose it, so no directory of it is ever used.
 */
function fileNameOf(disposition: string | null): string | undefined {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '')?.[1];
  const quoted = /filename="((?:[^"\\]|\\.)*)"/i.exec(disposition ?? '')?.[1]?.replace(/\\(.)/g, '$1');
  const name = path.basename((encoded ? decodeURIComponent(encoded) : quoted) ?? '');
  return name === '' || name === '.' || name === '..' ? undefined : name;
}

function formatArtifact(artifact: ArtifactResponse): string {
  const head: Array<[string, string | number | undefined]> = [
    ['artifact_uid', artifact.artifact_uid],
    ['artifact_type', artifact.artifact_type],
    ['created_at', formatTime(artifact.created_at)],
  ];
  switch (artifact.artifact_type) {
    case 'PLAN':
      return `${formatFields([...head, ['title', artifact.data.title]])}\n\n${artifact.data.content}`;
    case 'SCREENSHOT':
      return formatFields([
        ...head,
        ['content_type', artifact.data.content_type],
        ['description', artifact.data.description],
        ['download_url', artifact.data.download_url],
        ['expires_at', formatTime(artifact.data.expires_at)],
      ]);
    case 'FILE':
      return formatFields([
        ...head,
        ['filepath', artifact.data.filepath],
        ['content_type', artifact.data.content_type],
        ['size_bytes', artifact.data.size_bytes],
        ['title', artifact.data.title],
        ['description', artifact.data.description],
        ['download_url', artifact.data.download_url],
        ['expires_at', formatTime(artifact.data.expires_at)],
      ]);
  }
}
