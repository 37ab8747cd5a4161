import { PageHeader } from '../../components/Layout';

export function EnvironmentsPage() {
  return <PageHeader title="Environments" />;
}
