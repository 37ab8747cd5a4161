export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

type LogFn = (message: string, ...rest: unknown[]) => void;

export interface Logger {
  error: LogFn;
  warn: LogFn;
  info: LogFn;
  debug: LogFn;
}

const levelNumbers: Record<LogLevel, number> = { off: 0, error: 200, warn: 300, info: 400, debug: 500 };

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(levelNumbers, value);
}

const noop: LogFn = () => {};

/** Wraps `logger` so that messages below `level` cost one function call and nothing else. */
export function levelLogger(logger: Logger, level: LogLevel): Logger {
  const threshold = levelNumbers[level];
  const pick = (name: Exclude<LogLevel, 'off'>): LogFn =>
    levelNumbers[name] <= threshold ? (message, ...rest) => logger[name](`[agent-runs] ${message}`, ...rest) : noop;
  return { error: pick('error'), warn: pick('warn'), info: pick('info'), debug: pick('debug') };
}
