import { APIResource } from '../../core/resource';
import { Environments } from './environments';
import { Runs } from './runs';
import { Schedules } from './schedules';
import { Skills } from './skills';

/** `/agent/…`: runs, skills, environments and schedules. */
export class Agent extends APIResource {
  runs: Runs = new Runs(this._client);
  skills: Skills = new Skills(this._client);
  environments: Environments = new Environments(this._client);
  schedules: Schedules = new Schedules(this._client);
}
