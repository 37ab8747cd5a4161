/**
 * The worker's image step, before the setup commands (engine/run-environment.ts): when the run's
 * environment names a `docker_image`, resolve and pull it (once per digest, engine/images/cache.ts),
 * tell the run how far the pull is (`status_message`, state events), make it the root of every later
 * process of the run (`RunSandbox.useImage`) and record the digest on the run. Any failure ends the run
 * FAILED `image_unavailable`, the message naming the image and why — never a credential.
 */
import type { ServerContext } from '../../context';
import { loadEnvironmentForRun } from '../../environments/service';
import type { RunRow } from '../../runs/repository';
import { recordRunProgress } from '../../runs/progress';
import { findTeamSecret } from '../../secrets/repository';
import { EnvironmentSetupError } from '../environment-setup';
import type { ResolvedAgentConfig } from '../../runs/contract';
import type { RunSandbox } from '../sandbox';
import { ImageUnavailableError, type PullProgress } from './cache';
import { displayName, parseImageReference } from './reference';

type Deps = Pick<ServerContext, 'db' | 'secrets' | 'images' | 'clock' | 'runSignals'>;

const MB = 1024 * 1024;
/** Progress is written at most this often: a status, not a stream. */
const PROGRESS_INTERVAL_MS = 1000;

export async function prepareRunImage(
  ctx: Deps,
  run: Pick<RunRow, 'id' | 'team_id' | 'lease_owner' | 'resolved_config' | 'config'>,
  sandbox: RunSandbox,
  signal: AbortSignal,
): Promise<void> {
  const config = JSON.parse(run.resolved_config ?? run.config ?? '{}') as ResolvedAgentConfig | null;
  const environmentId = config?.environment_id;
  const environment = environmentId ? await loadEnvironmentForRun(ctx, run.team_id, environmentId) : undefined;
  if (!environment?.dockerImage) return;
  const image = environment.dockerImage;
  const unavailable = (reason: string) => new EnvironmentSetupError(`Image ${image} is unavailable: ${reason}.`, 'image_unavailable');

  const ref = parseImageReference(image);
  if ('error' in ref) throw unavailable(ref.error);
  let credentials: string | undefined;
  if (environment.registrySecretName) {
    const secret = await findTeamSecret(ctx.db, run.team_id, environment.registrySecretName);
    if (!secret) throw unavailable(`its registry secret ${environment.registrySecretName} does not exist in this team`);
    credentials = ctx.secrets.decrypt(secret.value);
  }

  const name = displayName(ref);
  await recordRunProgress(ctx, run, { message: `preparing image ${name}` });
  let lastReport = 0;
  let pending: Promise<unknown> = Promise.resolve();
  const onProgress = (p: PullProgress) => {
    const now = ctx.clock.now().getTime();
    if (now - lastReport < PROGRESS_INTERVAL_MS) return;
    lastReport = now;
    const of = p.totalBytes ? ` of ${Math.max(1, Math.round(p.totalBytes / MB))} MB` : ' MB';
    pending = pending.then(() => recordRunProgress(ctx, run, { message: `pulling image ${name}: ${Math.round(p.bytes / MB)}${of}` }).catch(() => {}));
  };
  let lease;
  try {
    lease = await ctx.images.acquire({ reference: ref, credentials, signal, onProgress });
  } catch (err) {
    if (err instanceof ImageUnavailableError) throw unavailable(credentials ? redact(err.message, credentials) : err.message);
    throw err;
  } finally {
    await pending;
  }
  sandbox.useImage(lease);
  await recordRunProgress(ctx, run, { message: `running in image ${name} (${lease.digest})` }, lease.digest);
}

const redact = (text: string, secret: string) =>
  secret
    .split(':')
    .filter((part) => part.length >= 4)
    .reduce((acc, part) => acc.split(part).join('[redacted]'), text);
