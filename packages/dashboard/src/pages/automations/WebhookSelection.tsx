import type { Webhook } from '@agent-runs/sdk';

interface Props {
  webhooks: Webhook[];
  selected: string[];
  onChange(selected: string[]): void;
}

/**
 * The trigger's webhooks, chosen by name and stored as UIDs. A stored UID that is no longer one of the
 * factory's webhooks stays selected (the automation simply never fires for it) until removed here.
 */
export function WebhookSelection({ webhooks, selected, onChange }: Props) {
  const known = new Set(webhooks.map((w) => w.uid));
  const unknown = selected.filter((uid) => !known.has(uid));
  const toggle = (uid: string, on: boolean) => onChange(on ? [...selected, uid] : selected.filter((s) => s !== uid));

  return (
    <fieldset className="webhook-selection">
      <legend>Webhooks</legend>
      {webhooks.length === 0 && <p className="hint">This factory has no webhooks yet.</p>}
      <ul className="plain-list">
        {webhooks.map((webhook) => (
          <li key={webhook.uid}>
            <label className="inline">
              <input type="checkbox" checked={selected.includes(webhook.uid)} onChange={(e) => toggle(webhook.uid, e.target.checked)} />
              {webhook.name}
              {!webhook.enabled && <span className="badge">disabled</span>}
            </label>
          </li>
        ))}
        {unknown.map((uid) => (
          <li key={uid} className="unknown-webhook">
            <code className="break">{uid}</code> <span className="badge badge-warning">deleted or unknown webhook</span>{' '}
            <button type="button" className="copy" aria-label={`Remove webhook ${uid}`} onClick={() => toggle(uid, false)}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <p className="hint">Deliveries of the selected webhooks are evaluated against the payload filter.</p>
    </fieldset>
  );
}
