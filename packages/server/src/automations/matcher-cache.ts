/**
 * The per-server cache behind delivery-time matching (ServerContext.matcherCache), so no filter JSON is parsed per delivery.
 *
 * Two levels, both keyed by versions read from the database in the delivery's own transaction, so the
 * cache can never serve a filter other than the one committed (whatever another process changed):
 *
 * 1. parsed triggers per automation, keyed by (automation id, updated_at): parsed once per version;
 * 2. per webhook, an AutomationMatcher over the enabled automations selecting it, keyed by the list of
 *    (id, updated_at) of those candidates: rebuilt (compilation only, no parsing of unchanged automations)
 *    when an automation is added, changed, enabled, disabled or removed.
 *
 * Every change to an automation writes a NEW updated_at (service.ts `nextVersion`: strictly later than the
 * previous one even when the clock has not moved), which is what makes (id, updated_at) a version key.
 * Both levels are bounded; the oldest entries are dropped first.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/tables';
import { findTriggers, type CandidateAutomation } from './repository';
import { AutomationMatcher, type MatchableAutomation } from './matcher';
import type { Trigger } from './triggers';

const MAX_PARSED = 20_000;
const MAX_MATCHERS = 2_000;

interface ParsedAutomation {
  updatedAt: string;
  triggers: readonly Trigger[];
}

interface WebhookMatcher {
  signature: string;
  matcher: AutomationMatcher;
  /** Matcher entry key → automation id (an automation contributes one entry per trigger on this webhook). */
  owners: Map<string, string>;
}

export interface MatcherCacheStats {
  parses: number;
  rebuilds: number;
}

export class MatcherCache {
  private readonly parsed = new Map<string, ParsedAutomation>();
  private readonly byWebhook = new Map<string, WebhookMatcher>();
  /** Counters for tests and metrics: how often JSON was parsed and matchers rebuilt. */
  readonly stats: MatcherCacheStats = { parses: 0, rebuilds: 0 };

  /**
   * Ids of the candidates (enabled automations selecting `webhookId`, as just read in the caller's
   * transaction) whose triggers on this webhook match `payload`, in candidate order.
   */
  async match(
    db: Kysely<Database>,
    teamId: string,
    webhookId: string,
    candidates: readonly CandidateAutomation[],
    payload: unknown,
    onInvalid: (automationId: string, message: string) => void = () => {},
  ): Promise<string[]> {
    if (candidates.length === 0) return [];
    const entry = await this.matcherFor(db, teamId, webhookId, candidates, onInvalid);
    const matched = new Set<string>();
    for (const key of entry.matcher.match(webhookId, payload)) matched.add(entry.owners.get(key)!);
    return [...matched];
  }

  private async matcherFor(
    db: Kysely<Database>,
    teamId: string,
    webhookId: string,
    candidates: readonly CandidateAutomation[],
    onInvalid: (automationId: string, message: string) => void,
  ): Promise<WebhookMatcher> {
    const signature = candidates.map((c) => `${c.id}@${c.updated_at}`).join(',');
    const cached = this.byWebhook.get(webhookId);
    if (cached?.signature === signature) return cached;

    await this.parseMissing(db, teamId, candidates, onInvalid);
    const entries: MatchableAutomation[] = [];
    const owners = new Map<string, string>();
    // An edit committed between reading the candidates and their triggers (PostgreSQL, READ COMMITTED):
    // the newer version is used for this delivery, and the matcher is not cached under the older key.
    let consistent = true;
    for (const candidate of candidates) {
      const parsed = this.parsed.get(candidate.id);
      if (!parsed) continue; // deleted meanwhile
      if (parsed.updatedAt !== candidate.updated_at) consistent = false;
      parsed.triggers.forEach((trigger, i) => {
        if (!trigger.filter.webhook_ids.includes(webhookId)) return;
        const key = `${candidate.id}#${i}`;
        owners.set(key, candidate.id);
        entries.push({ automationId: key, enabled: true, webhookIds: [webhookId], payloadFilter: trigger.filter.payload ?? null });
      });
    }
    const matcher = new AutomationMatcher(entries);
    for (const skipped of matcher.skipped) {
      onInvalid(owners.get(skipped.automationId) ?? skipped.automationId, skipped.issues[0]?.message ?? 'invalid payload filter');
    }
    this.stats.rebuilds++;
    const built = { signature, matcher, owners };
    if (!consistent) return built;
    this.byWebhook.delete(webhookId);
    this.byWebhook.set(webhookId, built);
    evictOldest(this.byWebhook, MAX_MATCHERS);
    return built;
  }

  private async parseMissing(
    db: Kysely<Database>,
    teamId: string,
    candidates: readonly CandidateAutomation[],
    onInvalid: (automationId: string, message: string) => void,
  ): Promise<void> {
    const missing = candidates.filter((c) => this.parsed.get(c.id)?.updatedAt !== c.updated_at).map((c) => c.id);
    if (missing.length === 0) return;
    for (const row of await findTriggers(db, teamId, missing)) {
      let triggers: Trigger[];
      try {
        triggers = JSON.parse(row.triggers) as Trigger[];
        if (!Array.isArray(triggers)) throw new TypeError('triggers is not a list');
      } catch (err) {
        onInvalid(row.id, `stored triggers are unreadable: ${(err as Error).message}`);
        triggers = [];
      }
      this.stats.parses++;
      this.parsed.delete(row.id);
      this.parsed.set(row.id, { updatedAt: row.updated_at, triggers });
    }
    evictOldest(this.parsed, MAX_PARSED);
  }
}

function evictOldest<K, V>(map: Map<K, V>, max: number): void {
  while (map.size > max) {
    const oldest = map.keys().next();
    if (oldest.done) return;
    map.delete(oldest.value);
  }
}
