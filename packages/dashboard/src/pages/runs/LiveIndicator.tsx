import { problemText } from '../../api/client';
import type { LiveStatus } from './live';

const LABELS: Record<LiveStatus, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  ended: 'Finished',
  failed: 'Not live',
};

/** Whether a page's event stream is live; while reconnecting, why it dropped (in the tooltip). */
export function LiveIndicator({ status, failure }: { status: LiveStatus; failure: unknown }) {
  return (
    <span className={`live live-${status}`} role="status" title={failure ? problemText(failure) : undefined}>
      <span className="live-dot" aria-hidden="true" />
      {LABELS[status]}
    </span>
  );
}
