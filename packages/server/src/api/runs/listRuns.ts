/** listRuns `GET /agent/runs` → ListRunsResponse (keyset pages, every filter of the contract). */
import { principalOf } from '../../http/auth';
import type { RunFilters } from '../../runs/repository';
import { listRuns } from '../../runs/service';
import type { OperationHandler, OperationQuery } from '../operations';
import { storedInstant } from '../query';

/** `%text%` for LIKE, with LIKE's own characters escaped (backslash is the escape character of the query). */
const containing = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
/** Oz's `environment_id` sentinel for runs without an environment (contract: listRuns). */
const EMPTY_ENVIRONMENT = 'empty-environment';

/** `skill` is an alias of `skill_spec` (contract: listRuns): both filters hold, so two different values match no run. */
function skillFilter({ skill, skill_spec: skillSpec }: OperationQuery<'listRuns'>): Pick<RunFilters, 'skillSpec' | 'matchesNothing'> {
  if (skill !== undefined && skillSpec !== undefined && skill !== skillSpec) return { skillSpec: skill, matchesNothing: 'skill' };
  return { skillSpec: skill ?? skillSpec };
}

/**
 * The Oz filters about things this service does not have answer the truth (contract: listRuns): no run
 * executed locally; a run's executor is its creator.
 */
function ozOnlyFilters({ creator, executor, execution_location }: OperationQuery<'listRuns'>): Pick<RunFilters, 'creator' | 'matchesNothing'> {
  const nothing =
    execution_location === 'LOCAL' ? 'execution_location' : creator !== undefined && executor !== undefined && creator !== executor ? 'executor' : undefined;
  return { creator: creator ?? executor, ...(nothing ? { matchesNothing: nothing } : {}) };
}

export const listRunsHandler: OperationHandler<'listRuns'> = (ctx) => async (req, res) => {
  const q = req.query;
  const metadata = Object.entries(q.metadata ?? {});
  res.json(
    await listRuns(ctx, principalOf(req).teamId, {
      limit: q.limit,
      ...(q.cursor ? { cursor: q.cursor } : {}),
      sortBy: q.sort_by,
      sortOrder: q.sort_order,
      filters: {
        states: q.state,
        name: q.name,
        modelId: q.model_id,
        source: q.source,
        factoryId: q.factory_uid,
        automationId: q.automation_id,
        deliveryId: q.delivery_id,
        sessionId: q.session_id?.toLowerCase(),
        createdAfter: storedInstant(q.created_after),
        createdBefore: storedInstant(q.created_before),
        updatedAfter: storedInstant(q.updated_after),
        textPattern: q.q === undefined ? undefined : containing(q.q),
        environmentId: q.environment_id === EMPTY_ENVIRONMENT ? '' : q.environment_id,
        ancestorRunId: q.ancestor_run_id,
        artifactType: q.artifact_type,
        scheduleId: q.schedule_id,
        ...(metadata.length > 0 ? { metadataKeys: metadata.map(([k]) => k), metadataValues: metadata.map(([, v]) => v) } : {}),
        ...skillFilter(q),
        ...ozOnlyFilters(q),
      },
    }),
  );
};
