import { PageHeader } from '../../components/Layout';

export function RunsListPage() {
  return <PageHeader title="Runs" />;
}
