/**
 * What GET /agent/models answers (contract: listModels): the language models runs of this server can use.
 *
 * - The model runner: the provider's own list (`GET <MODEL_BASE_URL>/models`) with DEFAULT_MODEL_ID first
 *   and always present. The provider is asked at most once per MODEL_LIST_CACHE_SECONDS per process
 *   (concurrent requests share one call) and waited for at most MODEL_LIST_TIMEOUT_SECONDS; when it
 *   cannot answer, the list is the default alone until the next attempt — a tenant's request never waits
 *   on a broken provider more than once per interval.
 * - The echo and command runners use no model: one entry, the id their runs record as `model_id`.
 *
 * The list says nothing about capabilities, so the provider is inferred from the id and vision is `false`
 * (runs hand attachments to the agent as files, never as image input).
 */
import type { Logger } from 'pino';
import type { Clock } from '../../clock';
import type { components } from '@agent-runs/contract';
import type { Settings } from '../../settings';
import { ChatCompletionsClient } from './model-client';

type ListModelsResponse = components['schemas']['ListModelsResponse'];
type ModelInfo = components['schemas']['ModelInfo'];

const PROVIDERS: Array<[RegExp, ModelInfo['provider']]> = [
  [/^(gpt-|chatgpt-|o[134](-|$))/i, 'OPENAI'],
  [/^claude-/i, 'ANTHROPIC'],
  [/^(gemini-|gemma-)/i, 'GOOGLE'],
];

/** The model's maker as far as its id tells (contract: listModels). */
export function modelProvider(id: string): ModelInfo['provider'] {
  return PROVIDERS.find(([pattern]) => pattern.test(id))?.[1] ?? 'UNKNOWN';
}

function modelInfo(id: string, description?: string): ModelInfo {
  return { id, display_name: id, provider: modelProvider(id), vision_supported: false, ...(description ? { description } : {}) };
}

type CatalogSettings = Pick<Settings, 'runner' | 'defaultModelId' | 'modelBaseUrl' | 'modelApiKey'> & {
  windows: Pick<Settings['windows'], 'modelListCacheSeconds' | 'modelListTimeoutSeconds'>;
};

/** Process-wide (ServerContext.modelCatalog): the provider's list is shared by every request of the process. */
export class ModelCatalog {
  readonly #settings: CatalogSettings;
  readonly #clock: Clock;
  readonly #log: Logger;
  #fetched: { at: number; ids: readonly string[] } | undefined;
  #pending: Promise<readonly string[]> | undefined;

  constructor(settings: CatalogSettings, clock: Clock, log: Logger) {
    this.#settings = settings;
    this.#clock = clock;
    this.#log = log;
  }

  async list(): Promise<ListModelsResponse> {
    const { runner, defaultModelId } = this.#settings;
    if (runner !== 'model') {
      // What runs/config.ts records as such a run's model_id.
      const id = defaultModelId ?? runner;
      return {
        default_model_id: id,
        models: [modelInfo(id, `The ${runner} runner uses no language model; a run's config.model_id is recorded and not used.`)],
      };
    }
    const fromProvider = [...new Set(await this.#providerIds())].filter((id) => id !== defaultModelId).sort();
    const models = [
      ...(defaultModelId ? [modelInfo(defaultModelId, "The server's default model (DEFAULT_MODEL_ID).")] : []),
      ...fromProvider.map((id) => modelInfo(id)),
    ];
    return { default_model_id: defaultModelId ?? '', models };
  }

  #providerIds(): Promise<readonly string[]> {
    const fresh = this.#fetched && this.#clock.now().getTime() - this.#fetched.at < this.#settings.windows.modelListCacheSeconds * 1000;
    if (fresh) return Promise.resolve(this.#fetched!.ids);
    this.#pending ??= this.#fetch().finally(() => {
      this.#pending = undefined;
    });
    return this.#pending;
  }

  async #fetch(): Promise<readonly string[]> {
    const { modelBaseUrl, modelApiKey, windows } = this.#settings;
    let ids: string[] = [];
    try {
      const client = new ChatCompletionsClient({ baseUrl: modelBaseUrl!, ...(modelApiKey ? { apiKey: modelApiKey } : {}) });
      ids = await client.listModelIds(windows.modelListTimeoutSeconds * 1000);
    } catch (err) {
      this.#log.warn({ err: err instanceof Error ? err.message : String(err) }, 'the model provider did not list its models; listing DEFAULT_MODEL_ID alone');
    }
    this.#fetched = { at: this.#clock.now().getTime(), ids };
    return ids;
  }
}
