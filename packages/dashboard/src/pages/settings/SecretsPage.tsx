import { PageHeader } from '../../components/Layout';

export function SecretsPage() {
  return <PageHeader title="Secrets" />;
}
