/** The sort keys of GET /agent/runs, as the contract lists them (its cursors are made by pagination.ts keysetPage). */
import type { operations } from '@agent-runs/contract';

export type RunsSortKey = NonNullable<NonNullable<operations['listRuns']['parameters']['query']>['sort_by']>;
