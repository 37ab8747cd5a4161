/**
 * Run artifacts (docs/decisions.md §Artifacts): the rules of what a run may publish, publishing under the
 * executing worker's lease, and the views the API answers (Oz's ArtifactItem and ArtifactResponse).
 *
 * Everything a run publishes is hostile input: link URLs are checked (http/https, bounded, no credentials,
 * never fetched), names and texts are bounded, file bytes are bounded per file and per run, and the bytes
 * are only ever served as a download (`servedContentType`).
 */
import { createHash, randomUUID } from 'node:crypto';
import mime from 'mime-types';
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { signLinkToken, verifyLinkToken } from '../crypto/signed-link';
import type { ContentBlock } from '../runs/contract';
import type { components } from '@agent-runs/contract';
import { notAuthorized, resourceNotFound } from '../problems';
import { lockExecutingRun, RunNotOwnedError, type RunsDeps } from '../runs/repository';
import { inRunTransaction } from '../runs/events';
import {
  artifactTotals,
  findArtifactContent,
  findArtifactMeta,
  findLatestFromSource,
  findRunIdByExternalUrl,
  insertArtifact,
  type ArtifactMeta,
} from './repository';

type Schemas = components['schemas'];
export type ArtifactType = Schemas['RunArtifactType'];
export type ArtifactItem = Schemas['ArtifactItem'];
export type ArtifactResponse = Schemas['ArtifactResponse'];

/** Bounds of what a run publishes (contract: ArtifactItem's data schemas). */
export const URL_MAX_CHARS = 2048;
export const LABEL_MAX_CHARS = 256;
export const DESCRIPTION_MAX_CHARS = 2048;
export const FILEPATH_MAX_CHARS = 1024;
export const METADATA_MAX_BYTES = 4096;

/** The plan file of a run's artifact directory: published as a PLAN (README §Real runners). */
export const PLAN_FILE_NAME = 'plan.md';

/** What a runner asks to publish, already shaped (parseArtifactRequest, or a file of the artifact directory). */
export type ArtifactCandidate =
  | { artifact_type: 'PULL_REQUEST'; url: string; branch: string }
  | { artifact_type: 'EXTERNAL_REFERENCE'; url: string; reference_type: string; title?: string; metadata?: Record<string, unknown> }
  | {
      artifact_type: 'FILE' | 'SCREENSHOT' | 'PLAN';
      filepath: string;
      content: Buffer;
      title?: string;
      description?: string;
      /** The path under the artifact directory it was read from: an unchanged file is not published again. */
      sourcePath?: string;
    };

export type PublishOutcome = { status: 'published'; item: ArtifactItem } | { status: 'unchanged' } | { status: 'rejected'; reason: string };

/** What a runner is handed to publish with (RunContext.artifacts). */
export interface ArtifactPublisher {
  publish(candidate: ArtifactCandidate): Promise<PublishOutcome>;
  /** What a runner may read before publishing (settings: ARTIFACTS_PER_RUN, ARTIFACT_MAX_BYTES). */
  readonly limits: { maxFiles: number; maxFileBytes: number };
}

/** The JSON stored in run_artifacts.data: every field any type uses; the views pick theirs. */
interface StoredData {
  filepath?: string;
  filename?: string;
  mime_type?: string;
  title?: string;
  description?: string;
  url?: string;
  branch?: string;
  reference_type?: string;
  metadata?: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------------------
// Rules

type Parsed = { ok: true; candidate: ArtifactCandidate } | { ok: false; reason: string; artifact_type?: string };

const CONTROL = /[\u0000-\u001f\u007f]/;
const WHITESPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f]/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

class Refusal extends Error {}
const refuse = (reason: string): never => {
  throw new Refusal(reason);
};

function text(value: unknown, field: string, max: number, required: boolean): string | undefined {
  if (value === undefined || value === null) return required ? refuse(`${field} is required`) : undefined;
  if (typeof value !== 'string') return refuse(`${field} must be a string`);
  if (required && value.trim() === '') return refuse(`${field} must not be empty`);
  if ([...value].length > max) return refuse(`${field} is longer than ${max} characters`);
  if (CONTROL.test(value) && field !== 'description' && field !== 'content') return refuse(`${field} holds control characters`);
  return value;
}

/** An http(s) URL the server stores and shows but never fetches. */
function linkUrl(value: unknown): string {
  const url = text(value, 'url', URL_MAX_CHARS, true)!;
  // Checked on the raw text: the WHATWG parser drops tabs and newlines silently.
  if (WHITESPACE_OR_CONTROL.test(url)) refuse('url holds whitespace or control characters');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse('url is not an absolute URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') refuse(`url must be http or https, not ${parsed.protocol.slice(0, -1)}`);
  if (parsed.username || parsed.password) refuse('url must not carry a user name or password');
  return url;
}

function metadataObject(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) return refuse('metadata must be a JSON object');
  if (Buffer.byteLength(JSON.stringify(value)) > METADATA_MAX_BYTES) refuse(`metadata is larger than ${METADATA_MAX_BYTES} bytes of JSON`);
  return value;
}

/** A file name the model gave: one path component, printable, never `.` or `..`. */
function fileName(value: unknown): string {
  const name = text(value, 'filename', 255, true)!;
  if (name.includes('/') || name.includes('\\') || name === '.' || name === '..') refuse('filename must be a plain file name (no / or \\, not . or ..)');
  return name;
}

const LINK_TYPES = ['PULL_REQUEST', 'EXTERNAL_REFERENCE'] as const;
const CONTENT_TYPES = ['FILE', 'SCREENSHOT', 'PLAN'] as const;

/**
 * A publication request as JSON — the command runner's `::artifact::` line (`links` only: files come from
 * the artifact directory) or the model runner's `publish_artifact` call (`any`: links and inline content).
 */
export function parseArtifactRequest(value: unknown, accepts: 'links' | 'any'): Parsed {
  if (!isObject(value)) return { ok: false, reason: 'an artifact must be a JSON object' };
  const type = value['artifact_type'];
  const known = [...LINK_TYPES, ...(accepts === 'any' ? CONTENT_TYPES : [])] as readonly unknown[];
  if (!known.includes(type)) {
    const allowed = known.join(', ');
    const files =
      accepts === 'links' && (CONTENT_TYPES as readonly unknown[]).includes(type)
        ? ' (FILE, SCREENSHOT and PLAN artifacts are files written under /workspace/.artifacts/)'
        : '';
    return { ok: false, reason: `artifact_type must be one of ${allowed}${files}`, ...(typeof type === 'string' ? { artifact_type: type.slice(0, 64) } : {}) };
  }
  try {
    return { ok: true, candidate: candidateOf(type as ArtifactType, value) };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, reason: err.message, artifact_type: type as string };
    throw err;
  }
}

function candidateOf(type: ArtifactType, v: Record<string, unknown>): ArtifactCandidate {
  switch (type) {
    case 'PULL_REQUEST':
      return { artifact_type: type, url: linkUrl(v['url']), branch: text(v['branch'], 'branch', LABEL_MAX_CHARS, true)! };
    case 'EXTERNAL_REFERENCE': {
      const title = text(v['title'], 'title', LABEL_MAX_CHARS, false);
      const metadata = metadataObject(v['metadata']);
      return {
        artifact_type: type,
        url: linkUrl(v['url']),
        reference_type: text(v['reference_type'], 'reference_type', LABEL_MAX_CHARS, true)!,
        ...(title !== undefined ? { title } : {}),
        ...(metadata !== undefined ? { metadata } : {}),
      };
    }
    default: {
      const content = inlineContent(type, v);
      const title = text(v['title'], 'title', LABEL_MAX_CHARS, false);
      const description = text(v['description'], 'description', DESCRIPTION_MAX_CHARS, false);
      const filepath = type === 'PLAN' && v['filename'] === undefined ? PLAN_FILE_NAME : fileName(v['filename']);
      return { artifact_type: type, filepath, content, ...(title !== undefined ? { title } : {}), ...(description !== undefined ? { description } : {}) };
    }
  }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** `content` (text) or `content_base64` (bytes; a SCREENSHOT's only form), exactly one. */
function inlineContent(type: ArtifactType, v: Record<string, unknown>): Buffer {
  const textContent = v['content'];
  const base64 = v['content_base64'];
  if ((textContent === undefined) === (base64 === undefined)) return refuse('give exactly one of content (text) and content_base64');
  if (textContent !== undefined) {
    if (typeof textContent !== 'string') return refuse('content must be a string');
    if (type === 'SCREENSHOT') return refuse('a SCREENSHOT takes content_base64 (the image bytes)');
    return Buffer.from(textContent, 'utf8');
  }
  if (typeof base64 !== 'string' || !BASE64.test(base64)) return refuse('content_base64 is not valid base64');
  if (type === 'PLAN') return refuse('a PLAN takes content (Markdown text)');
  const bytes = Buffer.from(base64, 'base64');
  if (type === 'SCREENSHOT' && !imageTypeOf(bytes)) return refuse('a SCREENSHOT must be a PNG, JPEG, GIF or WebP image');
  return bytes;
}

/** The image type of `bytes` by their first bytes (PNG, JPEG, GIF, WebP), or undefined. */
export function imageTypeOf(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'image/gif';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return undefined;
}

const isUtf8 = (bytes: Buffer): boolean => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

/** The type of a file of the artifact directory: `plan.md` at its top a PLAN, an image a SCREENSHOT, anything else a FILE. */
export function artifactTypeOfFile(filepath: string, content: Buffer): 'FILE' | 'SCREENSHOT' | 'PLAN' {
  if (filepath === PLAN_FILE_NAME && isUtf8(content)) return 'PLAN';
  return imageTypeOf(content) ? 'SCREENSHOT' : 'FILE';
}

/** Guessed from the extension; an image extension whose bytes are no image is not believed. */
function fileMimeType(filepath: string, content: Buffer): string {
  const guessed = mime.lookup(filepath);
  if (!guessed || (guessed.startsWith('image/') && guessed !== imageTypeOf(content))) return 'application/octet-stream';
  return guessed;
}

/**
 * Types served as themselves: inert in a browser (no script runs, nothing is rendered as a page). Anything
 * else, an agent's HTML page or SVG included, goes out as application/octet-stream.
 */
const INERT_TYPES = new Set([
  'text/plain',
  'text/markdown',
  'text/csv',
  'application/json',
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/zip',
  'application/gzip',
]);
export const servedContentType = (mimeType: string | undefined): string => (mimeType && INERT_TYPES.has(mimeType) ? mimeType : 'application/octet-stream');

// ---------------------------------------------------------------------------------------------------------
// Publishing

type PublishDeps = Pick<ServerContext, 'db' | 'clock' | 'runSignals' | 'settings'>;

/** What the worker hands a runner: publishing under its lease (throws RunNotOwnedError once the run is not its own). */
export function createArtifactPublisher(deps: PublishDeps & RunsDeps, run: { id: string; team_id: string }, leaseOwner: string): ArtifactPublisher {
  const { maxPerRun, maxFileBytes } = deps.settings.artifacts;
  return { publish: (candidate) => publishArtifact(deps, run, leaseOwner, candidate), limits: { maxFiles: maxPerRun, maxFileBytes } };
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

export async function publishArtifact(
  deps: PublishDeps,
  run: { id: string; team_id: string },
  leaseOwner: string,
  candidate: ArtifactCandidate,
): Promise<PublishOutcome> {
  const limits = deps.settings.artifacts;
  const content = 'content' in candidate ? candidate.content : null;
  if (content && content.length > limits.maxFileBytes) {
    return {
      status: 'rejected',
      reason: `${candidate.artifact_type} is ${content.length} bytes, over the limit of ${limits.maxFileBytes} (ARTIFACT_MAX_BYTES)`,
    };
  }
  const hash = content ? sha256(content) : null;
  const now = deps.clock.now();
  return inRunTransaction(deps, run.team_id, run.id, async (tx): Promise<PublishOutcome> => {
    if (!(await lockExecutingRun(tx, run, leaseOwner))) throw new RunNotOwnedError(run.id);
    const sourcePath = 'sourcePath' in candidate ? candidate.sourcePath : undefined;
    if (sourcePath !== undefined && (await findLatestFromSource(tx, run.team_id, run.id, sourcePath))?.content_sha256 === hash) {
      return { status: 'unchanged' };
    }
    const totals = await artifactTotals(tx, run.team_id, run.id);
    if (totals.count >= limits.maxPerRun) {
      return { status: 'rejected', reason: `the run already published ${totals.count} artifacts, the limit (ARTIFACTS_PER_RUN)` };
    }
    if (content && totals.bytes + content.length > limits.maxBytesPerRun) {
      return { status: 'rejected', reason: `the run's artifacts would hold more than ${limits.maxBytesPerRun} bytes (ARTIFACTS_MAX_BYTES_PER_RUN)` };
    }
    const meta: ArtifactMeta = {
      id: randomUUID(),
      run_id: run.id,
      team_id: run.team_id,
      position: totals.count + 1,
      artifact_type: candidate.artifact_type,
      data: JSON.stringify(storedDataOf(candidate)),
      size: content?.length ?? 0,
      created_at: toTimestamp(now),
    };
    await insertArtifact(tx, {
      ...meta,
      content,
      source_path: sourcePath ?? null,
      content_sha256: hash,
      external_url: candidate.artifact_type === 'EXTERNAL_REFERENCE' ? candidate.url : null,
    });
    return { status: 'published', item: toArtifactItem(meta) };
  });
}

function storedDataOf(candidate: ArtifactCandidate): StoredData {
  switch (candidate.artifact_type) {
    case 'PULL_REQUEST':
      return { url: candidate.url, branch: candidate.branch };
    case 'EXTERNAL_REFERENCE': {
      const { artifact_type: _, ...data } = candidate;
      return data;
    }
    default: {
      const filename = candidate.filepath.split('/').pop()!;
      const mimeType =
        candidate.artifact_type === 'PLAN'
          ? 'text/markdown'
          : candidate.artifact_type === 'SCREENSHOT'
            ? imageTypeOf(candidate.content)
            : fileMimeType(filename, candidate.content);
      const title = candidate.title ?? (candidate.artifact_type === 'PLAN' ? markdownTitle(candidate.content) : undefined);
      return {
        filepath: candidate.filepath,
        filename,
        mime_type: mimeType ?? 'application/octet-stream',
        ...(title !== undefined ? { title } : {}),
        ...(candidate.description !== undefined ? { description: candidate.description } : {}),
      };
    }
  }
}

/** A plan's first `# ` heading, cut to LABEL_MAX_CHARS. */
function markdownTitle(content: Buffer): string | undefined {
  const heading = /^#[ \t]+(.+?)[ \t#]*$/m.exec(content.subarray(0, 64 * 1024).toString('utf8'))?.[1];
  return heading ? [...heading].slice(0, LABEL_MAX_CHARS).join('') : undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Views

const storedData = (meta: Pick<ArtifactMeta, 'data'>): StoredData => JSON.parse(meta.data) as StoredData;
const optional = <K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

/** RunItem.artifacts' item (contract: ArtifactItem). */
export function toArtifactItem(meta: ArtifactMeta): ArtifactItem {
  const d = storedData(meta);
  const created_at = meta.created_at;
  switch (meta.artifact_type) {
    case 'PULL_REQUEST':
      return { artifact_type: 'PULL_REQUEST', created_at, data: { url: d.url!, branch: d.branch! } };
    case 'EXTERNAL_REFERENCE':
      return {
        artifact_type: 'EXTERNAL_REFERENCE',
        created_at,
        data: { reference_type: d.reference_type!, url: d.url!, ...optional('title', d.title), ...optional('metadata', d.metadata) },
      };
    case 'PLAN':
      return {
        artifact_type: 'PLAN',
        created_at,
        data: { artifact_uid: meta.id, document_uid: meta.id, notebook_uid: meta.id, ...optional('title', d.title) },
      };
    case 'SCREENSHOT':
      return { artifact_type: 'SCREENSHOT', created_at, data: { artifact_uid: meta.id, mime_type: d.mime_type!, ...optional('description', d.description) } };
    case 'FILE':
      return {
        artifact_type: 'FILE',
        created_at,
        data: {
          artifact_uid: meta.id,
          filepath: d.filepath!,
          filename: d.filename!,
          mime_type: d.mime_type!,
          ...optional('title', d.title),
          ...optional('description', d.description),
          size_bytes: meta.size,
        },
      };
  }
}

/** The conversation's record of a publication (contract: EventBlock `artifact`). */
export const artifactEvent = (item: ArtifactItem): ContentBlock => ({ type: 'event', name: 'artifact', data: item });

/** The conversation's record of a refused publication (contract: EventBlock `artifact_rejected`). */
export const artifactRejectedEvent = (reason: string, about: { artifact_type?: string; filepath?: string } = {}): ContentBlock => ({
  type: 'event',
  name: 'artifact_rejected',
  data: { reason, ...about },
});

type ViewDeps = Pick<ServerContext, 'db' | 'clock' | 'settings' | 'secrets'>;

const notFound = (artifactId: string) => resourceNotFound(`Artifact ${artifactId} not found.`);
const isDownloadable = (type: ArtifactType): boolean => type === 'FILE' || type === 'SCREENSHOT' || type === 'PLAN';

/** A fresh signed download URL and its expiry (contract: getArtifact `download_url`). */
function signedDownload(ctx: ViewDeps, meta: Pick<ArtifactMeta, 'id' | 'team_id'>): { download_url: string; expires_at: string } {
  const expiresAt = new Date((Math.floor(ctx.clock.now().getTime() / 1000) + ctx.settings.artifacts.downloadUrlSeconds) * 1000);
  const token = signLinkToken(ctx.secrets, 'artifact download', meta.team_id, meta.id, expiresAt);
  return { download_url: `${ctx.settings.publicBaseUrl}/api/v1/agent/artifacts/${meta.id}/content?token=${token}`, expires_at: toTimestamp(expiresAt) };
}

/** getArtifact: the Oz ArtifactResponse of a FILE, SCREENSHOT or PLAN of the team. */
export async function getArtifact(ctx: ViewDeps, teamId: string, artifactId: string): Promise<ArtifactResponse> {
  const meta = await findArtifactMeta(ctx.db, teamId, artifactId);
  if (!meta || !isDownloadable(meta.artifact_type)) throw notFound(artifactId);
  const d = storedData(meta);
  const head = { artifact_uid: meta.id, created_at: meta.created_at };
  if (meta.artifact_type === 'PLAN') {
    const stored = await findArtifactContent(ctx.db, teamId, artifactId);
    if (!stored?.content) throw notFound(artifactId);
    return {
      ...head,
      artifact_type: 'PLAN',
      data: {
        document_uid: meta.id,
        notebook_uid: meta.id,
        ...optional('title', d.title),
        content: stored.content.toString('utf8'),
        content_type: 'text/markdown',
      },
    };
  }
  const download = signedDownload(ctx, meta);
  if (meta.artifact_type === 'SCREENSHOT') {
    return { ...head, artifact_type: 'SCREENSHOT', data: { ...download, content_type: d.mime_type!, ...optional('description', d.description) } };
  }
  return {
    ...head,
    artifact_type: 'FILE',
    data: {
      ...download,
      content_type: d.mime_type!,
      filepath: d.filepath!,
      filename: d.filename!,
      ...optional('title', d.title),
      ...optional('description', d.description),
      size_bytes: meta.size,
    },
  };
}

/** downloadArtifact: where to redirect (a fresh signed URL) for an artifact of the team that has bytes. */
export async function artifactDownloadUrl(ctx: ViewDeps, teamId: string, artifactId: string): Promise<string> {
  const meta = await findArtifactMeta(ctx.db, teamId, artifactId);
  if (!meta || !isDownloadable(meta.artifact_type)) throw notFound(artifactId);
  return signedDownload(ctx, meta).download_url;
}

export interface ArtifactContent {
  filename: string;
  contentType: string;
  bytes: Buffer;
}

/** getArtifactContent: the bytes behind a signed URL; the token is the credential. */
export async function readArtifactContent(ctx: ViewDeps, artifactId: string, token: string): Promise<ArtifactContent> {
  const link = verifyLinkToken(ctx.secrets, 'artifact download', token, artifactId, ctx.clock.now());
  if (!link.ok) throw notAuthorized(`This download URL is not valid or has expired; get a fresh one with GET /agent/artifacts/${artifactId}.`);
  const { teamId } = link;
  const stored = await findArtifactContent(ctx.db, teamId, artifactId);
  if (!stored?.content) throw notFound(artifactId);
  const d = storedData(stored);
  return { filename: d.filename ?? `${artifactId}`, contentType: servedContentType(d.mime_type), bytes: stored.content };
}

/** getRunByExternalReferenceURL. */
export async function findRunByExternalReference(ctx: Pick<ServerContext, 'db'>, teamId: string, url: string): Promise<{ run_id: string }> {
  const runId = await findRunIdByExternalUrl(ctx.db, teamId, url);
  if (!runId) throw resourceNotFound('No run of this team published an external reference with this URL.');
  return { run_id: runId };
}
