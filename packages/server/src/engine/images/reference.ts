/**
 * Image references as Docker reads them: `name[:tag]`, `registry[:port]/name[:tag]`, `…@sha256:<hex>`.
 * A first path component with a `.` or a `:`, or `localhost`, is a registry; otherwise the image is on
 * Docker Hub (`docker.io`, official images under `library/`). No tag and no digest means `latest`.
 */
export interface ImageReference {
  /** The registry host, with its port when one is given (`docker.io`, `127.0.0.1:5000`). */
  registry: string;
  /** The repository path in that registry (`library/alpine`, `team/devbox`). */
  repository: string;
  tag: string | undefined;
  /** `sha256:<64 hex>` when the reference pins one. */
  digest: string | undefined;
}

const COMPONENT = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
const REGISTRY = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9a-fA-F:.]+\])(?::[0-9]{1,5})?$/;

/** The parsed reference, or why the text is none. */
export function parseImageReference(text: string): ImageReference | { error: string } {
  if (text.length > 500 || /\s/.test(text)) return { error: 'an image reference has no spaces and at most 500 characters' };
  let rest = text;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return { error: `"${digest}" is not a sha256 digest (sha256: and 64 lower-case hex digits)` };
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) return { error: `"${tag}" is not a valid tag` };
  }
  const parts = rest.split('/');
  let registry = 'docker.io';
  const first = parts[0] ?? '';
  if (parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost')) {
    registry = parts.shift() as string;
    if (!REGISTRY.test(registry)) return { error: `"${registry}" is not a registry host` };
  }
  if (parts.length === 0 || !parts.every((part) => COMPONENT.test(part))) {
    return { error: 'the repository name must be lower-case letters, digits and separators (., _, -), in components split by /' };
  }
  if (registry === 'docker.io' && parts.length === 1) parts.unshift('library');
  return { registry, repository: parts.join('/'), tag: digest ? tag : (tag ?? 'latest'), digest };
}

/** skopeo's transport name of a reference (by digest once resolved). */
export function dockerTransportName(ref: ImageReference, digest?: string): string {
  const pinned = digest ?? ref.digest;
  return `docker://${ref.registry}/${ref.repository}${pinned ? `@${pinned}` : `:${ref.tag ?? 'latest'}`}`;
}

/** How a reference is named in messages: as the environment wrote it, canonicalised. */
export function displayName(ref: ImageReference): string {
  return `${ref.registry}/${ref.repository}${ref.tag ? `:${ref.tag}` : ''}${ref.digest ? `@${ref.digest}` : ''}`;
}
