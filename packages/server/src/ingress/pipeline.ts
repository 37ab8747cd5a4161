/**
 * The webhook ingress: a lean node:http handler outside the Express stack (no API keys, no JSON parser, no
 * OpenAPI validation — the body is arbitrary JSON, and Express alone costs several times a bare node:http handler).
 *
 * `ingest` reads top to bottom as the pipeline it is; the order of the checks is the contract's
 * (docs/wire.md §Factory side, openapi receiveWebhookDelivery): the first failing check answers.
 *
 *   route → resolve → token / url_token credential → read body → signature →
 *   [delivery rate → parse → identify → log + dedup + start runs] → 202      ([…] = one database transaction)
 *
 * Nobody without a credential can fill the delivery log: every failed attempt (and, for a signature webhook,
 * every oversized body, which cannot be verified) takes a place in the sender's failed-auth budget atomically
 * in the database before it is answered and logged; once the budget is spent the answer is a 429, not logged.
 * Only failures are counted and only failures are refused: a delivery whose credential checks out is never
 * answered by the budget, so nobody sharing a sender's address (or a load balancer's, without TRUST_PROXY)
 * can lock that sender out by failing on purpose (docs/decisions.md §Replayed signed deliveries and
 * failed-attempt budgets). Checking the credential first costs a constant-time comparison or one HMAC.
 *
 * Not in the delivery log, by contract: 404, 405 and both 429s. Never in the process log: any credential,
 * header, path token or body — debug lines name the webhook, the delivery and the outcome only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transaction } from 'kysely';
import type { ServerContext } from '../context';
import type { Database } from '../db/tables';
import { isDatabaseUnreachable, isOutOfStorage } from '../db/dialect';
import { trustedProxies, type IsTrustedProxy } from '../http/client-address';
import type { ServerMetrics } from '../http/metrics';
import { ProblemError } from '../problems';
import { announceNewRuns } from '../runs/service';
import type { RejectionReason } from '../webhooks/schemes';
import { answerAccepted, answerProblem, assignRequestId, problems } from './answer';
import { declaredLength, readRawBody } from './body';
import { identifyDelivery, signedBodyDigest } from './identify';
import { parseJsonBody } from '../json';
import { authFailureKey, deliveryRateKey, takeSlot, takeSlots, windowPosition, type CounterSnapshot, type WindowLimit } from './rate-limit';
import { createGroupCommit, type GroupCommit } from './group-commit';
import { logAcceptedOrDuplicates, logRejectedDelivery, type DeliveryFacts, type IdentifiedDelivery, type LoggedDelivery } from './record';
import { resolveWebhook } from './resolve';
import { routeIngressRequest, type IngressRoute } from './route';
import { senderAddress } from './sender';
import { checksCredentialBeforeBody, verifyDelivery, type VerifyDeliveryInput } from './verify';
import { traceDelivery } from '../telemetry/http-spans';
import { activeTraceContext, annotateActiveSpan, spanEvent, traceFields } from '../telemetry/spans';

export interface IngressHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Settles once every delivery handed to the database has committed or failed (shutdown, before it closes). */
  drain(): Promise<void>;
}

/** Every ingress answer is observed under this pattern (bounded cardinality: no uids or tokens). */
const METRICS_ROUTE = '/webhooks/w/{webhookUid}';

export function createIngressHandler(ctx: ServerContext, metrics?: ServerMetrics): IngressHandler {
  const groupCommit = createGroupCommit<AuthenticatedDelivery, WriteOutcome>(ctx.db, (trx, batch) => writeAuthenticated(ctx, trx, batch));
  const ingestCtx: IngestContext = {
    ...ctx,
    groupCommit,
    isTrustedProxy: trustedProxies(ctx.settings.trustProxy),
    onDelivery: metrics ? (label) => metrics.countDelivery(label) : undefined,
  };
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    if (metrics) {
      const answered = metrics.startRequest();
      res.on('finish', () => answered(req.method ?? 'UNKNOWN', METRICS_ROUTE, res.statusCode));
    }
    traceDelivery(req, res, METRICS_ROUTE, (rootTraceId) => {
      assignRequestId(req, res, rootTraceId);
      const route = routeIngressRequest(req.method, req.url);
      ingest(ingestCtx, route, req, res).catch((err: unknown) => {
        ctx.log.error({ err, webhook_id: route.kind === 'delivery' ? route.webhookId : undefined, ...traceFields() }, 'webhook ingress failed');
        try {
          answerProblem(
            res,
            isOutOfStorage(err) ? problems.storageFull() : isDatabaseUnreachable(err) ? problems.databaseUnavailable() : problems.internal(),
            route.instance,
            { close: !req.complete },
          );
        } catch {
          res.destroy();
        }
      });
    });
  };
  return Object.assign(handle, { drain: groupCommit.drain });
}

/**
 * The server context plus the ingress's shared commit, who may name the sender (TRUST_PROXY) and what it
 * reports each logged delivery to (metrics).
 */
type IngestContext = ServerContext & {
  groupCommit: GroupCommit<AuthenticatedDelivery, WriteOutcome>;
  isTrustedProxy: IsTrustedProxy;
  onDelivery: ((label: string) => void) | undefined;
};

/** An authenticated delivery on its way to steps 7–9, with what its webhook's counters showed at step 2. */
interface AuthenticatedDelivery {
  facts: DeliveryFacts;
  rateKey: string;
  counters: CounterSnapshot;
  /** Undefined: the body is not JSON. */
  identified: IdentifiedDelivery | undefined;
}

/** A body that is not JSON, logged as such (step 8). */
type InvalidJson = { label: 'Rejected (invalid JSON)'; deliveryId: string };

type WriteOutcome = LoggedDelivery | ProblemError | InvalidJson;

async function ingest(ctx: IngestContext, route: IngressRoute, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { db, clock, settings } = ctx;
  const { windows, limits } = settings;

  // 1. Route: only POST to /webhooks/w/<uid>[/<token>].
  if (route.kind === 'method_not_allowed') return answerProblem(res, problems.methodNotAllowed(), route.instance);
  if (route.kind === 'not_found') return answerProblem(res, problems.notFound(), route.instance);

  // 2. Resolve the webhook (the service-wide lookup by uid) with its limit counters: unknown, disabled or
  //    deleted → 404.
  const receivedAt = clock.now();
  const sender = senderAddress(req, ctx.isTrustedProxy);
  const authFailures = { limit: limits.authFailuresPerWindow, windowSeconds: windows.rateLimitWindowSeconds };
  const authKey = authFailureKey(route.webhookId, sender);
  const rateKey = deliveryRateKey(route.webhookId);
  const position = windowPosition(receivedAt.getTime(), windows.rateLimitWindowSeconds);
  const resolved = await resolveWebhook(db, route.webhookId, { keys: [authKey, rateKey], position });
  if (!resolved) return answerProblem(res, problems.notFound(), route.instance);
  const { webhook, counters } = resolved;
  spanEvent('resolved');

  // 3. The failed-authentication budget of this sender address for this webhook is taken by each failure of
  //    steps 4–6 as it happens (429 once spent), never by a sender whose credential checks out.
  const failedAttempt: FailedAttempt = { ctx, req, res, instance: route.instance, authKey, authFailures, counters };
  const credential: Omit<VerifyDeliveryInput, 'rawBody'> = {
    webhook,
    pathToken: route.token,
    headers: req.headers,
    secrets: ctx.webhookSecretCache,
    now: receivedAt,
    toleranceSeconds: windows.signatureToleranceSeconds,
  };

  // 4. token and url_token: the credential is in a header or the path, so it is checked before a byte of the
  //    body is read → 401, logged "Rejected (auth)" with the declared size (429 once the budget is spent).
  const credentialFirst = checksCredentialBeforeBody(webhook.authMode);
  if (credentialFirst) {
    const verdict = verifyDelivery(credential);
    if (!verdict.ok) return rejectUnauthenticated(failedAttempt, { webhook, size: declaredLength(req) ?? 0, receivedAt }, verdict.reason);
  }

  // 5. Read the raw body with a hard cap → 413, logged "Rejected (too large)". A signature webhook's sender is
  //    not authenticated yet, so the attempt takes a place in its failed-auth budget first (spent → 429).
  const read = await readRawBody(req, limits.maxDeliveryBytes);
  if (read.kind === 'aborted') return void res.destroy();
  if (read.kind === 'too_large') {
    if (!credentialFirst && !(await reserveFailedAttempt(failedAttempt, { close: true }))) return;
    const deliveryId = await logRejectedDelivery(db, { webhook, size: read.size, receivedAt }, 'Rejected (too large)');
    trace(ctx, webhook.id, deliveryId, 'Rejected (too large)');
    return answerProblem(res, problems.tooLarge(limits.maxDeliveryBytes), route.instance, { close: true });
  }
  const rawBody = read.body;
  const facts = { webhook, size: rawBody.length, receivedAt };

  // 6. signature: verify the signature over the raw body → 401, logged "Rejected (auth)".
  if (!credentialFirst) {
    const verdict = verifyDelivery({ ...credential, rawBody, now: clock.now() });
    if (!verdict.ok) return rejectUnauthenticated(failedAttempt, facts, verdict.reason);
  }

  // 7–9 run in one transaction, so an authenticated delivery costs one commit: its rate slot, its log row
  // and the runs it starts land together. Deliveries arriving together share that commit and its statements
  // (group-commit.ts, writeAuthenticated below). Parsing and identifying need no database: done here, their
  // verdict still comes after the rate check's.
  const parsed = parseJsonBody(rawBody);
  const identified = parsed.ok
    ? {
        facts,
        identity: identifyDelivery(webhook, req.headers, rawBody),
        bodyDigest: signedBodyDigest(webhook, rawBody),
        rawBody,
        payload: parsed.payload,
        traceContext: activeTraceContext(),
      }
    : undefined;
  spanEvent('verified');
  const outcome = await ctx.groupCommit.run({ facts, rateKey, counters, identified });
  if (outcome instanceof ProblemError) return answerProblem(res, outcome, route.instance);
  trace(ctx, webhook.id, outcome.deliveryId, outcome.label);
  if (outcome.label === 'Rejected (invalid JSON)') return answerProblem(res, problems.invalidJson(), route.instance);
  if (outcome.label === 'Accepted')
    announceNewRuns(
      ctx,
      webhook.teamId,
      outcome.runs.map((r) => r.run_id),
    );

  // 10. 202 — only now, after the log row (and any runs) committed.
  answerAccepted(res, outcome.deliveryId);
}

/**
 * Steps 7–9 for deliveries committed together, in arrival order, with one statement per step where the
 * database allows: nothing in here may act outside the transaction (group-commit.ts); reports come after it.
 */
async function writeAuthenticated(ctx: ServerContext, trx: Transaction<Database>, batch: readonly AuthenticatedDelivery[]): Promise<WriteOutcome[]> {
  const { windows, limits } = ctx.settings;
  const outcomes: Array<WriteOutcome | undefined> = Array.from(batch, () => undefined);

  // 7. The webhook's delivery rate (authenticated deliveries only) → 429, not logged. One counter update per
  //    webhook for all of its deliveries in the batch, in arrival order within a webhook. The webhooks' counter
  //    rows are taken in key order: two processes' batches locking them in arrival order could deadlock.
  const byRateKey = new Map<string, number[]>();
  batch.forEach(({ rateKey }, i) => byRateKey.set(rateKey, [...(byRateKey.get(rateKey) ?? []), i]));
  const deliveries = { limit: limits.deliveriesPerWindow, windowSeconds: windows.rateLimitWindowSeconds };
  for (const [rateKey, indices] of [...byRateKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    // The latest snapshot of the key: counts only grow within a window, and the upsert decides anyway.
    const slots = await takeSlots(trx, ctx.clock, rateKey, deliveries, indices.length, batch[indices.at(-1)!]!.counters);
    indices.forEach((i, j) => {
      const slot = slots[j]!;
      if (!slot.allowed) outcomes[i] = problems.rateLimited(slot.retryAfterSeconds);
    });
  }

  // 8. Parse: any JSON value → else 400, logged "Rejected (invalid JSON)".
  const identified: Array<{ at: number; delivery: IdentifiedDelivery }> = [];
  for (const [i, delivery] of batch.entries()) {
    if (outcomes[i]) continue;
    if (delivery.identified) identified.push({ at: i, delivery: delivery.identified });
    else outcomes[i] = { label: 'Rejected (invalid JSON)', deliveryId: await logRejectedDelivery(trx, delivery.facts, 'Rejected (invalid JSON)') };
  }

  // 9. The dedup gate: log Accepted and start its runs, or log a Duplicate.
  const logged = await logAcceptedOrDuplicates(
    trx,
    ctx,
    identified.map(({ delivery }) => delivery),
  );
  identified.forEach(({ at }, j) => (outcomes[at] = logged[j]));
  return outcomes as WriteOutcome[];
}

/** What answering a failed attempt needs: where to answer, and the sender's failed-auth budget. */
interface FailedAttempt {
  ctx: IngestContext;
  req: IncomingMessage;
  res: ServerResponse;
  instance: string;
  authKey: string;
  authFailures: WindowLimit;
  counters: CounterSnapshot;
}

/**
 * Takes one place in the sender's failed-auth budget (one atomic conditional upsert: concurrent attempts
 * never take more places than the budget has). False: the budget is spent and a 429 has been answered.
 */
async function reserveFailedAttempt(attempt: FailedAttempt, options: { close: boolean }): Promise<boolean> {
  const { ctx, authKey, authFailures, counters } = attempt;
  const slot = await takeSlot(ctx.db, ctx.clock, authKey, authFailures, counters);
  if (slot.allowed) return true;
  answerProblem(attempt.res, problems.authBudgetSpent(slot.retryAfterSeconds), attempt.instance, options);
  return false;
}

/**
 * 401, logged "Rejected (auth)" with its reason, once the attempt has its place in the budget (else 429, not
 * logged). The reason is for the webhook's owner reading the log; the sender's answer stays generic.
 */
async function rejectUnauthenticated(attempt: FailedAttempt, facts: DeliveryFacts, reason: RejectionReason): Promise<void> {
  const { ctx, req, res } = attempt;
  // A body left unread (token modes) is not worth reading: the connection closes after the answer.
  const close = !req.complete;
  if (!(await reserveFailedAttempt(attempt, { close }))) return;
  const deliveryId = await logRejectedDelivery(ctx.db, facts, 'Rejected (auth)', reason);
  trace(ctx, facts.webhook.id, deliveryId, 'Rejected (auth)', reason);
  answerProblem(res, problems.unauthorized(), attempt.instance, { close });
}

/** Reports a delivery that was written to the log: metrics always, a debug line when enabled. */
function trace(ctx: IngestContext, webhookId: string, deliveryId: string, label: string, reason?: string): void {
  ctx.onDelivery?.(label);
  annotateActiveSpan({ 'webhook.id': webhookId, 'webhook.delivery.id': deliveryId, 'webhook.delivery.label': label });
  if (ctx.log.isLevelEnabled('debug')) ctx.log.debug({ webhook_id: webhookId, delivery_id: deliveryId, label, reason }, 'webhook delivery');
}
