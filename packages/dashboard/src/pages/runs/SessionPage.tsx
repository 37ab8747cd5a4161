import { PageHeader } from '../../components/Layout';

export function SessionPage({ sessionId }: { sessionId: string }) {
  return <PageHeader title="Run" />;
}
