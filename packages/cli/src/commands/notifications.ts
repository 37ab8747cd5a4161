import {
  type CreateNotificationSubscriptionRequest,
  type NotificationAttempt,
  type NotificationEventType,
  notificationEventTypeValues,
  type NotificationFilter,
  type NotificationSubscription,
  type NotificationSubscriptionWithSecret,
  type UpdateNotificationSubscriptionRequest,
} from '@agent-runs/sdk';
import { type Command, InvalidArgumentError } from 'commander';
import { addPageOptions, contextOf, type PageOptions, pageQuery, repeatableOption } from '../context';
import { UsageError } from '../errors';
import { type Column, formatFields, formatPage, formatTime, type Output } from '../output';

const SUBSCRIPTION_ARGUMENT = ['<subscriptionUid>', 'the subscription (sub_…)'] as const;

/** `--event run.failed` (repeatable, or comma-separated): one of the contract's event types. */
const eventTypeOption = repeatableOption((value) => {
  if (!(notificationEventTypeValues as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`expected one of ${notificationEventTypeValues.join(', ')}.`);
  }
  return value;
});

interface FilterOptions {
  factory?: string;
  automation?: string;
  /** False from `update --no-filter`. */
  filter?: boolean;
}

interface CreateOptions extends FilterOptions {
  url: string;
  event: NotificationEventType[];
  description?: string;
  disabled?: boolean;
}

interface UpdateOptions extends FilterOptions {
  url?: string;
  event?: NotificationEventType[];
  /** A description, or false from `--no-description`. */
  description?: string | false;
}

/** The filter the options describe (replaced whole on update), or undefined when none was given. */
function filterOf(options: FilterOptions): NotificationFilter | undefined {
  const given = options.factory !== undefined || options.automation !== undefined || options.filter === false;
  if (!given) return undefined;
  return {
    ...(options.factory ? { factory_uid: options.factory } : {}),
    ...(options.automation ? { automation_id: options.automation } : {}),
  };
}

/** `notifications create|list|get|update|enable|disable|rotate|delete|attempts|replay`. */
export function registerNotificationsCommands(program: Command): void {
  const notifications = program.command('notifications').description('manage notification subscriptions: signed run events POSTed to your HTTPS endpoints');

  notifications
    .command('create')
    .description('subscribe an endpoint to run events; prints its signing secret this once')
    .requiredOption('--url <url>', 'where events are POSTed (https)')
    .requiredOption('--event <type>', `event type, repeatable: ${notificationEventTypeValues.join(', ')}`, eventTypeOption)
    .option('--factory <uid>', 'only runs of this factory (fac_…)')
    .option('--automation <id>', 'only runs started by this automation (aut_…)')
    .option('--description <text>', 'what the endpoint is for')
    .option('--disabled', 'create it disabled')
    .action(async (options: CreateOptions, command: Command) => {
      const cli = contextOf(command);
      // The generated type marks `enabled` required (it has a default); the server defaults it to true.
      const body = { url: options.url, event_types: options.event } as CreateNotificationSubscriptionRequest;
      const filter = filterOf(options);
      if (filter) body.filter = filter;
      if (options.description !== undefined) body.description = options.description;
      if (options.disabled) body.enabled = false;
      printWithSecret(cli.out, await cli.client.notifications.subscriptions.create(body));
    });

  addPageOptions(notifications.command('list').description("list the team's subscriptions"), 'subscriptions', 50).action(
    async (options: PageOptions, command: Command) => {
      const { client, out } = contextOf(command);
      const page = await client.notifications.subscriptions.list(pageQuery(options));
      out.result(page.body, () => formatPage(page.data, page.page_info, SUBSCRIPTION_COLUMNS, 'no subscriptions'));
    },
  );

  notifications
    .command('get')
    .description('show one subscription (never its secret)')
    .argument(...SUBSCRIPTION_ARGUMENT)
    .action(async (uid: string, _options: unknown, command: Command) => {
      const { client, out } = contextOf(command);
      const subscription = await client.notifications.subscriptions.retrieve(uid);
      out.result(subscription, () => formatSubscription(subscription));
    });

  notifications
    .command('update')
    .description('change the URL, event types, description or filter (the filter is replaced whole)')
    .argument(...SUBSCRIPTION_ARGUMENT)
    .option('--url <url>', 'where events are POSTed (https)')
    .option('--event <type>', 'event type, repeatable: replaces the list', eventTypeOption)
    .option('--description <text>', 'what the endpoint is for')
    .option('--no-description', 'clear the description')
    .option('--factory <uid>', 'filter: only runs of this factory')
    .option('--automation <id>', 'filter: only runs started by this automation')
    .option('--no-filter', 'clear the filter: every run of the team')
    .action(async (uid: string, options: UpdateOptions, command: Command) => {
      const { client, out } = contextOf(command);
      const body: UpdateNotificationSubscriptionRequest = {};
      if (options.url !== undefined) body.url = options.url;
      if (options.event !== undefined) body.event_types = options.event;
      if (options.description !== undefined) body.description = options.description || null;
      const filter = filterOf(options);
      if (filter) body.filter = filter;
      if (Object.keys(body).length === 0) {
        throw new UsageError('nothing to update: pass --url, --event, --description, --factory, --automation or --no-filter');
      }
      const subscription = await client.notifications.subscriptions.update(uid, body);
      out.result(subscription, () => formatSubscription(subscription));
    });

  for (const enabled of [true, false]) {
    notifications
      .command(enabled ? 'enable' : 'disable')
      .description(enabled ? 'send events again (also after an automatic disable for failing)' : 'stop sending events; waiting ones are given up')
      .argument(...SUBSCRIPTION_ARGUMENT)
      .action(async (uid: string, _options: unknown, command: Command) => {
        const { client, out } = contextOf(command);
        const updated = await client.notifications.subscriptions.update(uid, { enabled });
        out.result(updated, () => `subscription ${updated.uid} ${updated.enabled ? 'enabled' : 'disabled'}`);
      });
  }

  notifications
    .command('rotate')
    .alias('rotate-secret')
    .description('generate a new signing secret; prints it this once (the old one keeps signing through the overlap)')
    .argument(...SUBSCRIPTION_ARGUMENT)
    .action(async (uid: string, _options: unknown, command: Command) => {
      const cli = contextOf(command);
      printWithSecret(cli.out, await cli.client.notifications.subscriptions.rotateSecret(uid));
    });

  notifications
    .command('delete')
    .description('delete a subscription, its waiting events and its attempts log')
    .argument(...SUBSCRIPTION_ARGUMENT)
    .action(async (uid: string, _options: unknown, command: Command) => {
      const { client, out } = contextOf(command);
      await client.notifications.subscriptions.delete(uid);
      out.result({ uid, deleted: true }, () => `deleted subscription ${uid}`);
    });

  addPageOptions(
    notifications
      .command('attempts')
      .description("a subscription's delivery attempts, newest first")
      .argument(...SUBSCRIPTION_ARGUMENT)
      .option('--event <eventId>', 'only attempts of this event (evt_…)')
      .option('--run <runId>', 'only attempts of events of this run'),
    'attempts',
    50,
  ).action(async (uid: string, options: PageOptions & { event?: string; run?: string }, command: Command) => {
    const { client, out } = contextOf(command);
    const page = await client.notifications.subscriptions.attempts.list(uid, {
      ...pageQuery(options),
      ...(options.event !== undefined ? { event_id: options.event } : {}),
      ...(options.run !== undefined ? { run_id: options.run } : {}),
    });
    out.result(page.body, () => formatPage(page.data, page.page_info, ATTEMPT_COLUMNS, 'no attempts'));
  });

  notifications
    .command('replay')
    .description('send one event again now (same id and body)')
    .argument(...SUBSCRIPTION_ARGUMENT)
    .argument('<eventId>', 'the event (evt_…), as the attempts list it')
    .action(async (uid: string, eventId: string, _options: unknown, command: Command) => {
      const { client, out } = contextOf(command);
      const replay = await client.notifications.subscriptions.events.replay(uid, eventId);
      out.result(replay, () => `event ${replay.event_id} queued for subscription ${replay.subscription_uid} (due ${formatTime(replay.next_attempt_at)})`);
    });
}

const filterText = (subscription: NotificationSubscription): string =>
  [subscription.filter.factory_uid, subscription.filter.automation_id].filter(Boolean).join(' ') || 'every run';

const enabledText = (subscription: NotificationSubscription): string => (subscription.enabled ? 'yes' : `no (${subscription.disabled_reason ?? 'manual'})`);

const SUBSCRIPTION_COLUMNS: Column<NotificationSubscription>[] = [
  { header: 'UID', value: (s) => s.uid },
  { header: 'URL', value: (s) => s.url, maxWidth: 48 },
  { header: 'EVENTS', value: (s) => s.event_types.join(',') },
  { header: 'FILTER', value: filterText },
  { header: 'ENABLED', value: enabledText },
  { header: 'FAILING SINCE', value: (s) => formatTime(s.failing_since) || '-' },
];

const ATTEMPT_COLUMNS: Column<NotificationAttempt>[] = [
  { header: 'ATTEMPTED', value: (a) => formatTime(a.attempted_at) },
  { header: 'EVENT', value: (a) => a.event_id },
  { header: 'TYPE', value: (a) => a.event_type },
  { header: '#', value: (a) => a.attempt },
  { header: 'OUTCOME', value: (a) => a.outcome },
  { header: 'STATUS', value: (a) => a.status_code ?? '-' },
  { header: 'MS', value: (a) => a.latency_ms ?? '-' },
  { header: 'NEXT', value: (a) => formatTime(a.next_attempt_at) || '-' },
  { header: 'DETAIL', value: (a) => a.error ?? a.response_excerpt ?? '', maxWidth: 60 },
];

function formatSubscription(subscription: NotificationSubscription, secret?: string): string {
  return formatFields([
    ['uid', subscription.uid],
    ['url', subscription.url],
    ['description', subscription.description],
    ['event_types', subscription.event_types.join(', ')],
    ['filter', filterText(subscription)],
    ['enabled', enabledText(subscription)],
    ['disabled_at', formatTime(subscription.disabled_at)],
    ['failing_since', formatTime(subscription.failing_since)],
    ['previous_secret_expires_at', formatTime(subscription.previous_secret_expires_at)],
    ['created_at', formatTime(subscription.created_at)],
    ['updated_at', formatTime(subscription.updated_at)],
    ['secret', secret],
  ]);
}

/** The create and rotate answers: the subscription, its secret, and on stderr what to do with it. */
function printWithSecret(out: Output, subscription: NotificationSubscriptionWithSecret): void {
  out.result(subscription, () => formatSubscription(subscription, subscription.secret));
  out.warn(
    'the signing secret is shown only now and cannot be read back; give it to the receiver, which verifies each ' +
      'delivery with it (Standard Webhooks). Replace it with `agent-runs notifications rotate`.',
  );
}
