// A run's artifacts on its page: links (pull requests, references) open on the forge, files download, and a
// diff (the FILE `repositories/<path>.diff` a run with repositories publishes) shows inline, so a reviewer
// reads what the run changed without cloning.
import type { ArtifactItem, RunItem } from '@agent-runs/sdk';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { artifactQuery } from '../../api/runs';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Markdown } from '../../components/Markdown';
import { useClient } from '../../session';
import { saveFile } from './save-file';

export function Artifacts({ run }: { run: RunItem }) {
  const artifacts = run.artifacts ?? [];
  if (artifacts.length === 0) return null;
  return (
    <section aria-labelledby="artifacts-heading">
      <h2 id="artifacts-heading">Artifacts</h2>
      <ul className="attachments">
        {artifacts.map((artifact, index) => (
          <li key={index}>
            <ArtifactEntry artifact={artifact} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One artifact as what it is: a link, a download, a diff or a plan (also inline in the transcript). */
export function ArtifactEntry({ artifact }: { artifact: ArtifactItem }) {
  switch (artifact.artifact_type) {
    case 'PULL_REQUEST':
      return (
        <>
          <span className="badge">pull request</span>
          <a href={artifact.data.url} rel="noreferrer noopener" target="_blank" className="break">
            {pullRequestTitle(artifact.data.url)}
          </a>
          <span className="muted">
            branch <code>{artifact.data.branch}</code>
          </span>
        </>
      );
    case 'EXTERNAL_REFERENCE':
      return (
        <>
          <span className="badge">{artifact.data.reference_type}</span>
          <a href={artifact.data.url} rel="noreferrer noopener" target="_blank" className="break">
            {artifact.data.title ?? artifact.data.url}
          </a>
        </>
      );
    case 'FILE':
      return <FileEntry uid={artifact.data.artifact_uid} filepath={artifact.data.filepath} />;
    case 'PLAN':
      return <PlanEntry uid={artifact.data.artifact_uid ?? artifact.data.document_uid} title={artifact.data.title ?? 'Plan'} />;
    case 'SCREENSHOT':
      return <FileEntry uid={artifact.data.artifact_uid} filepath={artifact.data.description ?? 'screenshot'} />;
  }
}

/** `owner/repo #7` for a forge's pull request URL; the URL itself otherwise (e.g. a compare link). */
function pullRequestTitle(url: string): string {
  const match = /^https?:\/\/[^/]+\/(.+?)\/pull\/(\d+)\/?$/.exec(url);
  return match ? `${match[1]} #${match[2]}` : url;
}

/** A plan is read where it is: its Markdown rendered (GET /agent/artifacts/{uid} carries it inline). */
function PlanEntry({ uid, title }: { uid: string; title: string }) {
  const client = useClient();
  const plan = useQuery(artifactQuery(client, uid));
  const content = plan.data?.artifact_type === 'PLAN' ? plan.data.data.content : undefined;
  return (
    <details className="plan" open>
      <summary>
        <span className="badge">plan</span> {title}
      </summary>
      <ErrorNotice error={plan.error} title="Could not read the plan" />
      {content !== undefined && <Markdown text={content} label={`Plan ${title}`} />}
    </details>
  );
}

function FileEntry({ uid, filepath }: { uid: string; filepath: string }) {
  const client = useClient();
  const [diff, setDiff] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const bytes = async () => (await client.agent.downloadArtifact(uid)).blob();
  const download = async () => {
    setError(null);
    try {
      saveFile(await bytes(), filepath.split('/').pop() ?? 'artifact');
    } catch (err) {
      setError(err);
    }
  };
  const showDiff = async () => {
    setError(null);
    try {
      setDiff(diff === null ? await (await bytes()).text() : null);
    } catch (err) {
      setError(err);
    }
  };
  return (
    <>
      <button type="button" onClick={download} aria-label={`Download ${filepath}`}>
        Download
      </button>
      {filepath.endsWith('.diff') && (
        <button type="button" onClick={showDiff} aria-expanded={diff !== null} aria-label={`Show the diff ${filepath}`}>
          {diff === null ? 'Show diff' : 'Hide diff'}
        </button>
      )}
      <code className="break">{filepath}</code>
      <ErrorNotice error={error} title="Could not read the artifact" />
      {diff !== null && (
        <pre className="diff" aria-label={`Diff ${filepath}`}>
          {diff.split('\n').map((line, i) => (
            <span
              key={i}
              className={
                line.startsWith('+') && !line.startsWith('+++') ? 'diff-add' : line.startsWith('-') && !line.startsWith('---') ? 'diff-del' : undefined
              }
            >
              {line}
              {'\n'}
            </span>
          ))}
        </pre>
      )}
    </>
  );
}
