import type { FinalRequestOptions } from './request-options';

export interface APIResponseProps {
  response: Response;
  options: FinalRequestOptions;
}

const JSON_CONTENT_TYPE = /[/+]json\b/i;

/** Parses a successful response: JSON when the server says JSON, nothing for 204, else text. */
export async function defaultParseResponse<T>({ response, options }: APIResponseProps): Promise<T> {
  if (options.stream) return response as T;
  if (response.status === 204 || response.status === 205 || options.method === ('head' as string)) {
    return undefined as T;
  }
  const contentType = response.headers.get('content-type') ?? '';
  const text = await response.text();
  if (JSON_CONTENT_TYPE.test(contentType)) return (text === '' ? undefined : JSON.parse(text)) as T;
  return text as T;
}
