import type { DeliveryListParams, WebhookDelivery } from '@agent-runs/sdk';
import type { Command } from 'commander';
import { contextOf, integerOption } from '../context';
import { type Column, formatFields, formatTable, formatTime, nextPageHint } from '../output';

/** `deliveries list|get|replay`: a webhook's delivery log. */
export function registerDeliveriesCommands(program: Command): void {
  const deliveries = program.command('deliveries').description("read a webhook's delivery log and replay deliveries");

  deliveries
    .command('list')
    .description("list a webhook's deliveries, newest first")
    .requiredOption('--factory <uid>', 'the factory (fac_…)')
    .argument('<webhookUid>', 'the webhook (wh_…)')
    .option('--limit <n>', 'deliveries per page, 1-500 (server default 50)', integerOption(500))
    .option('--cursor <cursor>', 'the page after this cursor')
    .action(
      async (webhookUid: string, options: { factory: string; limit?: number; cursor?: string }, command: Command) => {
        const { client, out } = contextOf(command);
        const query: DeliveryListParams = {};
        if (options.limit !== undefined) query.limit = options.limit;
        if (options.cursor !== undefined) query.cursor = options.cursor;
        const page = await client.factories.webhooks.deliveries.list(options.factory, webhookUid, query);
        out.result(page.body, () => {
          if (page.data.length === 0) return 'no deliveries';
          const hint = nextPageHint(page.page_info);
          return formatTable(page.data, DELIVERY_COLUMNS) + (hint ? `\n${hint}` : '');
        });
      },
    );

  deliveries
    .command('get')
    .description('show one delivery, with its payload when it was accepted')
    .requiredOption('--factory <uid>', 'the factory (fac_…)')
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
    .requiredOption('--factory <uid>', 'the factory (fac_…)')
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
  { header: 'RECEIVED', value: (delivery) => formatTime(delivery.received_at) },
  { header: 'SIZE', value: (delivery) => delivery.size },
  { header: 'IDENTITY', value: (delivery) => delivery.identity ?? '-', maxWidth: 40 },
  { header: 'DUPLICATE OF', value: (delivery) => delivery.duplicate_of },
];
