import type { WebhookDelivery } from '@agent-runs/sdk';
import type { Command } from 'commander';
import { addPageOptions, contextOf, factoryOption, type PageOptions, pageQuery } from '../context';
import { type Column, formatFields, formatPage, formatTable, formatTime } from '../output';

/** `deliveries list|get|replay`: a webhook's delivery log. */
export function registerDeliveriesCommands(program: Command): void {
  const deliveries = program.command('deliveries').description("read a webhook's delivery log and replay deliveries");

  addPageOptions(
    deliveries
      .command('list')
      .description("list a webhook's deliveries, newest first")
      .addOption(factoryOption())
      .argument('<webhookUid>', 'the webhook (wh_…)'),
    'deliveries',
    50,
  ).action(async (webhookUid: string, options: PageOptions & { factory: string }, command: Command) => {
    const { client, out } = contextOf(command);
    const page = await client.factories.webhooks.deliveries.list(options.factory, webhookUid, pageQuery(options));
    out.result(page.body, () => formatPage(page.data, page.page_info, DELIVERY_COLUMNS, 'no deliveries'));
  });

  deliveries
    .command('get')
    .description('show one delivery, with its payload when it was accepted')
    .addOption(factoryOption())
    .argument('<webhookUid>', 'the webhook (wh_…)')
    .argument('<deliveryId>', 'the delivery (dlv_…)')
    .action(async (webhookUid: string, deliveryId: string, options: { factory: string }, command: Command) => {
      const { client, out } = contextOf(command);
      const delivery = await client.factories.webhooks.deliveries.retrieve(options.factory, webhookUid, deliveryId);
      out.result(delivery, () =>
        formatFields([
          ['delivery_id', delivery.delivery_id],
          ['webhook_uid', delivery.webhook_uid],
          ['label', delivery.label],
          ['rejection_reason', delivery.rejection_reason],
          ['hint', rejectionHint(delivery.rejection_reason, options.factory, webhookUid)],
          ['received_at', formatTime(delivery.received_at)],
          ['size', `${delivery.size} bytes`],
          ['identity', delivery.identity],
          ['identity_source', delivery.identity_source],
          ['duplicate_of', delivery.duplicate_of],
          ['payload', delivery.payload === undefined ? undefined : JSON.stringify(delivery.payload, null, 2)],
        ]),
      );
    });

  deliveries
    .command('replay')
    .description("re-evaluate an accepted delivery against today's automations; prints the runs it started")
    .addOption(factoryOption())
    .argument('<webhookUid>', 'the webhook (wh_…)')
    .argument('<deliveryId>', 'the delivery (dlv_…)')
    .action(async (webhookUid: string, deliveryId: string, options: { factory: string }, command: Command) => {
      const { client, out } = contextOf(command);
      const replay = await client.factories.webhooks.deliveries.replay(options.factory, webhookUid, deliveryId);
      out.result(replay, () =>
        replay.runs.length === 0
          ? `delivery ${replay.delivery_id} matched no automation: no runs started`
          : formatTable(replay.runs, [
              { header: 'RUN ID', value: (run) => run.run_id },
              { header: 'STATE', value: (run) => run.state },
              { header: 'AUTOMATION', value: (run) => run.automation_id },
            ]),
      );
    });
}

const DELIVERY_COLUMNS: Column<WebhookDelivery>[] = [
  { header: 'DELIVERY ID', value: (delivery) => delivery.delivery_id },
  { header: 'LABEL', value: (delivery) => delivery.label },
  { header: 'REASON', value: (delivery) => delivery.rejection_reason ?? '-' },
  { header: 'RECEIVED', value: (delivery) => formatTime(delivery.received_at) },
  { header: 'SIZE', value: (delivery) => delivery.size },
  { header: 'IDENTITY', value: (delivery) => delivery.identity ?? '-', maxWidth: 40 },
  { header: 'DUPLICATE OF', value: (delivery) => delivery.duplicate_of },
];

/**
 * What to check for a `Rejected (auth)` delivery's reason (the values: openapi/v1.yaml WebhookDelivery);
 * undefined for the rest, whose reason is shown as it is.
 */
function rejectionHint(reason: string | null, factoryUid: string, webhookUid: string): string | undefined {
  const setSecret = `agent-runs webhooks rotate-secret --factory ${factoryUid} ${webhookUid} --provider-secret <secret>`;
  switch (reason) {
    case 'no signature matched':
      return `the sender signs with a different secret, or the body changed on the way: check the provider's secret, or set it with \`${setSecret}\``;
    case 'timestamp outside tolerance':
      return "signed more than 5 minutes (the server's default tolerance) from the server's clock: a replay, or a clock is off";
    case 'secret not configured':
      return `the provider's signing secret is not set yet: set it with \`${setSecret}\``;
    case 'missing signature header':
    case 'missing token':
      return "the sender sends no credential: check the provider's signing setting, or that it calls the full ingress URL";
    case 'wrong token':
      return 'the sender uses another secret: maybe an old one after a rotation';
    default:
      return undefined;
  }
}
