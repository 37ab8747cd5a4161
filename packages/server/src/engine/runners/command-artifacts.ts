/**
 * How the command runner's process publishes artifacts (README §Real runners, docs/decisions.md §Artifacts):
 *
 * 1. Links, as they appear: a stdout line that is exactly `::artifact::` + one JSON object
 *    (`{"artifact_type": "PULL_REQUEST", "url": …, "branch": …}` or `EXTERNAL_REFERENCE` with
 *    `reference_type`, `url`, `title?`, `metadata?`). Such a line is consumed: it becomes an `artifact` (or
 *    `artifact_rejected`) event in the conversation, never assistant text.
 * 2. Files, when the execution ends: every regular file under `/workspace/.artifacts/` — `plan.md` at its
 *    top a PLAN, an image a SCREENSHOT, anything else a FILE. A file already published unchanged by an
 *    earlier execution of the run is not published again.
 *
 * The directory is written by an untrusted process, so it is read as hostile: the walk never follows a
 * symbolic link (lstat, then open with O_NOFOLLOW and check the opened file is the one lstat saw), takes
 * regular files only (O_NONBLOCK: a FIFO swapped in cannot hang the server), bounds the entries it looks at
 * (and the names it lists), the depth, the file count and each file's size before reading it, and holds one
 * file in memory at a time.
 * The collection runs after the command exited, when its sandbox's PID namespace (and every process in it)
 * is gone, so nothing moves the tree while it is read; the O_NOFOLLOW/inode checks hold even if it did.
 */
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { artifactEvent, artifactRejectedEvent, artifactTypeOfFile, parseArtifactRequest, type PublishOutcome } from '../../artifacts/service';
import type { ContentBlock } from '../../runs/contract';
import type { RunContext } from '../runner';

export const ARTIFACT_LINE_PREFIX = '::artifact::';
/** Longest `::artifact::` line read (a link's fields are bounded far below it). */
export const ARTIFACT_LINE_MAX_BYTES = 16 * 1024;
/** The artifact directory, relative to the workspace (`/workspace/.artifacts/` in the sandbox). */
export const ARTIFACT_DIRECTORY = '.artifacts';
const MAX_DEPTH = 8;
const FILEPATH_MAX_CHARS = 1024;
/** Entries looked at per allowed artifact: a tree of empty directories cannot keep the worker busy. */
const ENTRIES_PER_ARTIFACT = 10;

const CONTROL = /[\u0000-\u001f\u007f]/;
/** A path as it may be shown back: control characters replaced. */
const shown = (filepath: string): string => filepath.replace(/[\u0000-\u001f\u007f]/g, '?');

/** The conversation block of one `::artifact::` line (the prefix already removed). */
export async function publishArtifactLine(ctx: Pick<RunContext, 'artifacts'>, json: string): Promise<ContentBlock> {
  if (Buffer.byteLength(json) > ARTIFACT_LINE_MAX_BYTES) {
    return artifactRejectedEvent(`the ${ARTIFACT_LINE_PREFIX} line is longer than ${ARTIFACT_LINE_MAX_BYTES} bytes`);
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return artifactRejectedEvent(`the ${ARTIFACT_LINE_PREFIX} line does not hold one JSON object`);
  }
  const parsed = parseArtifactRequest(value, 'links');
  if (!parsed.ok) return artifactRejectedEvent(parsed.reason, parsed.artifact_type ? { artifact_type: parsed.artifact_type } : {});
  const about = { artifact_type: parsed.candidate.artifact_type };
  // A link has no source file, so it is never `unchanged`.
  return outcomeBlock(await ctx.artifacts.publish(parsed.candidate), about) ?? artifactRejectedEvent('already published', about);
}

/** `artifact` or `artifact_rejected`; nothing for a file published unchanged before. */
function outcomeBlock(outcome: PublishOutcome, about: { artifact_type?: string; filepath?: string }): ContentBlock | undefined {
  if (outcome.status === 'published') return artifactEvent(outcome.item);
  if (outcome.status === 'rejected') return artifactRejectedEvent(outcome.reason, about);
  return undefined;
}

/** Publishes the files of the artifact directory; answers the conversation blocks, in path order. */
export async function publishArtifactDirectory(ctx: Pick<RunContext, 'artifacts' | 'workDir'>): Promise<ContentBlock[]> {
  const blocks: ContentBlock[] = [];
  for await (const entry of readArtifactDirectory(ctx.workDir, ctx.artifacts.limits)) {
    if (entry.kind === 'skipped') {
      blocks.push(artifactRejectedEvent(entry.reason, { filepath: entry.filepath }));
      continue;
    }
    const artifactType = artifactTypeOfFile(entry.filepath, entry.content);
    const outcome = await ctx.artifacts.publish({ artifact_type: artifactType, filepath: entry.filepath, content: entry.content, sourcePath: entry.filepath });
    const block = outcomeBlock(outcome, { artifact_type: artifactType, filepath: entry.filepath });
    if (block) blocks.push(block);
  }
  return blocks;
}

export type ArtifactDirectoryEntry = { kind: 'file'; filepath: string; content: Buffer } | { kind: 'skipped'; filepath: string; reason: string };

/** The regular files under `<workDir>/.artifacts/`, depth first in name order, one at a time, never through a link. */
export async function* readArtifactDirectory(workDir: string, limits: { maxFiles: number; maxFileBytes: number }): AsyncGenerator<ArtifactDirectoryEntry> {
  const root = path.join(workDir, ARTIFACT_DIRECTORY);
  const rootStat = await fs.lstat(root).catch(() => undefined);
  if (!rootStat) return;
  if (!rootStat.isDirectory()) {
    yield { kind: 'skipped', filepath: ARTIFACT_DIRECTORY, reason: rootStat.isSymbolicLink() ? 'is a symbolic link (never followed)' : 'is not a directory' };
    return;
  }
  const maxEntries = limits.maxFiles * ENTRIES_PER_ARTIFACT;
  let entries = 0;
  let files = 0;
  // depth: how many directories below the artifact directory (its own files are at 0).
  const pending: Array<{ dir: string; rel: string; depth: number }> = [{ dir: root, rel: '', depth: 0 }];
  while (pending.length > 0) {
    const { dir, rel, depth } = pending.pop()!;
    const names = (await firstNames(dir, maxEntries - entries + 1)).sort();
    const subdirectories: typeof pending = [];
    for (const name of names) {
      const filepath = rel ? `${rel}/${name}` : name;
      if (++entries > maxEntries) {
        yield {
          kind: 'skipped',
          filepath: shown(rel || ARTIFACT_DIRECTORY),
          reason: `the artifact directory holds more than ${maxEntries} entries; the rest were not read`,
        };
        return;
      }
      const skip = (reason: string): ArtifactDirectoryEntry => ({ kind: 'skipped', filepath: shown(filepath), reason });
      if (CONTROL.test(name) || name.includes('\ufffd')) {
        yield skip('the name holds control characters or is not valid UTF-8');
        continue;
      }
      if (filepath.length > FILEPATH_MAX_CHARS) {
        yield skip(`the path is longer than ${FILEPATH_MAX_CHARS} characters`);
        continue;
      }
      const full = path.join(dir, name);
      const stat = await fs.lstat(full).catch(() => undefined);
      if (!stat) {
        yield skip('could not be read');
      } else if (stat.isSymbolicLink()) {
        yield skip('is a symbolic link (never followed)');
      } else if (stat.isDirectory()) {
        if (depth + 1 > MAX_DEPTH) yield skip(`is nested deeper than ${MAX_DEPTH} directories`);
        else subdirectories.push({ dir: full, rel: filepath, depth: depth + 1 });
      } else if (!stat.isFile()) {
        yield skip('is not a regular file');
      } else if (files >= limits.maxFiles) {
        yield skip(`more than ${limits.maxFiles} files (ARTIFACTS_PER_RUN): not published`);
      } else if (stat.size > limits.maxFileBytes) {
        yield skip(`is ${stat.size} bytes, over the limit of ${limits.maxFileBytes} (ARTIFACT_MAX_BYTES)`);
      } else {
        const content = await readRegularFile(full, stat, limits.maxFileBytes);
        if (typeof content === 'string') {
          yield skip(content);
        } else {
          files++;
          yield { kind: 'file', filepath, content };
        }
      }
    }
    // Depth first in name order: the stack takes the subdirectories last-name-first.
    pending.push(...subdirectories.reverse());
  }
}

/** At most `max` names of the directory (a tenant's million files are never all read into memory). */
async function firstNames(dir: string, max: number): Promise<string[]> {
  const names: string[] = [];
  try {
    // Leaving the loop early closes the directory.
    for await (const entry of await fs.opendir(dir)) {
      if (names.length >= max) break;
      names.push(entry.name);
    }
  } catch {
    // Unreadable (gone, not a directory any more): nothing in it is published.
  }
  return names;
}

/** The file's bytes, or why not: opened without following a link, and only if it is still the file lstat saw. */
async function readRegularFile(full: string, seen: { dev: number; ino: number }, maxBytes: number): Promise<Buffer | string> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(full, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK);
  } catch {
    return 'could not be opened (a link is never followed)';
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.dev !== seen.dev || stat.ino !== seen.ino) return 'changed while it was read';
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) return `is over the limit of ${maxBytes} bytes (ARTIFACT_MAX_BYTES)`;
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}
