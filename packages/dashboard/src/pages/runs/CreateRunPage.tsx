import { PageHeader } from '../../components/Layout';

export function CreateRunPage() {
  return <PageHeader title="New run" />;
}
