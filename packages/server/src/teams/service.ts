/** Team rules: unique names; creation is an operator action (admin command, bootstrap). */
import type { Kysely } from 'kysely';
import { toTimestamp, type Clock } from '../clock';
import { newId } from '../crypto/ids';
import { isUniqueViolation } from '../db/dialect';
import type { Database } from '../db/tables';
import { findTeamByName, insertTeam, type Team } from './repository';

export class TeamExistsError extends Error {}

const TEAM_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function assertTeamName(name: string): void {
  if (!TEAM_NAME.test(name)) {
    throw new TypeError('a team name is 1–64 characters: letters, digits, ".", "_" and "-", starting with a letter or digit');
  }
}

export async function createTeam(db: Kysely<Database>, clock: Clock, name: string): Promise<Team> {
  assertTeamName(name);
  const now = clock.now();
  const team: Team = { id: newId('team', now), name, created_at: toTimestamp(now) };
  try {
    await insertTeam(db, team);
  } catch (err) {
    if (isUniqueViolation(err)) throw new TeamExistsError(`team "${name}" already exists`);
    throw err;
  }
  return team;
}

/** The team with this name, created if missing (safe against a concurrent creator). */
export async function ensureTeam(db: Kysely<Database>, clock: Clock, name: string): Promise<Team> {
  const existing = await findTeamByName(db, name);
  if (existing) return existing;
  try {
    return await createTeam(db, clock, name);
  } catch (err) {
    if (!(err instanceof TeamExistsError)) throw err;
    const team = await findTeamByName(db, name);
    if (!team) throw err;
    return team;
  }
}
