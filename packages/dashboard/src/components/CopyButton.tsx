import { useState } from 'react';

/** Copies `value` to the clipboard; `label` names what is copied (the accessible name says so). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState<'idle' | 'done' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('done');
    } catch {
      setCopied('failed');
    }
    setTimeout(() => setCopied('idle'), 2000);
  };
  return (
    <button type="button" className="copy" onClick={copy} aria-label={`Copy ${label}`}>
      {copied === 'done' ? 'Copied' : copied === 'failed' ? 'Copy failed: select and copy' : 'Copy'}
    </button>
  );
}
