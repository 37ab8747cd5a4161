/** listRuns `GET /agent/runs` → ListRunsResponse (keyset pages, every filter of the contract). */
import { principalOf } from '../../http/auth';
import type { SortOrder } from '../../pagination';
import type { RunFilters } from '../../runs/repository';
import type { RunsSortKey } from '../../runs/cursor';
import { listRuns } from '../../runs/service';
import type { OperationHandler } from '../operations';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const list = (v: unknown): string[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v.map(String) : [String(v)]);
/** RFC 3339 with any offset → the stored form (UTC ISO), so text comparison is time comparison. */
const instant = (v: unknown): string | undefined => (typeof v === 'string' ? new Date(v).toISOString() : undefined);
/** `%text%` for LIKE, with LIKE's own characters escaped (backslash is the escape character of the query). */
const containing = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** Oz's `environment_id` sentinel for runs without an environment (contract: listRuns). */
const EMPTY_ENVIRONMENT = 'empty-environment';

/** `skill` is an alias of `skill_spec` (contract: listRuns): both filters hold, so two different values match no run. */
function skillFilter(q: Record<string, unknown>): Pick<RunFilters, 'skillSpec' | 'matchesNothing'> {
  const [skill, skillSpec] = [str(q.skill), str(q.skill_spec)];
  if (skill !== undefined && skillSpec !== undefined && skill !== skillSpec) return { skillSpec: skill, matchesNothing: 'skill' };
  return { skillSpec: skill ?? skillSpec };
}

/**
 * The Oz filters about things this service does not have answer the truth (contract: listRuns): no run
 * executed locally; a run's executor is its creator.
 */
function ozOnlyFilters(q: Record<string, unknown>): Pick<RunFilters, 'creator' | 'matchesNothing'> {
  const [creator, executor] = [str(q.creator), str(q.executor)];
  const nothing =
    q.execution_location === 'LOCAL' ? 'execution_location'
    : creator !== undefined && executor !== undefined && creator !== executor ? 'executor'
    : undefined;
  return { creator: creator ?? executor, ...(nothing ? { matchesNothing: nothing } : {}) };
}

export const listRunsHandler: OperationHandler<'listRuns'> =
  (ctx) =>
  async (req, res) => {
    const q = req.query as Record<string, unknown>;
    const metadata = Object.entries((q.metadata ?? {}) as Record<string, string>);
    const environmentId = str(q.environment_id);
    const text = str(q.q);
    res.json(
      await listRuns(ctx, principalOf(req).teamId, {
        limit: Number(q.limit ?? 20),
        ...(str(q.cursor) ? { cursor: str(q.cursor)! } : {}),
        sortBy: (str(q.sort_by) ?? 'updated_at') as RunsSortKey,
        sortOrder: (str(q.sort_order) ?? 'desc') as SortOrder,
        filters: {
          states: list(q.state),
          name: str(q.name),
          modelId: str(q.model_id),
          source: str(q.source),
          factoryId: str(q.factory_uid),
          automationId: str(q.automation_id),
          deliveryId: str(q.delivery_id),
          sessionId: str(q.session_id)?.toLowerCase(),
          createdAfter: instant(q.created_after),
          createdBefore: instant(q.created_before),
          updatedAfter: instant(q.updated_after),
          textPattern: text === undefined ? undefined : containing(text),
          environmentId: environmentId === EMPTY_ENVIRONMENT ? '' : environmentId,
          ancestorRunId: str(q.ancestor_run_id),
          artifactType: str(q.artifact_type) as RunFilters['artifactType'],
          scheduleId: str(q.schedule_id),
          ...(metadata.length > 0 ? { metadataKeys: metadata.map(([k]) => k), metadataValues: metadata.map(([, v]) => String(v)) } : {}),
          ...skillFilter(q),
          ...ozOnlyFilters(q),
        },
      }),
    );
  };
