/**
 * AutomationMatcher: webhook UID → enabled automations with pre-compiled payload filters.
 *
 * Storage-agnostic. The caller loads automations (with their payload filter already parsed from JSON)
 * and builds a matcher; when automations change (create, update, delete, enable/disable, definition
 * apply) it calls `rebuild(list)` or constructs a new matcher — both are cheap (validation and
 * compilation only, roughly 0.1 ms per automation). `rebuild` builds the new index completely before
 * swapping it in, so a `match` call never sees a half-built index.
 *
 * `match` does no JSON parsing and no filter validation: one Map lookup; one walk of the payload
 * resolving every field path used by that webhook's filters (a path trie shared by the filters of the
 * webhook, each node read once); then each automation's leaf tests over the resolved values.
 *
 * Choices:
 * - disabled automations are not indexed;
 * - an automation whose stored filter is invalid (it should have been refused with a 422 when saved)
 *   never matches — fail closed — and is reported in `skipped` rather than breaking the whole index;
 * - results keep the order of the list given to the constructor / `rebuild`, without duplicates (an
 *   automation listing the same webhook twice, or appearing twice in the list, is matched once: the
 *   first occurrence wins);
 * - each webhook has its own path table, so an automation selecting several webhooks is compiled
 *   once per webhook (its `compiled` differs per webhook; verdicts are identical);
 * - whether a webhook is enabled/deleted is not this class's concern: the ingress answers 404 for
 *   those before any matching, and replay/test-filter callers decide themselves.
 */
import { compilePayloadFilter, PathTable, PayloadFilterError, validatePayloadFilter, type CompiledFilter, type FilterIssue } from './filter';

export interface MatchableAutomation {
  automationId: string;
  enabled: boolean;
  /** Webhook UIDs of the automation's webhook trigger(s). */
  webhookIds: readonly string[];
  /** The parsed payload filter (object), or null/undefined for "no filter". */
  payloadFilter: unknown;
}

export interface IndexedAutomation {
  readonly automationId: string;
  /** Usable on its own too: compiled.matches(payload), compiled.explain(payload). */
  readonly compiled: CompiledFilter;
}

export interface SkippedAutomation {
  readonly automationId: string;
  readonly issues: readonly FilterIssue[];
}

interface Bucket {
  readonly paths: PathTable;
  readonly entries: IndexedAutomation[];
}

const EMPTY: readonly IndexedAutomation[] = Object.freeze([]);

export class AutomationMatcher {
  private index = new Map<string, Bucket>();
  private skippedList: SkippedAutomation[] = [];
  private indexedCount = 0;

  constructor(automations: Iterable<MatchableAutomation> = []) {
    this.rebuild(automations);
  }

  /** Replaces the whole index (atomically from a caller's point of view). Returns this. */
  rebuild(automations: Iterable<MatchableAutomation>): this {
    const index = new Map<string, Bucket>();
    const skipped: SkippedAutomation[] = [];
    const seen = new Set<string>();
    let count = 0;
    for (const automation of automations) {
      if (!automation.enabled || seen.has(automation.automationId)) continue;
      seen.add(automation.automationId);
      const issues = validatePayloadFilter(automation.payloadFilter);
      if (issues.length > 0) {
        skipped.push({ automationId: automation.automationId, issues });
        continue;
      }
      count++;
      for (const webhookUid of new Set(automation.webhookIds)) {
        let bucket = index.get(webhookUid);
        if (!bucket) index.set(webhookUid, (bucket = { paths: new PathTable(), entries: [] }));
        let compiled: CompiledFilter;
        try {
          compiled = compilePayloadFilter(automation.payloadFilter, { paths: bucket.paths });
        } catch (err) {
          /* c8 ignore next 2 -- validated above */
          if (!(err instanceof PayloadFilterError)) throw err;
          continue;
        }
        bucket.entries.push(Object.freeze({ automationId: automation.automationId, compiled }));
      }
    }
    this.index = index;
    this.skippedList = skipped;
    this.indexedCount = count;
    return this;
  }

  /** Ids of the enabled automations selecting `webhookUid` whose payload filter matches `payload`. */
  match(webhookUid: string, payload: unknown): string[] {
    const out: string[] = [];
    const bucket = this.index.get(webhookUid);
    if (!bucket) return out;
    const values = bucket.paths.resolve(payload);
    const entries = bucket.entries;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i]!;
      if (entry.compiled.matchesResolved(values)) out.push(entry.automationId);
    }
    return out;
  }

  /** The indexed (enabled, valid-filter) automations selecting `webhookUid`, in list order. */
  candidates(webhookUid: string): readonly IndexedAutomation[] {
    return this.index.get(webhookUid)?.entries ?? EMPTY;
  }

  /** Enabled automations left out because their stored filter is invalid (they never match). */
  get skipped(): readonly SkippedAutomation[] {
    return this.skippedList;
  }

  /** Number of distinct automations in the index. */
  get size(): number {
    return this.indexedCount;
  }
}
