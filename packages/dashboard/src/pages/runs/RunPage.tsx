import { PageHeader } from '../../components/Layout';

export function RunPage({ runId }: { runId: string }) {
  return <PageHeader title="Run" />;
}
