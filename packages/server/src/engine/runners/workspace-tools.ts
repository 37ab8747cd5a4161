/**
 * The built-in agent's workspace tools, with Claude Code's names and argument schemas: Bash, Read, Write,
 * Edit, Glob, Grep (docs/decisions.md §Workspace tools of the built-in agent).
 *
 * Every call runs in the run's sandbox through one long-lived driver shell (workspace-shell.ts), with small
 * fixed programs (sh, cat, sed, mkdir, find, rg or grep): the server never opens a workspace file itself,
 * so a symlink in the workspace resolves inside the sandbox, where the host's files are not. An Edit is a
 * sandboxed read, the replacement computed here, and a sandboxed write.
 *
 * Recorded with Oz's action categories: Bash `command`; Read, Write, Edit `files`; Glob, Grep `search`.
 * What goes back to the model is cut to MAX_MODEL_OUTPUT_CHARS with a note saying what was left out.
 */
import path from 'node:path/posix';
import type { ChatTool, ChatToolCall } from './model-client';
import { failed, UNPARSED_ARGUMENTS, type ActionBlock, type ParsedArguments, type PreparedCall, type ToolProvider } from './model-tools';
import { globToRegExp } from './glob-pattern';
import { shellQuote, TIMED_OUT_STATUS, WorkspaceShell, WorkspaceShellError, type ShellResult, type ShellStream } from './workspace-shell';

/** Most characters of one tool result the model gets (the rest is cut with a note). */
export const MAX_MODEL_OUTPUT_CHARS = 30_000;
export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
export const MAX_BASH_TIMEOUT_MS = 600_000;
const DEFAULT_READ_LINES = 2000;
const MAX_LINE_CHARS = 2000;
/** Largest file Edit rewrites (it is read whole into the server). */
export const MAX_EDIT_BYTES = 4 * 1024 * 1024;
const MAX_LISTED_PATHS = 500;
/** Bytes of each stream a call brings back from the sandbox: more than the model gets, so cuts are honest. */
const STREAM_CAP_BYTES = 64 * 1024;
const LISTING_CAP_BYTES = 1024 * 1024;

const CATEGORY = { Bash: 'command', Read: 'files', Write: 'files', Edit: 'files', Glob: 'search', Grep: 'search' } as const;
type ToolName = keyof typeof CATEGORY;
const isToolName = (name: string): name is ToolName => Object.hasOwn(CATEGORY, name);

export interface WorkspaceToolsOptions {
  shell: WorkspaceShell;
  /** The workspace as sandboxed processes see it (relative paths resolve against it). */
  workspacePath: string;
  /** Upper bound of one call: the rest of the run's time budget. */
  toolTimeoutMs: () => number;
}

/** A tool call the model got wrong or that could not be done: its message goes back to the model. */
class ToolError extends Error {}

export class WorkspaceTools implements ToolProvider {
  readonly #options: WorkspaceToolsOptions;

  constructor(options: WorkspaceToolsOptions) {
    this.#options = options;
  }

  definitions(): ChatTool[] {
    return DEFINITIONS;
  }

  functionNameFor(action: { category: string; name: string }): string | undefined {
    return isToolName(action.name) && CATEGORY[action.name] === action.category ? action.name : undefined;
  }

  prepare(call: ChatToolCall, parsed: ParsedArguments): PreparedCall | undefined {
    const name = call.function.name;
    if (!isToolName(name)) return undefined;
    const action: ActionBlock = {
      type: 'action',
      id: call.id,
      category: CATEGORY[name],
      name,
      input: parsed.ok ? parsed.value : { [UNPARSED_ARGUMENTS]: call.function.arguments },
    };
    if (!parsed.ok) return { call, action, execute: async () => failed(action, parsed.error) };
    const args = parsed.value;
    return {
      call,
      action,
      execute: async (signal) => {
        try {
          const outcome = await this.#execute(name, args, signal);
          const text = cutForModel(outcome.text);
          return {
            result: {
              type: 'action_result',
              action_id: action.id,
              category: action.category,
              name,
              state: outcome.ok ? 'completed' : 'failed',
              output: { text, ...outcome.extra },
            },
            content: text,
          };
        } catch (err) {
          if (err instanceof ToolError || err instanceof WorkspaceShellError) return failed(action, err.message);
          throw err;
        }
      },
    };
  }

  #execute(name: ToolName, args: Record<string, unknown>, signal: AbortSignal): Promise<CallOutput> {
    const run = { Bash: this.#bash, Read: this.#read, Write: this.#write, Edit: this.#edit, Glob: this.#glob, Grep: this.#grep }[name];
    return run.call(this, args, signal);
  }

  #path(args: Record<string, unknown>, key: string, fallback?: string): string {
    const value = args[key] ?? fallback;
    if (typeof value !== 'string' || value.trim() === '') throw new ToolError(`${key} must be a non-empty path`);
    return path.resolve(this.#options.workspacePath, value);
  }

  #run(signal: AbortSignal, request: Parameters<WorkspaceShell['run']>[0]): Promise<ShellResult> {
    const timeoutMs = Math.min(request.timeoutMs ?? DEFAULT_BASH_TIMEOUT_MS, this.#options.toolTimeoutMs());
    return this.#options.shell.run({ ...request, timeoutMs }, signal);
  }

  async #bash(args: Record<string, unknown>, signal: AbortSignal): Promise<CallOutput> {
    const command = stringArg(args, 'command');
    const asked = args.timeout === undefined ? DEFAULT_BASH_TIMEOUT_MS : args.timeout;
    if (typeof asked !== 'number' || !Number.isFinite(asked) || asked <= 0) throw new ToolError('timeout must be a positive number of milliseconds');
    const timeoutMs = Math.min(asked, MAX_BASH_TIMEOUT_MS);
    const result = await this.#run(signal, { script: command, capBytes: STREAM_CAP_BYTES, timeoutMs });
    const timedOut = result.exitCode === TIMED_OUT_STATUS;
    const parts = [`exit code: ${result.exitCode}`];
    if (timedOut) parts.push(`The command was stopped after its timeout of ${Math.min(timeoutMs, this.#options.toolTimeoutMs())} ms.`);
    if (result.stdout.totalBytes > 0) parts.push(`stdout:\n${streamText(result.stdout)}`);
    if (result.stderr.totalBytes > 0) parts.push(`stderr:\n${withoutScriptPath(streamText(result.stderr))}`);
    return { ok: result.exitCode === 0, text: parts.join('\n'), extra: { exit_code: result.exitCode, ...(timedOut ? { timed_out: true } : {}) } };
  }

  async #read(args: Record<string, unknown>, signal: AbortSignal): Promise<CallOutput> {
    const file = this.#path(args, 'file_path');
    const offset = positiveInt(args, 'offset', 1);
    const limit = positiveInt(args, 'limit', DEFAULT_READ_LINES);
    const result = await this.#run(signal, {
      // One sed: the lines asked for, then the file's line count (`$=`) as the last line.
      script: `${REQUIRE_FILE}; sed -n "$2,$3p;\\$=" "$1"`,
      args: [file, String(offset), String(offset + limit - 1)],
      capBytes: MAX_EDIT_BYTES,
    });
    if (result.exitCode !== 0) throw new ToolError(errorText(result, `cannot read ${file}`));
    const text = result.stdout.bytes.toString('utf8').replace(/\n$/, '');
    const lastNewline = text.lastIndexOf('\n');
    const totalLines = Number(text.slice(lastNewline + 1)) || 0;
    // Very long lines can make sed's output longer than came back: then only the whole lines of its start count.
    const body = lastNewline < 0 ? '' : streamCut(result.stdout) ? completeLines(result.stdout).join('\n') : text.slice(0, lastNewline);
    if (body === '') return { ok: true, text: totalLines === 0 ? `${file} is empty.` : `${file} has ${totalLines} lines; none from line ${offset}.` };
    const lines = body.split('\n');
    const numbered = lines.map(
      (line, i) => `${String(offset + i).padStart(6)}\t${line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} [… line cut]` : line}`,
    );
    const last = offset + lines.length - 1;
    const more = last < totalLines ? `\n[lines ${offset}–${last} of ${totalLines}; read on with offset ${last + 1}]` : '';
    return { ok: true, text: numbered.join('\n') + more };
  }

  async #write(args: Record<string, unknown>, signal: AbortSignal): Promise<CallOutput> {
    const file = this.#path(args, 'file_path');
    const content = args.content;
    if (typeof content !== 'string') throw new ToolError('content must be a string');
    await this.#writeFile(file, content, signal);
    return { ok: true, text: `Wrote ${Buffer.byteLength(content)} bytes to ${file}.` };
  }

  async #writeFile(file: string, content: string, signal: AbortSignal): Promise<void> {
    const result = await this.#run(signal, {
      script: 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1"',
      args: [file],
      stdin: content,
      capBytes: STREAM_CAP_BYTES,
    });
    if (result.exitCode !== 0) throw new ToolError(errorText(result, `cannot write ${file}`));
  }

  async #edit(args: Record<string, unknown>, signal: AbortSignal): Promise<CallOutput> {
    const file = this.#path(args, 'file_path');
    const oldString = stringArg(args, 'old_string');
    const newString = args.new_string;
    if (typeof newString !== 'string') throw new ToolError('new_string must be a string');
    if (oldString === newString) throw new ToolError('old_string and new_string are the same: nothing to change');
    const replaceAll = args.replace_all === true;
    const read = await this.#run(signal, { script: `${REQUIRE_FILE}; cat "$1"`, args: [file], capBytes: MAX_EDIT_BYTES });
    if (read.exitCode !== 0) throw new ToolError(errorText(read, `cannot read ${file}`));
    if (read.stdout.totalBytes > MAX_EDIT_BYTES) throw new ToolError(`${file} is larger than ${MAX_EDIT_BYTES} bytes: edit it with Bash (e.g. sed) instead`);
    const before = read.stdout.bytes.toString('utf8');
    const count = occurrences(before, oldString);
    if (count === 0) throw new ToolError(`old_string was not found in ${file}: it must match the file exactly, including whitespace and indentation`);
    if (count > 1 && !replaceAll) {
      throw new ToolError(`old_string matches ${count} places in ${file}: add surrounding lines to make it unique, or set replace_all to replace every one`);
    }
    const after = before.split(oldString).join(newString);
    await this.#writeFile(file, after, signal);
    return { ok: true, text: `Edited ${file}: ${count} replacement${count === 1 ? '' : 's'}.` };
  }

  async #glob(args: Record<string, unknown>, signal: AbortSignal): Promise<CallOutput> {
    const pattern = stringArg(args, 'pattern');
    const base = this.#path(args, 'path', this.#options.workspacePath);
    const result = await this.#run(signal, {
      script: `[ -d "$1" ] || { echo "no such directory: $1" >&2; exit 2; }; find "$1" -name .git -prune -o \\( -type f -o -type l \\) -print`,
      args: [base],
      capBytes: LISTING_CAP_BYTES,
    });
    if (result.exitCode !== 0 && result.stdout.totalBytes === 0) throw new ToolError(errorText(result, `cannot list ${base}`));
    // Like ripgrep's and .gitignore's globs, a pattern without a slash matches a file name at any depth.
    const matcher = globToRegExp(pattern.includes('/') ? pattern.replace(/^\.\//, '') : `**/${pattern}`);
    const found = completeLines(result.stdout)
      .filter((p) => matcher.test(path.relative(base, p)))
      .sort();
    if (found.length === 0) return { ok: true, text: 'No files found.' };
    const listed = found.slice(0, MAX_LISTED_PATHS).join('\n');
    const more = found.length > MAX_LISTED_PATHS ? `\n[${found.length - MAX_LISTED_PATHS} more paths not shown: narrow the pattern or the path]` : '';
    return { ok: true, text: listed + more + listingCutNote(result.stdout) };
  }

  async #grep(args: Record<string, unknown>, signal: AbortSignal): Promise<CallOutput> {
    const pattern = stringArg(args, 'pattern');
    const base = this.#path(args, 'path', this.#options.workspacePath);
    const mode = args.output_mode ?? 'files_with_matches';
    if (mode !== 'content' && mode !== 'files_with_matches' && mode !== 'count')
      throw new ToolError('output_mode must be content, files_with_matches or count');
    const glob = args.glob;
    if (glob !== undefined && typeof glob !== 'string') throw new ToolError('glob must be a string');
    const ignoreCase = args['-i'] === true;
    const rg = ['rg', '--no-heading', '--color', 'never', '--no-messages', '--glob', '!.git'];
    const grep = ['grep', '-r', '-E', '-I', '--exclude-dir=.git', '-s'];
    const modeFlag = mode === 'content' ? '-n' : mode === 'count' ? '-c' : '-l';
    rg.push(modeFlag, ...(ignoreCase ? ['-i'] : []), ...(glob ? ['--glob', glob] : []));
    grep.push(modeFlag, ...(ignoreCase ? ['-i'] : []), ...(glob ? [`--include=${glob}`] : []));
    // $1 the pattern, $2 the path; ripgrep where the image has it, else grep -E.
    const script = `if command -v rg >/dev/null 2>&1; then exec ${rg.map(shellQuote).join(' ')} -e "$1" -- "$2"; else exec ${grep.map(shellQuote).join(' ')} -e "$1" -- "$2"; fi`;
    const result = await this.#run(signal, { script, args: [pattern, base], capBytes: LISTING_CAP_BYTES });
    if (result.exitCode === 1) return { ok: true, text: 'No matches.' };
    if (result.exitCode !== 0) throw new ToolError(errorText(result, 'the search failed'));
    let lines = completeLines(result.stdout);
    if (mode === 'count') lines = lines.filter((l) => !l.endsWith(':0'));
    if (mode !== 'content') lines.sort();
    return { ok: true, text: lines.join('\n') + listingCutNote(result.stdout) };
  }
}

interface CallOutput {
  /** False: the result is recorded `failed` (a command's non-zero exit), yet its text goes back as is. */
  ok: boolean;
  text: string;
  extra?: Record<string, unknown>;
}

const REQUIRE_FILE = '[ -e "$1" ] || { echo "no such file: $1" >&2; exit 2; }; [ -d "$1" ] && { echo "$1 is a directory: use Glob or Bash ls" >&2; exit 2; }';

function stringArg(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  if (typeof value !== 'string' || value === '') throw new ToolError(`${key} must be a non-empty string`);
  return value;
}

function positiveInt(args: Record<string, unknown>, key: string, fallback: number): number {
  const value = args[key] ?? fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new ToolError(`${key} must be a positive whole number`);
  return value;
}

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

/** A stream as text, saying where its middle was left out. */
function streamText(stream: ShellStream): string {
  if (!streamCut(stream)) return stream.bytes.toString('utf8');
  const half = stream.bytes.length / 2;
  const cut = stream.totalBytes - stream.bytes.length;
  return `${stream.bytes.subarray(0, half).toString('utf8')}\n[… ${cut} bytes of output cut …]\n${stream.bytes.subarray(half).toString('utf8')}`;
}

const streamCut = (stream: ShellStream): boolean => stream.bytes.length < stream.totalBytes;

/** The lines of a listing; when it was cut, only its first part (whole lines) counts. */
function completeLines(stream: ShellStream): string[] {
  const cut = streamCut(stream);
  const lines = stream.bytes
    .subarray(0, cut ? stream.bytes.length / 2 : undefined)
    .toString('utf8')
    .split('\n');
  if (cut) lines.pop();
  return lines.filter(Boolean);
}

const listingCutNote = (stream: ShellStream): string =>
  streamCut(stream) ? `\n[the listing was cut after its first ${stream.bytes.length / 2} bytes of ${stream.totalBytes}: narrow the search]` : '';

/** sh's messages name itself or the driver's script file (`sh: 1: …`, `/tmp/tmp.X/s: 3: …`): a command's line is what counts. */
const SH_PREFIX = /^(?:sh|\/tmp\/[^/\n]+\/s): (\d+: )/gm;
const withoutScriptPath = (text: string): string => text.replace(SH_PREFIX, 'line $1');

/** Why a tool's own script failed: its stderr without sh's prefixes (its line numbers mean nothing to the model). */
function errorText(result: ShellResult, fallback: string): string {
  const stderr = result.stderr.bytes.toString('utf8').trim().replace(SH_PREFIX, '');
  return stderr ? stderr.replace(/^(?:cat|sed|mkdir|find|grep|rg|wc|sh): /gm, '') : `${fallback} (exit status ${result.exitCode})`;
}

/** Cuts a result to what the model takes: its start and its end (where errors and summaries are), with a note. */
export function cutForModel(text: string, max = MAX_MODEL_OUTPUT_CHARS): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n[… ${text.length - 2 * half} characters cut: the output was longer than ${max} characters …]\n${text.slice(-half)}`;
}

/** A function definition with a closed object schema. */
function tool(name: ToolName, description: string, properties: Record<string, unknown>, required: string[]): ChatTool {
  return { type: 'function', function: { name, description, parameters: { type: 'object', properties, required, additionalProperties: false } } };
}

const FILE_PATH = { type: 'string', description: 'The file: absolute, or relative to the workspace.' };

const DEFINITIONS: ChatTool[] = [
  tool(
    'Bash',
    'Run a shell command (sh -c) in the workspace, /workspace in a sandbox: each call starts there, in a fresh shell. ' +
      `Returns the exit code, stdout and stderr (the middle of long output is cut). Default timeout ${DEFAULT_BASH_TIMEOUT_MS} ms, at most ${MAX_BASH_TIMEOUT_MS} ms.`,
    {
      command: { type: 'string', description: 'The command to run.' },
      timeout: { type: 'number', description: `Milliseconds before the command is stopped (at most ${MAX_BASH_TIMEOUT_MS}).` },
      description: { type: 'string', description: 'What the command does, in a few words.' },
    },
    ['command'],
  ),
  tool(
    'Read',
    `Read a text file, with line numbers. Reads ${DEFAULT_READ_LINES} lines from the start unless offset/limit say otherwise; longer lines are cut.`,
    {
      file_path: FILE_PATH,
      offset: { type: 'integer', minimum: 1, description: 'First line to read (1-based).' },
      limit: { type: 'integer', minimum: 1, description: 'How many lines to read.' },
    },
    ['file_path'],
  ),
  tool(
    'Write',
    'Write a file (created with its directories, or replaced whole).',
    { file_path: FILE_PATH, content: { type: 'string', description: 'The whole content.' } },
    ['file_path', 'content'],
  ),
  tool(
    'Edit',
    'Replace exact text in a file. old_string must match exactly once (whitespace included) unless replace_all is true; read the file first.',
    {
      file_path: FILE_PATH,
      old_string: { type: 'string', description: 'The text to replace.' },
      new_string: { type: 'string', description: 'The text to put in its place.' },
      replace_all: { type: 'boolean', description: 'Replace every occurrence (default false).' },
    },
    ['file_path', 'old_string', 'new_string'],
  ),
  tool(
    'Glob',
    `List files whose path matches a glob (**/*.ts, src/**/*.{js,jsx}); a pattern without / matches file names at any depth. At most ${MAX_LISTED_PATHS} paths, sorted.`,
    {
      pattern: { type: 'string', description: 'The glob, relative to path.' },
      path: { type: 'string', description: 'Directory to search (default: the workspace).' },
    },
    ['pattern'],
  ),
  tool(
    'Grep',
    'Search file contents with a regular expression (ripgrep where available, else grep -E).',
    {
      pattern: { type: 'string', description: 'The regular expression.' },
      path: { type: 'string', description: 'File or directory to search (default: the workspace).' },
      glob: { type: 'string', description: 'Only files whose name matches this glob, e.g. *.ts.' },
      output_mode: {
        type: 'string',
        enum: ['content', 'files_with_matches', 'count'],
        description: 'content: matching lines with numbers; files_with_matches (default): file paths; count: matches per file.',
      },
      '-i': { type: 'boolean', description: 'Ignore case.' },
    },
    ['pattern'],
  ),
];
