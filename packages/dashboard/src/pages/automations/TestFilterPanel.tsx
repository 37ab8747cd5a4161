import type { TestFilterResult, Webhook, WebhookDelivery } from '@agent-runs/sdk';
import { useMutation, useQueries } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { deliveriesQuery } from '../../api/factories';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useClient } from '../../session';
import { triggerFromForm, type AutomationForm } from './automation-form';

/** Recent deliveries listed per selected webhook (the delivery log keeps at least 50; docs/service-spec.md). */
const DELIVERIES_PER_WEBHOOK = 25;

interface Props {
  factoryUid: string;
  /** Set when the automation is saved and the form holds no unsaved change: its stored triggers are tested. */
  savedAutomationUid: string | undefined;
  form: AutomationForm;
  webhooks: Webhook[];
}

interface Outcome {
  tested: 'saved' | 'draft';
  result: TestFilterResult;
}

const formatTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });

/**
 * Test filter (docs/service-spec.md, Dashboard behaviors 5): evaluates the trigger against a stored
 * delivery and shows the API's answer as it is — the saved automation through testAutomationFilter, an
 * unsaved draft (or unsaved edits) through testDraftFilter.
 */
export function TestFilterPanel({ factoryUid, savedAutomationUid, form, webhooks }: Props) {
  const client = useClient();
  const [deliveryId, setDeliveryId] = useState('');
  const names = new Map(webhooks.map((w) => [w.uid, w.name]));
  const selectedKnown = form.webhookIds.filter((uid) => names.has(uid));

  const deliveryLists = useQueries({
    queries: selectedKnown.map((webhookUid) => deliveriesQuery(client, factoryUid, webhookUid, undefined, DELIVERIES_PER_WEBHOOK)),
  });
  // Only Accepted deliveries keep their payload: any other answers 409, so none is offered.
  const deliveries: WebhookDelivery[] = deliveryLists
    .flatMap((q) => q.data?.data ?? [])
    .filter((d) => d.label === 'Accepted')
    .sort((a, b) => b.received_at.localeCompare(a.received_at));
  const listError = deliveryLists.find((q) => q.error)?.error;
  const refetchDeliveries = () => deliveryLists.forEach((q) => void q.refetch());

  const test = useMutation({
    mutationFn: async (): Promise<Outcome> => {
      if (savedAutomationUid) {
        return { tested: 'saved', result: await client.factories.automations.testFilter(factoryUid, savedAutomationUid, { delivery_id: deliveryId }) };
      }
      const trigger = triggerFromForm(form);
      if (!trigger) throw new Error('Select a webhook (or write a payload filter) to test a draft.');
      return { tested: 'draft', result: await client.factories.testFilter(factoryUid, { delivery_id: deliveryId, trigger }) };
    },
  });

  // A result belongs to the delivery and the trigger it was run with: any change makes it stale.
  const { reset } = test;
  useEffect(() => reset(), [reset, form, deliveryId]);

  return (
    <section className="card" aria-labelledby="test-filter-heading">
      <h2 id="test-filter-heading" className="card-heading">
        Test filter
      </h2>
      <p className="hint">
        {savedAutomationUid
          ? 'Tests the saved automation against a stored delivery. Nothing is started.'
          : 'Tests the unsaved trigger in the form against a stored delivery. Nothing is started.'}
      </p>
      <ErrorNotice error={listError} title="Could not list deliveries" />
      <div className="test-filter-controls">
        <div className="grow">
          <label htmlFor="test-delivery">Delivery</label>
          <select id="test-delivery" value={deliveryId} onChange={(e) => setDeliveryId(e.target.value)}>
            <option value="">
              {selectedKnown.length === 0 ? 'Select a webhook above first' : deliveries.length === 0 ? 'No accepted deliveries yet' : 'Choose a delivery…'}
            </option>
            {deliveries.map((d) => (
              <option key={d.delivery_id} value={d.delivery_id}>
                {formatTime.format(new Date(d.received_at))} · {names.get(d.webhook_uid)} · {d.label} · {d.delivery_id}
              </option>
            ))}
          </select>
        </div>
        <div className="actions">
          <button type="button" onClick={refetchDeliveries} disabled={selectedKnown.length === 0}>
            Refresh deliveries
          </button>
          <button type="button" className="primary" onClick={() => test.mutate()} disabled={deliveryId === '' || test.isPending}>
            {test.isPending ? 'Testing…' : 'Run test'}
          </button>
        </div>
      </div>
      <ErrorNotice error={test.error} title="Test failed" />
      {test.data && !test.isPending && <TestResult outcome={test.data} />}
    </section>
  );
}

function Check({ label, passed, reason }: { label: string; passed: boolean; reason: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>
        <span className={`badge ${passed ? 'check-passed' : 'check-failed'}`}>{passed ? 'passed' : 'failed'}</span> {reason}
      </dd>
    </>
  );
}

function TestResult({ outcome: { tested, result } }: { outcome: Outcome }) {
  const triggers = result.result === 'Would trigger';
  return (
    <div className={`notice ${triggers ? 'notice-success' : 'notice-warning'} test-result`} role="status" aria-label="Test result">
      <p className="test-verdict">
        <strong>{result.result}</strong> <span className="hint">({tested === 'saved' ? 'saved automation' : 'unsaved draft'})</span>
      </p>
      <dl className="fields">
        <Check label="Webhook check" passed={result.webhook_check.passed} reason={result.webhook_check.reason} />
        <Check label="Payload check" passed={result.payload_check.passed} reason={result.payload_check.reason} />
        {result.payload_check.path !== null && (
          <>
            <dt>Failed at</dt>
            <dd>
              <code className="break">{result.payload_check.path}</code>
            </dd>
          </>
        )}
      </dl>
    </div>
  );
}
