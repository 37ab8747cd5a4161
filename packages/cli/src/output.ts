/**
 * What commands print: aligned tables and `label: value` blocks for people, or with `--json` the API's
 * JSON as received, for scripts. Results go to stdout; warnings and notes go to stderr so that stdout
 * stays parseable.
 */
import type { CliIo } from './io';

export type Cell = string | number | boolean | null | undefined;

export interface Column<T> {
  header: string;
  value: (row: T) => Cell;
  /** Longer cells are cut with `…` (titles and prompts). */
  maxWidth?: number;
}

export class Output {
  constructor(
    readonly json: boolean,
    private readonly io: Pick<CliIo, 'stdout' | 'stderr'>,
  ) {}

  /** Prints `data` as JSON with `--json`, else what `human()` renders. */
  result(data: unknown, human: () => string): void {
    this.line(this.json ? JSON.stringify(data, null, 2) : human());
  }

  /** One line on stdout. */
  line(text: string): void {
    this.io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** One compact JSON line on stdout (event streams print one per event). */
  jsonLine(data: unknown): void {
    this.io.stdout.write(`${JSON.stringify(data)}\n`);
  }

  /** A note for people on stderr (never mixed into the JSON on stdout). */
  note(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }

  warn(text: string): void {
    this.io.stderr.write(`warning: ${text}\n`);
  }
}

/** Columns separated by two spaces, each as wide as its widest cell; no trailing blanks. */
export function formatTable<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((row) => columns.map((column) => cellText(column.value(row), column.maxWidth)));
  const headers = columns.map((column) => column.header);
  const widths = headers.map((header, i) => Math.max(header.length, ...cells.map((line) => line[i]!.length)));
  const render = (line: string[]) =>
    line
      .map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [render(headers), ...cells.map(render)].join('\n');
}

/** `label: value` lines with the values aligned; empty values are left out. */
export function formatFields(fields: ReadonlyArray<readonly [label: string, value: Cell]>): string {
  const shown = fields.filter(([, value]) => value !== undefined && value !== null && value !== '');
  const width = Math.max(0, ...shown.map(([label]) => label.length + 1));
  return shown
    .map(([label, value]) => {
      const text = String(value).replace(/\n/g, `\n${' '.repeat(width + 2)}`);
      return `${`${label}:`.padEnd(width)}  ${text}`;
    })
    .join('\n');
}

/** A single-line cell: whitespace runs (newlines too) become one space, cut to `maxWidth`. */
export function cellText(value: Cell, maxWidth?: number): string {
  if (value === undefined || value === null) return '';
  const text = String(value).replace(/\s+/g, ' ').trim();
  if (maxWidth !== undefined && text.length > maxWidth) return `${text.slice(0, maxWidth - 1)}…`;
  return text;
}

/** `2026-05-01T12:00:00.123Z` → `2026-05-01 12:00:00Z`: the same instant, easier to scan. */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '';
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/.exec(value);
  return match ? `${match[1]} ${match[2]}${match[3]}` : value;
}

/** A list page for people: its table and, when more follows, the cursor hint; `empty` when it has no rows. */
export function formatPage<T>(
  rows: readonly T[],
  pageInfo: { has_next_page: boolean; next_cursor?: string | null },
  columns: readonly Column<T>[],
  empty: string,
): string {
  if (rows.length === 0) return empty;
  const hint = nextPageHint(pageInfo);
  return formatTable(rows, columns) + (hint ? `\n${hint}` : '');
}

/** The hint printed under a page that has more after it. */
export function nextPageHint(pageInfo: { has_next_page: boolean; next_cursor?: string | null }): string | undefined {
  return pageInfo.has_next_page && pageInfo.next_cursor ? `more: pass --cursor ${pageInfo.next_cursor}` : undefined;
}

/** Where a progress line goes: stderr, or a stand-in in tests. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

/**
 * The live line of `run --wait`, `state: <STATE>  <n>s` (seconds since the command started the run): on a
 * terminal redrawn in place every second; elsewhere (a pipe, a CI log) one plain line per state change,
 * since carriage returns would pile up there.
 */
export class RunProgress {
  private state = '';
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly stream: ProgressStream,
    private readonly startedAt: number,
    private readonly now: () => number = Date.now,
  ) {}

  start(runId: string, state: string): void {
    this.stream.write(`run_id: ${runId}\n`);
    this.update(state);
    if (this.stream.isTTY) this.timer = setInterval(() => this.draw(), 1000).unref();
  }

  update(state: string): void {
    if (state === this.state) return;
    this.state = state;
    if (this.stream.isTTY) this.draw();
    else this.stream.write(`${this.text()}\n`);
  }

  /** Leaves the last line (with its final elapsed time) in place; `note` follows on a line of its own. */
  stop(note?: string): void {
    clearInterval(this.timer);
    if (this.stream.isTTY) this.stream.write(`\r\x1b[2K${this.text()}\n`);
    if (note) this.stream.write(`${note}\n`);
  }

  private draw(): void {
    this.stream.write(`\r\x1b[2K${this.text()}`);
  }

  private text(): string {
    return `state: ${this.state}  ${Math.floor((this.now() - this.startedAt) / 1000)}s`;
  }
}
