/**
 * Reads an environment variable where the runtime has one: Node and Bun (`process.env`) and Deno
 * (`Deno.env`, which throws without `--allow-env`). Browsers and edge runtimes answer `undefined`.
 * An empty or blank value counts as unset.
 */
export function readEnv(name: string): string | undefined {
  const g = globalThis as {
    process?: { env?: Record<string, string | undefined> };
    Deno?: { env?: { get?: (name: string) => string | undefined } };
  };
  let value: string | undefined;
  try {
    value = g.process?.env?.[name] ?? g.Deno?.env?.get?.(name);
  } catch {
    return undefined;
  }
  const trimmed = typeof value === 'string' ? value.trim() : '';
  return trimmed === '' ? undefined : trimmed;
}
