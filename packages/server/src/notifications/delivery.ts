/**
 * The notification delivery workers of one process (role `worker`), as a chain of small steps per
 * message of the outbox (./outbox.ts):
 *
 *   claim (service-wide, a lease per message, one attempt counted)
 *     → prepare (the subscription, its URL under today's policy, the signatures)
 *     → send (undici through the egress guard: timeout, no redirects, a bounded excerpt of the answer)
 *     → record (the attempt; the message delivered, retried with backoff, or given up; the subscription's health)
 *
 * Claims are exclusive (a lease, `FOR UPDATE SKIP LOCKED` on PostgreSQL), so processes sharing a database
 * never send one attempt twice at once; a worker that dies mid-attempt leaves a lease that expires and the
 * attempt is made again (at least once). Workers are woken at once by notifications recorded in this
 * process (after their commit) and by other processes' notices (runs/signals.ts), and poll as the safety net.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { request, type Agent, type Dispatcher } from 'undici';
import { toTimestamp } from '../clock';
import type { ServerContext } from '../context';
import { newId } from '../crypto/ids';
import { egressDenialOf } from '../engine/egress/fetch';
import type { NotificationSettings } from '../settings';
import { Wakeup } from '../wakeup';
import {
  claimDueMessagesServiceWide,
  claimNextMessageOfRun,
  clearSubscriptionFailing,
  disableFailingSubscription,
  findSubscription,
  finishMessageAttempt,
  insertAttempt,
  markSubscriptionFailing,
  type MessageRow,
  type SubscriptionRow,
} from './repository';
import { signNotification } from './signing';
import { NotificationTargets } from './target';
import { inSpan, SpanKind } from '../telemetry/spans';

const USER_AGENT = 'agent-runs-notifications/1';
/** A claim's lease outlives the request's timeout by this much: time to record the outcome. */
const LEASE_GRACE_MS = 30_000;

export interface NotificationDelivery {
  readonly workerId: string;
  /** Look for due messages now (tests: after moving the clock). */
  wake(): void;
  /** Stop claiming and wait for the attempts in flight (each ends within the request timeout). */
  stop(): Promise<void>;
}

export interface NotificationDeliveryOptions {
  /** Unique per process; default `<host>:<pid>:<random>:notifications`. */
  workerId?: string;
  /** Poll for due messages (retries coming due, other processes' events without a notice); default 1000 ms. */
  pollIntervalMs?: number;
  /** The jitter's randomness in [0, 1) (default Math.random). */
  random?: () => number;
}

/** What one attempt came to. `sent: false`: nothing left this server (disabled subscription). */
interface AttemptResult {
  ok: boolean;
  sent: boolean;
  statusCode: number | null;
  latencyMs: number | null;
  error: string | null;
  excerpt: string | null;
}

/**
 * Delay before the next attempt after the `attempt`-th failed one of the retry window: the base doubling per attempt,
 * capped, with "equal jitter" — between half and all of it — so receivers coming back are not hit by every
 * retry at once.
 */
export function retryDelayMs(settings: Pick<NotificationSettings, 'retryBaseSeconds' | 'retryMaxDelaySeconds'>, attempt: number, random: () => number): number {
  const full = Math.min(settings.retryBaseSeconds * 1000 * 2 ** (attempt - 1), settings.retryMaxDelaySeconds * 1000);
  return Math.round(full / 2 + (random() * full) / 2);
}

export function startNotificationDelivery(ctx: ServerContext, options: NotificationDeliveryOptions = {}): NotificationDelivery {
  const workerId = options.workerId ?? `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}:notifications`;
  const settings = ctx.settings.notifications;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const random = options.random ?? Math.random;
  const log = ctx.log.child({ component: 'notifications', workerId });
  const targets = new NotificationTargets(settings);
  const dispatcher = targets.createDispatcher();

  const active = new Set<Promise<void>>();
  let stopping = false;
  const wakeup = new Wakeup();
  const { wake } = wakeup;
  const waitForWake = (timeoutMs: number) => wakeup.wait(timeoutMs);

  const steps: DeliverySteps = { ctx, settings, targets, dispatcher, workerId, random, log };

  async function dispatchLoop(): Promise<void> {
    while (!stopping) {
      const free = settings.concurrency - active.size;
      if (free <= 0) {
        await waitForWake(pollIntervalMs);
        continue;
      }
      let claimed: MessageRow[];
      try {
        const now = ctx.clock.now();
        claimed = await claimDueMessagesServiceWide(ctx.db, {
          workerId,
          now: toTimestamp(now),
          leaseExpiresAt: leaseExpiryOf(now, settings.timeoutSeconds),
          limit: free,
        });
      } catch (err) {
        log.error({ err }, 'notification claim failed');
        await waitForWake(pollIntervalMs);
        continue;
      }
      if (claimed.length === 0) {
        await waitForWake(pollIntervalMs);
        continue;
      }
      for (const message of claimed) {
        const done: Promise<void> = deliverMessage(steps, message)
          .catch((err: unknown) =>
            log.error({ err, subscription_id: message.subscription_id, event_id: message.event_id }, 'notification attempt failed unexpectedly'),
          )
          .finally(() => {
            active.delete(done);
            // A finished message may let the run's next event go, and a slot is free.
            wake();
          });
        active.add(done);
      }
    }
  }

  const stopWaking = ctx.runSignals.onNotificationsRecorded(wake);
  const loop = settings.concurrency > 0 ? dispatchLoop() : Promise.resolve();
  return {
    workerId,
    wake,
    async stop() {
      stopping = true;
      stopWaking();
      wake();
      await loop;
      await Promise.allSettled([...active]);
      await dispatcher.close();
    },
  };
}

interface DeliverySteps {
  ctx: ServerContext;
  settings: NotificationSettings;
  targets: NotificationTargets;
  dispatcher: Agent;
  workerId: string;
  random: () => number;
  log: ServerContext['log'];
}

/**
 * One claimed attempt: prepare → send → record; then the run's next event to this subscription, when the
 * recording could take it over at once (it was waiting only for this one), in the same slot.
 */
async function deliverMessage(steps: DeliverySteps, claimed: MessageRow): Promise<void> {
  const { ctx } = steps;
  for (let message: MessageRow | undefined = claimed; message;) {
    const subscription = await findSubscription(ctx.db, message.team_id, message.subscription_id);
    // Deleted meanwhile: its messages went with it.
    if (!subscription) return;
    const attemptedAt = ctx.clock.now();
    const result =
      subscription.enabled === 1
        ? await traceAttempt(message, () => send(steps, subscription, message!, attemptedAt))
        : { ok: false, sent: false, statusCode: null, latencyMs: null, error: 'not sent: the subscription is disabled', excerpt: null };
    message = await record(steps, subscription, message, attemptedAt, result);
  }
}

/** One attempt's span (docs/decisions.md §Traces): its own trace, naming the run and the event. */
function traceAttempt(message: MessageRow, attempt: () => Promise<AttemptResult>): Promise<AttemptResult> {
  const attributes = { 'notification.event_id': message.event_id, 'notification.subscription_id': message.subscription_id, 'run.id': message.run_id };
  return inSpan(
    'notification delivery',
    attributes,
    async (span) => {
      const result = await attempt();
      span.setAttributes({ 'notification.delivered': result.ok, ...(result.statusCode !== null ? { 'http.response.status_code': result.statusCode } : {}) });
      return result;
    },
    { kind: SpanKind.CLIENT },
  );
}

/** The secrets that sign now: the current one, and the previous one during a rotation's overlap. */
function signingSecrets(ctx: Pick<ServerContext, 'secrets'>, subscription: SubscriptionRow, now: Date): string[] {
  const secrets = [ctx.secrets.decrypt(subscription.secret)];
  if (subscription.previous_secret !== null && subscription.previous_secret_expires_at !== null && subscription.previous_secret_expires_at > toTimestamp(now)) {
    secrets.push(ctx.secrets.decrypt(subscription.previous_secret));
  }
  return secrets;
}

async function send(steps: DeliverySteps, subscription: SubscriptionRow, message: MessageRow, at: Date): Promise<AttemptResult> {
  const { ctx, settings } = steps;
  const failure = (error: string, latencyMs: number | null = null): AttemptResult => ({
    ok: false,
    sent: true,
    statusCode: null,
    latencyMs,
    error,
    excerpt: null,
  });
  // The policy of today: the URL was checked when it was set, but the operator's list may have changed.
  const refusal = steps.targets.refusal(subscription.url);
  if (refusal) return failure(`refused by the egress policy: url ${refusal}`);

  const headers = {
    ...signNotification(message.event_id, message.payload, at, signingSecrets(ctx, subscription, at)),
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
  };
  const signal = AbortSignal.timeout(settings.timeoutSeconds * 1000);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    // undici's own request, not fetch: no WHATWG layer to pay for on every delivery, and no redirects followed.
    const response = await request(subscription.url, { method: 'POST', headers, body: message.payload, signal, dispatcher: steps.dispatcher });
    const latencyMs = elapsed();
    const excerpt = await readExcerpt(response.body, settings.responseExcerptBytes);
    const redirected = response.statusCode >= 300 && response.statusCode < 400;
    const location = response.headers.location;
    return {
      ok: response.statusCode >= 200 && response.statusCode < 300,
      sent: true,
      statusCode: response.statusCode,
      latencyMs,
      error: redirected ? `redirect not followed (Location: ${printable(String(location ?? 'none'), 200)})` : null,
      excerpt,
    };
  } catch (err) {
    return failure(describeFailure(err, signal, settings.timeoutSeconds), elapsed());
  }
}

/** Why a request failed, in words for the attempts log (never a secret: the URL is the subscription's own). */
function describeFailure(err: unknown, signal: AbortSignal, timeoutSeconds: number): string {
  const denial = egressDenialOf(err);
  if (denial) return `refused by the egress policy: ${denial.reason}`;
  if (signal.aborted) return `timed out after ${timeoutSeconds} s`;
  let cause: unknown = err;
  for (let depth = 0; depth < 5 && cause !== null && typeof cause === 'object'; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return `connection failed: ${code}`;
    cause = (cause as { cause?: unknown }).cause;
  }
  return `request failed: ${printable(err instanceof Error ? err.message : String(err), 200)}`;
}

/** The start of the answer's body: at most `maxBytes`, the rest never read (the stream is destroyed). */
async function readExcerpt(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      if (size >= maxBytes) break;
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
  } catch {
    // A body cut short or slower than the timeout: keep what arrived.
  } finally {
    body.destroy();
  }
  return printable(Buffer.concat(chunks).subarray(0, maxBytes).toString('utf8'), maxBytes);
}

/** Text safe to store and show: NUL (which PostgreSQL text refuses) replaced, at most `max` characters. */
function printable(text: string, max: number): string {
  return text.replaceAll('\u0000', '\uFFFD').slice(0, max);
}

/**
 * Records the attempt and the message's new state, and updates the subscription's health, in one
 * transaction. When the message is finished (delivered or given up), the run's next event to the same
 * subscription is claimed in that transaction if it is due: answered so the caller sends it next, without
 * a round through the claim loop (a run's events go out one after the other, so this is their latency).
 */
async function record(
  steps: DeliverySteps,
  subscription: SubscriptionRow,
  message: MessageRow,
  attemptedAt: Date,
  result: AttemptResult,
): Promise<MessageRow | undefined> {
  const { ctx, settings } = steps;
  const now = ctx.clock.now();
  const nowTs = toTimestamp(now);
  const deadline = Date.parse(message.window_start) + settings.retryWindowHours * 3_600_000;
  let outcome: 'succeeded' | 'retrying' | 'failed';
  let nextAttemptAt: string | null = null;
  if (result.ok) outcome = 'succeeded';
  else if (!result.sent || now.getTime() >= deadline) outcome = 'failed';
  else {
    outcome = 'retrying';
    // The last retry falls at the end of the window, never after it.
    nextAttemptAt = toTimestamp(new Date(Math.min(now.getTime() + retryDelayMs(settings, message.window_attempts, steps.random), deadline)));
  }

  const recorded = await ctx.db.transaction().execute(async (tx) => {
    const status = outcome === 'retrying' ? 'pending' : outcome;
    // Lost the lease (an attempt far slower than the timeout): the worker that took it over records its own.
    if (!(await finishMessageAttempt(tx, message, steps.workerId, { status, next_attempt_at: nextAttemptAt, updated_at: nowTs }))) {
      return { disabled: false, next: undefined };
    }
    await insertAttempt(tx, {
      id: newId('att', attemptedAt),
      team_id: message.team_id,
      subscription_id: message.subscription_id,
      event_id: message.event_id,
      event_type: message.event_type,
      run_id: message.run_id,
      attempt: message.attempts,
      attempted_at: toTimestamp(attemptedAt),
      outcome,
      status_code: result.statusCode,
      latency_ms: result.latencyMs,
      error: result.error,
      response_excerpt: result.excerpt,
      next_attempt_at: nextAttemptAt,
    });
    let disabled = false;
    if (result.ok) {
      if (subscription.failing_since !== null) await clearSubscriptionFailing(tx, message.team_id, subscription.id);
    } else if (result.sent) {
      const failingSince = await markSubscriptionFailing(tx, message.team_id, subscription.id, nowTs);
      const disableBy = toTimestamp(new Date(now.getTime() - settings.disableAfterDays * 86_400_000));
      disabled =
        failingSince !== undefined && failingSince <= disableBy && (await disableFailingSubscription(tx, message.team_id, subscription.id, disableBy, nowTs));
    }
    const next =
      outcome === 'retrying'
        ? undefined
        : await claimNextMessageOfRun(tx, message, { workerId: steps.workerId, now: nowTs, leaseExpiresAt: leaseExpiryOf(now, settings.timeoutSeconds) });
    return { disabled, next };
  });
  if (recorded.disabled) {
    steps.log.warn(
      { team_id: message.team_id, subscription_id: subscription.id, disable_after_days: settings.disableAfterDays },
      'notification subscription disabled: every attempt failed for the whole period',
    );
  }
  return recorded.next;
}

/** The lease a claim takes: the request's timeout plus time to record the outcome. */
const leaseExpiryOf = (now: Date, timeoutSeconds: number): string => toTimestamp(new Date(now.getTime() + timeoutSeconds * 1000 + LEASE_GRACE_MS));
