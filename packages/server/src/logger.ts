/**
 * JSON logs (pino). Credentials never reach a log line: authorization/cookie headers and any field named
 * like a secret are redacted wherever they appear (up to a few levels deep).
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Settings } from './settings';

const SECRET_FIELDS = ['secret', 'api_key', 'apiKey', 'value', 'provider_secret', 'token', 'password', 'data'];
const HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-api-key'];

function redactPaths(): string[] {
  const paths: string[] = [];
  for (const h of HEADERS) {
    paths.push(`req.headers.${h}`, `res.headers.${h}`, `headers.${h}`, `headers["${h}"]`);
  }
  for (const f of SECRET_FIELDS.filter((name) => name !== 'data')) {
    paths.push(f, `*.${f}`, `*.*.${f}`, `*.*.*.${f}`);
  }
  return paths;
}

export function createLogger(settings: Pick<Settings, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: settings.logLevel,
      base: { service: 'agent-runs' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: redactPaths(), censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}
