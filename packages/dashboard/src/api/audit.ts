/** Query options for the audit log: the one place its keys are made. */
import type { AgentRuns, AuditEventListParams } from '@agent-runs/sdk';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';

export const auditKeys = {
  all: ['audit'] as const,
  list: (params: AuditEventListParams) => [...auditKeys.all, 'list', params] as const,
};

export const auditEventsQuery = (client: AgentRuns, params: AuditEventListParams) =>
  queryOptions({
    queryKey: auditKeys.list(params),
    queryFn: async ({ signal }) => {
      const page = await client.auditEvents.list(params, { signal });
      return { events: page.data, nextCursor: page.page_info.next_cursor };
    },
    placeholderData: keepPreviousData,
  });
