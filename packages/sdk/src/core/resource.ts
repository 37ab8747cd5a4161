import type { AgentRuns } from '../client';

export abstract class APIResource {
  protected _client: AgentRuns;

  constructor(client: AgentRuns) {
    this._client = client;
  }
}
