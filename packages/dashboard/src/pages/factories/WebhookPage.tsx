import { PageHeader } from '../../components/Layout';

export function WebhookPage({ factoryUid, webhookUid }: { factoryUid: string; webhookUid: string }) {
  return <PageHeader title="Webhook" />;
}
