/**
 * The team's usage and monthly budget (`/usage`): tokens and cost of a month in total and per model
 * (GET /usage), the budget with what this month used of it (GET /team/budget), and for admins the form that
 * sets it (PUT /team/budget). Any role reads; a team over its budget is told why its runs do not start.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageHeader } from '../../components/Layout';
import { dollars } from '../../components/dollars';
import { Time } from '../../components/Time';
import { budgetQuery, invalidateUsage, monthUsageQuery } from '../../api/usage';
import { useSession } from '../../session';

const currentMonth = () => new Date().toISOString().slice(0, 7);

export function UsagePage() {
  const { client, isAdmin } = useSession();
  const [month, setMonth] = useState(currentMonth);
  const usage = useQuery(monthUsageQuery(client, month));
  const budget = useQuery(budgetQuery(client));

  return (
    <>
      <PageHeader title="Usage and budget" />
      <BudgetCard />
      {isAdmin && budget.data && (
        <BudgetForm key={budget.data.updated_at} tokens={budget.data.max_tokens_per_month} cost={budget.data.max_cost_usd_per_month} />
      )}

      <section aria-labelledby="usage-month-heading">
        <h2 id="usage-month-heading">Usage of a month</h2>
        <div className="form-row">
          <div>
            <label htmlFor="usage-month">Month (UTC)</label>
            <input id="usage-month" type="month" value={month} max={currentMonth()} onChange={(e) => e.target.value && setMonth(e.target.value)} />
          </div>
        </div>
        <ErrorNotice error={usage.error} title="Could not read the usage" />
        {usage.data && (
          <>
            <dl className="fields" aria-label="Totals">
              <dt>Total tokens</dt>
              <dd>{usage.data.total_tokens.toLocaleString()}</dd>
              <dt>Prompt / completion</dt>
              <dd>
                {usage.data.prompt_tokens.toLocaleString()} / {usage.data.completion_tokens.toLocaleString()}
              </dd>
              {usage.data.cost_usd !== undefined && (
                <>
                  <dt>Cost</dt>
                  <dd>{dollars(usage.data.cost_usd)}</dd>
                </>
              )}
            </dl>
            {usage.data.models.length === 0 ? (
              <p className="muted">No model call was answered in {usage.data.month}.</p>
            ) : (
              <div className="table-wrap">
                <table aria-label="Usage per model">
                  <thead>
                    <tr>
                      <th scope="col">Model</th>
                      <th scope="col">Total tokens</th>
                      <th scope="col">Prompt</th>
                      <th scope="col">Completion</th>
                      <th scope="col">Cost</th>
                    </tr>
                  </thead>
                  <tbody>
                    {usage.data.models.map((model) => (
                      <tr key={model.model_id}>
                        <td className="break">
                          <code>{model.model_id}</code>
                        </td>
                        <td>{model.total_tokens.toLocaleString()}</td>
                        <td>{model.prompt_tokens.toLocaleString()}</td>
                        <td>{model.completion_tokens.toLocaleString()}</td>
                        <td>{dollars(model.cost_usd)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </section>
    </>
  );
}

function BudgetCard() {
  const { client } = useSession();
  const budget = useQuery(budgetQuery(client));
  const data = budget.data;
  return (
    <section className="card" aria-labelledby="budget-heading">
      <h2 id="budget-heading" className="card-heading">
        Monthly budget
      </h2>
      <ErrorNotice error={budget.error} title="Could not read the budget" />
      {data && (
        <>
          {data.exceeded && (
            <div className="notice notice-error" role="status">
              The team has spent its budget for {data.month}: new runs are refused until an admin raises it or the month ends.
            </div>
          )}
          <dl className="fields">
            <dt>Tokens</dt>
            <dd>
              {data.used_tokens.toLocaleString()} used
              {data.max_tokens_per_month !== null ? <> of {data.max_tokens_per_month.toLocaleString()}</> : <span className="muted"> (no limit)</span>}
            </dd>
            <dt>Cost</dt>
            <dd>
              {dollars(data.used_cost_usd)} used
              {data.max_cost_usd_per_month !== null ? <> of {dollars(data.max_cost_usd_per_month)}</> : <span className="muted"> (no limit)</span>}
            </dd>
            <dt>Month</dt>
            <dd>{data.month}</dd>
            <dt>Set</dt>
            <dd>
              <Time value={data.updated_at} />
            </dd>
          </dl>
          {data.max_tokens_per_month !== null && (
            <meter min={0} max={data.max_tokens_per_month} value={data.used_tokens} aria-label="Tokens used of the monthly budget" />
          )}
        </>
      )}
    </section>
  );
}

/** Empty is "no limit"; the server refuses a cost limit while it prices no model, and says so. */
function BudgetForm({ tokens, cost }: { tokens: number | null; cost: number | null }) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  const [maxTokens, setMaxTokens] = useState(tokens === null ? '' : String(tokens));
  const [maxCost, setMaxCost] = useState(cost === null ? '' : String(cost));
  const save = useMutation({
    mutationFn: () =>
      client.budget.update({
        max_tokens_per_month: maxTokens.trim() === '' ? null : Number(maxTokens),
        max_cost_usd_per_month: maxCost.trim() === '' ? null : Number(maxCost),
      }),
    onSuccess: () => invalidateUsage(queryClient),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="card" onSubmit={submit} aria-label="Set the monthly budget">
      <h2 className="card-heading">Set the monthly budget</h2>
      <div className="form-row">
        <div>
          <label htmlFor="budget-tokens">Tokens per month</label>
          <input
            id="budget-tokens"
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            placeholder="no limit"
            value={maxTokens}
            onChange={(e) => setMaxTokens(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor="budget-cost">USD per month</label>
          <input
            id="budget-cost"
            type="number"
            min={0.01}
            step={0.01}
            inputMode="decimal"
            placeholder="no limit"
            value={maxCost}
            onChange={(e) => setMaxCost(e.target.value)}
          />
        </div>
      </div>
      <p className="hint">Leave a field empty for no limit. A team over a limit cannot start runs; runs in flight fail at their next model call.</p>
      <ErrorNotice error={save.error} title="Not saved" />
      {save.isSuccess && (
        <div className="notice notice-success" role="status">
          Budget saved.
        </div>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save budget'}
        </button>
      </div>
    </form>
  );
}
