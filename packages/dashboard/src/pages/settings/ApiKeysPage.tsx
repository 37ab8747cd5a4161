import { PageHeader } from '../../components/Layout';

export function ApiKeysPage() {
  return <PageHeader title="API keys" />;
}
