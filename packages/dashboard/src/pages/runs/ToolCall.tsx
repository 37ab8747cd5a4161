/**
 * One tool call with its result, drawn by its Oz action category: a shell command with its exit code and
 * collapsible output, a file edit as a diff, a file read as its path and line range, a search as its pattern,
 * an MCP call as its tool and arguments. Input field names follow the harnesses' own (Claude Code's
 * `file_path`, Codex's `cmd`, …), read defensively: an agent's input is whatever its model sent.
 */
import { memo } from 'react';
import { JsonView } from '../../components/JsonView';
import type { ActionBlock, ActionResultBlock } from './console-items';

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** The command line of a shell call: a string, or an argv array (Codex). */
function commandLine(input: Record<string, unknown>): string | undefined {
  const command = input.command ?? input.cmd;
  if (Array.isArray(command)) return command.map(String).join(' ');
  return str(command);
}

const filePath = (input: Record<string, unknown>): string | undefined => str(input.file_path) ?? str(input.path) ?? str(input.filePath);

function lineRange(input: Record<string, unknown>): string | undefined {
  const offset = num(input.offset);
  const limit = num(input.limit);
  if (offset === undefined && limit === undefined) return undefined;
  const first = offset ?? 1;
  return limit === undefined ? `from line ${first}` : `lines ${first}–${first + limit - 1}`;
}

function resultText(result: ActionResultBlock | undefined): string | undefined {
  if (!result) return undefined;
  return str(result.output.text) ?? str(result.output.error) ?? (Object.keys(result.output).length > 0 ? JSON.stringify(result.output, null, 2) : undefined);
}

/** Lines of a unified-looking diff from an exact replacement. */
export function replacementDiff(oldText: string, newText: string): Array<{ sign: '-' | '+'; line: string }> {
  return [...oldText.split('\n').map((line) => ({ sign: '-' as const, line })), ...newText.split('\n').map((line) => ({ sign: '+' as const, line }))];
}

function Output({ result, open }: { result: ActionResultBlock | undefined; open?: boolean }) {
  const text = resultText(result);
  if (text === undefined) return null;
  const lines = text.split('\n').length;
  return (
    <details className="tool-output" open={open}>
      <summary>
        Output{' '}
        <span className="muted">
          ({lines.toLocaleString()} {lines === 1 ? 'line' : 'lines'})
        </span>
      </summary>
      <pre>{text}</pre>
    </details>
  );
}

function ToolState({ result }: { result: ActionResultBlock | undefined }) {
  if (!result) return <span className="badge tool-running">running</span>;
  const exitCode = num(result.output.exit_code);
  const label = exitCode !== undefined ? `exit ${exitCode}` : result.state;
  return <span className={`badge ${result.state === 'failed' ? 'tool-failed' : 'tool-ok'}`}>{label}</span>;
}

/**
 * Memoised: a transcript re-renders on every streamed block, and a call's blocks are the same objects
 * until its result arrives, so only the calls that changed are drawn again.
 */
export const ToolCall = memo(function ToolCall({ id, action, result }: { id?: string; action: ActionBlock; result?: ActionResultBlock | undefined }) {
  const input = action.input;
  const failed = result?.state === 'failed';
  const path = filePath(input);
  switch (action.category) {
    case 'command': {
      const command = commandLine(input);
      return (
        <div className="tool tool-command" id={id} aria-label={`Command ${command ?? action.name}`}>
          <div className="tool-head">
            <code className="tool-command-line">$ {command ?? action.name}</code> <ToolState result={result} />
          </div>
          {str(input.description) && <div className="muted">{str(input.description)}</div>}
          <Output result={result} open={failed} />
        </div>
      );
    }
    case 'files': {
      const oldText = str(input.old_string);
      const newText = str(input.new_string);
      const written = str(input.content);
      const verb = oldText !== undefined ? 'Edited' : written !== undefined ? 'Wrote' : action.name === 'Read' ? 'Read' : action.name;
      return (
        <div className="tool tool-files" id={id} aria-label={`${verb} ${path ?? ''}`.trim()}>
          <div className="tool-head">
            {verb} <code className="break">{path ?? '(no path)'}</code> {lineRange(input) && <span className="muted">{lineRange(input)}</span>}{' '}
            <ToolState result={result} />
          </div>
          {oldText !== undefined && newText !== undefined && (
            <pre className="diff" aria-label={`Edit of ${path ?? 'a file'}`}>
              {replacementDiff(oldText, newText).map(({ sign, line }, i) => (
                <span key={i} className={sign === '+' ? 'diff-add' : 'diff-del'}>
                  {sign} {line}
                  {'\n'}
                </span>
              ))}
            </pre>
          )}
          {written !== undefined && (
            <details>
              <summary>Content</summary>
              <pre>{written}</pre>
            </details>
          )}
          {/* A read's or a write's answer is the file (or its confirmation): shown on demand; an error at once. */}
          <Output result={result} open={failed} />
        </div>
      );
    }
    case 'search':
      return (
        <div className="tool tool-search" id={id} aria-label={`${action.name} ${str(input.pattern) ?? ''}`.trim()}>
          <div className="tool-head">
            {action.name} <code className="break">{str(input.pattern) ?? str(input.query) ?? JSON.stringify(input)}</code>
            {path && (
              <>
                {' '}
                in <code className="break">{path}</code>
              </>
            )}{' '}
            <ToolState result={result} />
          </div>
          <Output result={result} open={failed} />
        </div>
      );
    case 'skill':
      return (
        <div className="tool tool-skill" id={id}>
          Loaded skill <strong>{str(input.name) ?? '(unnamed)'}</strong> <ToolState result={result} />
          <Output result={result} />
        </div>
      );
    case 'documents': {
      const kind = str(input.artifact_type);
      const name = str(input.title) ?? str(input.filename) ?? str(input.url);
      return (
        <div className="tool tool-documents" id={id} aria-label={`Published ${kind ?? action.name}`}>
          <div className="tool-head">
            Published {kind ? <span className="badge">{kind.toLowerCase().replace('_', ' ')}</span> : <code>{action.name}</code>}{' '}
            {name && <span className="break">{name}</span>} <ToolState result={result} />
          </div>
          <Output result={result} open={failed} />
        </div>
      );
    }
    case 'integration':
      return (
        <div className="tool tool-integration" id={id} aria-label={`Tool ${action.name}`}>
          <div className="tool-head">
            MCP tool <code>{action.name}</code> <ToolState result={result} />
          </div>
          <JsonView value={input} openDepth={1} />
          <Output result={result} open={failed} />
        </div>
      );
    default:
      return (
        <div className="tool" id={id} aria-label={`Tool ${action.name}`}>
          <div className="tool-head">
            <code>{action.name}</code> <span className="muted">({action.category})</span> <ToolState result={result} />
          </div>
          <JsonView value={input} openDepth={1} />
          <Output result={result} open={failed} />
        </div>
      );
  }
});
