import { APIUserAbortError } from '../core/error';

/**
 * One signal that aborts when any of `signals` does. Uses `AbortSignal.any` where the runtime has it
 * (it holds its sources weakly, so a long-lived caller signal does not collect listeners); otherwise a
 * small combinator whose listeners `dispose()` removes.
 */
export function anySignal(signals: ReadonlyArray<AbortSignal | null | undefined>): {
  signal: AbortSignal;
  dispose: () => void;
} {
  const sources = signals.filter((s): s is AbortSignal => s != null);
  const native = (AbortSignal as { any?: (signals: AbortSignal[]) => AbortSignal }).any;
  if (typeof native === 'function') return { signal: native.call(AbortSignal, sources), dispose: noop };
  return linkSignals(sources);
}

/** The combinator for runtimes without `AbortSignal.any` (Node < 20.3, older browsers). */
export function linkSignals(sources: ReadonlyArray<AbortSignal>): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const aborted = sources.find((s) => s.aborted);
  if (aborted) {
    controller.abort(aborted.reason);
    return { signal: controller.signal, dispose: noop };
  }
  const listeners = sources.map((source) => {
    const onAbort = () => {
      dispose();
      controller.abort(source.reason);
    };
    source.addEventListener('abort', onAbort, { once: true });
    return () => source.removeEventListener('abort', onAbort);
  });
  const dispose = () => listeners.forEach((remove) => remove());
  return { signal: controller.signal, dispose };
}

function noop() {}

/** Waits `ms`; rejects with APIUserAbortError as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  if (signal?.aborted) return Promise.reject(new APIUserAbortError());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function isAbortError(err: unknown): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    (('name' in err && (err as { name: unknown }).name === 'AbortError') ||
      ('message' in err && String((err as { message: unknown }).message).includes('FetchRequestCanceledException')))
  );
}
