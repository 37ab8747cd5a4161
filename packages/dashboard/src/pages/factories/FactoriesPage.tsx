import { PageHeader } from '../../components/Layout';

export function FactoriesPage() {
  return <PageHeader title="Factories" />;
}
