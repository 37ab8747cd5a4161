/**
 * Which team's run a worker claims next (docs/decisions.md §Fair claiming). Round-robin across teams: among
 * the teams with a QUEUED run and fewer than TEAM_MAX_CONCURRENT_RUNS runs holding a worker (the leased
 * states; a BLOCKED run holds none), the one whose last claim is oldest (never claimed first; ties: the
 * oldest queued run). Within the team, its oldest QUEUED run (./transitions claimNextQueuedRun).
 *
 * The cap holds across processes because every claim of a team first takes that team's `team_claims` row
 * (an upsert, which locks it on PostgreSQL until the claim commits) and only then counts the team's leased
 * runs: two claims of one team never count at the same time. SQLite's BEGIN IMMEDIATE serialises all
 * claims anyway.
 */
import { sql } from 'kysely';
import type { Timestamp } from '../db/tables';
import type { Db } from './repository';
import { LEASED_STATES } from './states';

const leasedStates = () => sql.join(LEASED_STATES.map((state) => sql`${state}`));

/**
 * The team to claim for, or undefined when no team with queued runs is under `teamCap` (or all such are in
 * `passedOver`). The teams with queued runs are walked one index step each (runs_state_team_created_idx)
 * rather than by reading the whole queue.
 */
export async function nextTeamToClaim(tx: Db, teamCap: number, passedOver: readonly string[]): Promise<string | undefined> {
  const notPassedOver = passedOver.length > 0 ? sql`and queued_teams.team_id not in (${sql.join(passedOver)})` : sql``;
  const { rows } = await sql<{ team_id: string }>`
    with recursive queued_teams(team_id) as (
      select (select team_id from runs where state = 'QUEUED' order by team_id limit 1)
      union all
      select (select r.team_id from runs r where r.state = 'QUEUED' and r.team_id > queued_teams.team_id order by r.team_id limit 1)
      from queued_teams where queued_teams.team_id is not null
    )
    select queued_teams.team_id from queued_teams
    left join team_claims on team_claims.team_id = queued_teams.team_id
    where queued_teams.team_id is not null ${notPassedOver}
      and (select count(*) from runs held where held.team_id = queued_teams.team_id and held.state in (${leasedStates()})) < ${teamCap}
    order by
      coalesce(team_claims.last_claimed_at, ''),
      (select min(oldest.created_at) from runs oldest where oldest.state = 'QUEUED' and oldest.team_id = queued_teams.team_id),
      queued_teams.team_id
    limit 1`.execute(tx);
  return rows[0]?.team_id;
}

/**
 * Records the team's turn and holds its row until the claim commits (PostgreSQL: the upsert's row lock;
 * another process claiming for the same team waits here, then counts the runs this claim leased).
 */
export async function takeTeamTurn(tx: Db, teamId: string, now: Timestamp): Promise<void> {
  await tx
    .insertInto('team_claims')
    .values({ team_id: teamId, last_claimed_at: now })
    .onConflict((oc) => oc.column('team_id').doUpdateSet({ last_claimed_at: now }))
    .execute();
}

/** The claim's guard on the team's runs holding a worker, re-read after takeTeamTurn. */
export const underTeamCap = (teamId: string, teamCap: number) =>
  sql<boolean>`(select count(*) from runs held where held.team_id = ${teamId} and held.state in (${leasedStates()})) < ${teamCap}`;
