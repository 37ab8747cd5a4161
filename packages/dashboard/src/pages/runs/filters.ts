/**
 * The runs list's filters live in the URL's query string (a filtered view can be shared and reloaded; the
 * API key never goes there). Names and values are the `GET /agent/runs` parameters' own.
 */
import { runSourceTypeValues, runStateValues, type RunListParams, type RunSourceType, type RunState } from '@agent-runs/sdk';

export const TEXT_FILTERS = ['name', 'model_id', 'creator', 'factory_uid', 'automation_id', 'schedule_id'] as const;
type TextFilter = (typeof TEXT_FILTERS)[number];

export const SORTS = {
  created_desc: { label: 'Newest first', sort_by: 'created_at', sort_order: 'desc' },
  created_asc: { label: 'Oldest first', sort_by: 'created_at', sort_order: 'asc' },
  updated_desc: { label: 'Recently updated', sort_by: 'updated_at', sort_order: 'desc' },
} as const;
export type SortKey = keyof typeof SORTS;
// Newest created first: a state change patches its row in place instead of moving it.
export const DEFAULT_SORT: SortKey = 'created_desc';

export type RunFilters = { [K in TextFilter]: string } & {
  state: RunState[];
  source: RunSourceType | '';
  /** RFC 3339, or '' */
  created_after: string;
  created_before: string;
  sort: SortKey;
  /** Page size; '' for the API's default. */
  limit: string;
};

const isState = (v: string): v is RunState => (runStateValues as readonly string[]).includes(v);
const isSource = (v: string): v is RunSourceType => (runSourceTypeValues as readonly string[]).includes(v);
const isSort = (v: string): v is SortKey => Object.hasOwn(SORTS, v);

export function filtersFromSearch(search: string): RunFilters {
  const q = new URLSearchParams(search);
  const text = Object.fromEntries(TEXT_FILTERS.map((k) => [k, q.get(k) ?? ''])) as { [K in TextFilter]: string };
  const source = q.get('source') ?? '';
  const sort = q.get('sort') ?? '';
  const limit = q.get('limit') ?? '';
  return {
    ...text,
    state: q.getAll('state').filter(isState),
    source: isSource(source) ? source : '',
    created_after: q.get('created_after') ?? '',
    created_before: q.get('created_before') ?? '',
    sort: isSort(sort) ? sort : DEFAULT_SORT,
    limit: /^\d{1,3}$/.test(limit) ? limit : '',
  };
}

/** The query string for `filters`, without empty values (so the default view is plain `/runs`). */
export function searchFromFilters(filters: RunFilters): string {
  const q = new URLSearchParams();
  for (const state of filters.state) q.append('state', state);
  for (const key of TEXT_FILTERS) if (filters[key].trim()) q.set(key, filters[key].trim());
  if (filters.source) q.set('source', filters.source);
  if (filters.created_after) q.set('created_after', filters.created_after);
  if (filters.created_before) q.set('created_before', filters.created_before);
  if (filters.sort !== DEFAULT_SORT) q.set('sort', filters.sort);
  if (filters.limit) q.set('limit', filters.limit);
  return q.toString();
}

export function listParams(filters: RunFilters): RunListParams {
  const { sort_by, sort_order } = SORTS[filters.sort];
  const params: RunListParams = { sort_by, sort_order };
  if (filters.state.length > 0) params.state = filters.state;
  for (const key of TEXT_FILTERS) if (filters[key]) params[key] = filters[key];
  if (filters.source) params.source = filters.source;
  if (filters.created_after) params.created_after = filters.created_after;
  if (filters.created_before) params.created_before = filters.created_before;
  if (filters.limit) params.limit = Number(filters.limit);
  return params;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** RFC 3339 → the value of an <input type="datetime-local"> in the reader's time zone. */
export function toLocalInput(rfc3339: string): string {
  const d = new Date(rfc3339);
  if (!rfc3339 || Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** An <input type="datetime-local"> value (the reader's time zone) → RFC 3339 in UTC. */
export function fromLocalInput(value: string): string {
  const d = new Date(value);
  return value && !Number.isNaN(d.getTime()) ? d.toISOString() : '';
}
