import { PageHeader } from '../../components/Layout';

export function FactoryPage({ factoryUid }: { factoryUid: string }) {
  return <PageHeader title="Factory" />;
}
