import { PageHeader } from '../../components/Layout';

export function AutomationEditorPage({ factoryUid, automationUid }: { factoryUid: string; automationUid?: string | undefined }) {
  return <PageHeader title="Automation" />;
}
