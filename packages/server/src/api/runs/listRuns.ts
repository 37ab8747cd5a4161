/** listRuns `GET /agent/runs` → ListRunsResponse (keyset pages, every filter of the contract). */
import { principalOf } from '../../http/auth';
import type { SortOrder } from '../../pagination';
import type { RunsSortKey } from '../../runs/cursor';
import { listRuns } from '../../runs/service';
import type { OperationHandler } from '../operations';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const list = (v: unknown): string[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v.map(String) : [String(v)]);
/** RFC 3339 with any offset → the stored form (UTC ISO), so text comparison is time comparison. */
const instant = (v: unknown): string | undefined => (typeof v === 'string' ? new Date(v).toISOString() : undefined);

export const listRunsHandler: OperationHandler<'listRuns'> =
  (ctx) =>
  async (req, res) => {
    const q = req.query as Record<string, unknown>;
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
          creator: str(q.creator),
          source: str(q.source),
          factoryId: str(q.factory_uid),
          automationId: str(q.automation_id),
          deliveryId: str(q.delivery_id),
          sessionId: str(q.session_id)?.toLowerCase(),
          createdAfter: instant(q.created_after),
          createdBefore: instant(q.created_before),
          updatedAfter: instant(q.updated_after),
        },
      }),
    );
  };
