/**
 * Which team's run a worker claims next (docs/decisions.md §Fair claiming). Round-robin across teams: among
 * the teams with a QUEUED run and fewer than TEAM_MAX_CONCURRENT_RUNS runs holding a worker (the leased
 * states; a BLOCKED run holds none), the one whose last claim is oldest (never claimed first; ties: the
 * oldest queued run). Within the team, its oldest QUEUED run (./transitions claimNextQueuedRun).
 *
 * The cap holds across processes because every claim of a team first takes that team's `team_claims` row
 * (an upsert, which locks it on PostgreSQL until the claim commits) and only then counts the team's leased
 * runs in the claim's guard: two claims of one team never count at the same time. SQLite's BEGIN IMMEDIATE
 * serialises all claims anyway.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Timestamp } from '../db/tables';
import type { Db } from './repository';
import { LEASED_STATES } from './states';

const leasedStates = () => sql.join(LEASED_STATES.map((state) => sql`${state}`));

/**
 * Takes the turn of the team to claim for and returns it, or undefined when no team with queued runs is
 * under `teamCap` (or all such are in `passedOver`). One statement picks the team and upserts its
 * `team_claims` row with `now`, which on PostgreSQL locks the row until the claim commits: another claim
 * for the same team waits there, then (./transitions claimNextQueuedRun) counts the runs this one leased.
 * The teams with queued runs are walked one index step each (runs_state_team_created_idx) rather than by
 * reading the whole queue.
 */
export async function takeNextTeamTurn(tx: Db, teamCap: number, passedOver: readonly string[], now: Timestamp): Promise<string | undefined> {
  const notPassedOver = passedOver.length > 0 ? sql`and queued_teams.team_id not in (${sql.join(passedOver)})` : sql``;
  const { rows } = await sql<{ team_id: string }>`
    with recursive queued_teams(team_id) as (
      select (select team_id from runs where state = 'QUEUED' order by team_id limit 1)
      union all
      select (select r.team_id from runs r where r.state = 'QUEUED' and r.team_id > queued_teams.team_id order by r.team_id limit 1)
      from queued_teams where queued_teams.team_id is not null
    )
    insert into team_claims (team_id, last_claimed_at)
    select queued_teams.team_id, ${now} from queued_teams
    left join team_claims turns on turns.team_id = queued_teams.team_id
    where queued_teams.team_id is not null ${notPassedOver} and ${underTeamCap(sql.ref('queued_teams.team_id'), teamCap)}
    order by
      coalesce(turns.last_claimed_at, ''),
      (select min(oldest.created_at) from runs oldest where oldest.state = 'QUEUED' and oldest.team_id = queued_teams.team_id),
      queued_teams.team_id
    limit 1
    on conflict (team_id) do update set last_claimed_at = excluded.last_claimed_at
    returning team_id`.execute(tx);
  return rows[0]?.team_id;
}

/** Fewer than `teamCap` runs of the team hold a worker: the pick's filter, and the claim's guard once the turn is taken. */
export const underTeamCap = (teamId: string | RawBuilder<unknown>, teamCap: number) =>
  sql<boolean>`(select count(*) from runs held where held.state in (${leasedStates()}) and held.team_id = ${teamId}) < ${teamCap}`;
