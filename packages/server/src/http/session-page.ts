/**
 * `GET /sessions/{sessionId}`: where a run's `session_link` leads (runs/service.ts builds it from
 * PUBLIC_BASE_URL). A browser cannot present an API key, so the page holds nothing a key protects — only
 * the run id and the API URLs to read the run with a key — and says the dashboard will render the run here.
 * Server-rendered HTML: no script, no external asset, a Content-Security-Policy that allows neither.
 */
import type { RequestHandler, Response } from 'express';
import type { ServerContext } from '../context';
import { REST_BASE_PATH } from './validator';

export const SESSION_PAGE_PATH = '/sessions/:sessionId';

// Session ids are UUIDv4 (crypto/ids.ts): anything else is answered without a database read.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  // The URL carries the session id: it must not travel on in a Referer.
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function sessionPage(ctx: Pick<ServerContext, 'db' | 'settings'>): RequestHandler<{ sessionId: string }> {
  return async (req, res, next) => {
    try {
      const apiRoot = `${ctx.settings.publicBaseUrl}${REST_BASE_PATH}`;
      const { sessionId } = req.params;
      // Service-wide on purpose (no team: no key): the unguessable session id is the only thing that finds the run.
      const run = UUID.test(sessionId)
        ? await ctx.db.selectFrom('runs').select('id').where('session_id', '=', sessionId.toLowerCase()).executeTakeFirst()
        : undefined;
      if (!run) return sendPage(res, 404, 'No such run', notFoundBody(apiRoot));
      sendPage(res, 200, `Run ${run.id}`, runBody(run.id, apiRoot));
    } catch (err) {
      next(err);
    }
  };
}

function runBody(runId: string, apiRoot: string): string {
  const runUrl = `${apiRoot}/agent/runs/${encodeURIComponent(runId)}`;
  const auth = '-H "Authorization: Bearer $AGENT_RUNS_API_KEY"';
  return `<h1>Agent run</h1>
<p>Run ID: <code>${escapeHtml(runId)}</code></p>
<p>The dashboard will show the run on this page. Until then, read it through the REST API with an API key of the run's team: a browser cannot send one, so this page shows nothing but the run's ID and its API URLs.</p>
<h2>The run: state, prompt, result</h2>
<pre>curl ${auth} ${escapeHtml(runUrl)}</pre>
<h2>Its events as they happen (Server-Sent Events)</h2>
<pre>curl -N ${auth} ${escapeHtml(runUrl)}/events</pre>
<h2>Its conversation</h2>
<pre>curl ${auth} ${escapeHtml(runUrl)}/conversation</pre>
<p>With the CLI: <code>agent-runs runs get ${escapeHtml(runId)}</code> and <code>agent-runs runs watch ${escapeHtml(runId)}</code>.</p>`;
}

function notFoundBody(apiRoot: string): string {
  return `<h1>No such run</h1>
<p>No run has this link. Runs are listed by the REST API at <code>${escapeHtml(apiRoot)}/agent/runs</code> (with an API key).</p>`;
}

function sendPage(res: Response, status: number, title: string, body: string): void {
  res
    .status(status)
    .set(HEADERS)
    .type('html')
    .send(
      `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · agent-runs</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem}pre{background:#f4f4f4;padding:.75rem;overflow-x:auto}</style>
</head>
<body>
${body}
</body>
</html>
`,
    );
}
