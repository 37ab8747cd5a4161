/** Pretty, collapsible JSON: objects and arrays are <details> (open to `openDepth`), scalars are coloured. */
export function JsonView({ value, openDepth = 2 }: { value: unknown; openDepth?: number }) {
  return (
    <div className="json">
      <JsonNode value={value} depth={0} openDepth={openDepth} />
    </div>
  );
}

function JsonNode({ name, value, depth, openDepth }: { name?: string; value: unknown; depth: number; openDepth: number }) {
  const label = name !== undefined ? <span className="json-key">{JSON.stringify(name)}: </span> : null;
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
    if (entries.length === 0) {
      return (
        <div>
          {label}
          {open}
          {close}
        </div>
      );
    }
    return (
      <details open={depth < openDepth}>
        <summary>
          {label}
          {open}
          <span className="json-count">
            {' '}
            {entries.length} {Array.isArray(value) ? 'items' : 'keys'}{' '}
          </span>
          {close}
        </summary>
        <div className="json-children">
          {entries.map(([key, child]) => (
            <JsonNode key={key} name={Array.isArray(value) ? undefined : key} value={child} depth={depth + 1} openDepth={openDepth} />
          ))}
        </div>
      </details>
    );
  }
  return (
    <div>
      {label}
      <span className={`json-${value === null ? 'null' : typeof value}`}>{JSON.stringify(value)}</span>
    </div>
  );
}
