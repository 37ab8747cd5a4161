/** Resources as the API sends them, with only what a test cares about given. */
import type { CloudEnvironment, RunItem, RunState } from '@agent-runs/sdk';

export const run = (runId: string, title: string, state: RunState, updatedAt = '2026-11-01T10:00:00.000Z'): RunItem => ({
  run_id: runId,
  task_id: runId,
  title,
  state,
  prompt: title,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: updatedAt,
});

export const environment = (uid: string, name: string): CloudEnvironment => ({
  uid,
  config: { name, setup_commands: [] },
  last_updated: '2026-11-01T10:00:00.000Z',
  last_task_run_timestamp: null,
  setup_failed: false,
  scope: { type: 'Team', uid: 'team_1' },
  env_var_names: [],
  plain_env_vars: {},
  created_at: '2026-11-01T10:00:00.000Z',
});
