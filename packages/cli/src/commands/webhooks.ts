import {
  type AuthMode,
  authModeValues,
  type CreateWebhookRequest,
  type SignatureScheme,
  signatureSchemeValues,
  type UpdateWebhookRequest,
  type Webhook,
  type WebhookWithSecret,
} from '@agent-runs/sdk';
import { type Command, Option } from 'commander';
import { addDeleteCommand, addEnableDisableCommands, addPageOptions, contextOf, factoryOption, type PageOptions, pageQuery } from '../context';
import { UsageError } from '../errors';
import { type Column, formatFields, formatPage, formatTime, type Output } from '../output';

const WEBHOOK_ARGUMENT = { name: '<webhookUid>', description: 'the webhook (wh_…)' };

interface CreateOptions {
  factory: string;
  name: string;
  authMode?: AuthMode;
  scheme?: SignatureScheme;
  providerSecret?: string;
  secretName?: string;
  deliveryIdHeader?: string;
}

interface UpdateOptions {
  factory: string;
  name?: string;
  /** A header, or false from `--no-delivery-id-header`. */
  deliveryIdHeader?: string | false;
}

/** `webhooks create|list|get|update|rotate|enable|disable|delete`. */
export function registerWebhooksCommands(program: Command): void {
  const webhooks = program.command('webhooks').description("manage a factory's custom webhooks");

  webhooks
    .command('create')
    .description('create a webhook; prints its secret this once')
    .addOption(factoryOption())
    .requiredOption('--name <name>', 'display name, unique within the factory')
    .addOption(new Option('--auth-mode <mode>', 'how senders authenticate (server default token; --scheme implies signature)').choices(authModeValues))
    .addOption(new Option('--scheme <scheme>', 'provider signing scheme of a signature webhook').choices(signatureSchemeValues))
    .option('--provider-secret <secret>', "the provider's signing secret (signature webhooks; may be given later with rotate)")
    .option('--secret-name <name>', 'team secret holding the webhook secret (an existing one is used as is)')
    .option('--delivery-id-header <header>', "header carrying the sender's own event id")
    .action(async (options: CreateOptions, command: Command) => {
      const cli = contextOf(command);
      // The generated type marks `enabled` required (it has a default); the server defaults it to true.
      const body = { name: options.name } as CreateWebhookRequest;
      const authMode = options.authMode ?? (options.scheme !== undefined ? 'signature' : undefined);
      if (authMode !== undefined) body.auth_mode = authMode;
      if (options.scheme !== undefined) body.signature_scheme = options.scheme;
      if (options.providerSecret !== undefined) body.provider_secret = options.providerSecret;
      if (options.secretName !== undefined) body.secret_name = options.secretName;
      if (options.deliveryIdHeader !== undefined) body.delivery_id_header = options.deliveryIdHeader;
      const webhook = await cli.client.factories.webhooks.create(options.factory, body);
      printWithSecret(cli.out, webhook, options.factory);
    });

  addPageOptions(webhooks.command('list').description("list a factory's webhooks").addOption(factoryOption()), 'webhooks', 50).action(
    async (options: PageOptions & { factory: string }, command: Command) => {
      const { client, out } = contextOf(command);
      const page = await client.factories.webhooks.list(options.factory, pageQuery(options));
      out.result(page.body, () => formatPage(page.data, page.page_info, WEBHOOK_COLUMNS, 'no webhooks'));
    },
  );

  webhooks
    .command('get')
    .description('show one webhook (never its secret)')
    .addOption(factoryOption())
    .argument(WEBHOOK_ARGUMENT.name, WEBHOOK_ARGUMENT.description)
    .action(async (webhookUid: string, options: { factory: string }, command: Command) => {
      const { client, out } = contextOf(command);
      const webhook = await client.factories.webhooks.retrieve(options.factory, webhookUid);
      out.result(webhook, () => formatWebhook(webhook));
    });

  webhooks
    .command('update')
    .description('rename a webhook or change its delivery id header (enable and disable it with those commands)')
    .addOption(factoryOption())
    .argument(WEBHOOK_ARGUMENT.name, WEBHOOK_ARGUMENT.description)
    .option('--name <name>', 'new display name, unique within the factory')
    .option('--delivery-id-header <header>', "header carrying the sender's own event id")
    .option('--no-delivery-id-header', 'clear the delivery id header')
    .action(async (webhookUid: string, options: UpdateOptions, command: Command) => {
      const { client, out } = contextOf(command);
      const body: UpdateWebhookRequest = {};
      if (options.name !== undefined) body.name = options.name;
      if (options.deliveryIdHeader !== undefined) body.delivery_id_header = options.deliveryIdHeader || null;
      if (Object.keys(body).length === 0) {
        throw new UsageError('nothing to update: pass --name, --delivery-id-header or --no-delivery-id-header');
      }
      const webhook = await client.factories.webhooks.update(options.factory, webhookUid, body);
      out.result(webhook, () => formatWebhook(webhook));
    });

  webhooks
    .command('rotate')
    .alias('rotate-secret')
    .description("generate a new secret, or set the provider's with --provider-secret; prints it this once")
    .addOption(factoryOption())
    .argument(WEBHOOK_ARGUMENT.name, WEBHOOK_ARGUMENT.description)
    .option('--provider-secret <secret>', "the provider's new signing secret (signature webhooks)")
    .action(async (webhookUid: string, options: { factory: string; providerSecret?: string }, command: Command) => {
      const cli = contextOf(command);
      const body = options.providerSecret !== undefined ? { provider_secret: options.providerSecret } : {};
      const webhook = await cli.client.factories.webhooks.rotateSecret(options.factory, webhookUid, body);
      printWithSecret(cli.out, webhook, options.factory);
    });

  addEnableDisableCommands(
    webhooks,
    'webhook',
    WEBHOOK_ARGUMENT,
    { enable: 'accept deliveries again', disable: 'stop accepting deliveries (senders get 404)' },
    (client, factoryUid, uid, enabled) => client.factories.webhooks.update(factoryUid, uid, { enabled }),
  );

  addDeleteCommand(webhooks, 'webhook', WEBHOOK_ARGUMENT, 'delete a webhook (its URL answers 404 from now on)', (client, factoryUid, uid) =>
    client.factories.webhooks.delete(factoryUid, uid),
  );
}

const WEBHOOK_COLUMNS: Column<Webhook>[] = [
  { header: 'UID', value: (webhook) => webhook.uid },
  { header: 'NAME', value: (webhook) => webhook.name, maxWidth: 32 },
  { header: 'AUTH', value: (webhook) => webhook.auth_mode },
  { header: 'SCHEME', value: (webhook) => webhook.signature_scheme ?? '-' },
  { header: 'ENABLED', value: (webhook) => (webhook.enabled ? 'yes' : 'no') },
  { header: 'SECRET', value: (webhook) => (webhook.secret_configured ? webhook.secret_name : `${webhook.secret_name} (not set)`) },
  { header: 'INGRESS URL', value: (webhook) => webhook.ingress_url },
];

function formatWebhook(webhook: Webhook, secret?: string | null): string {
  return formatFields([
    ['uid', webhook.uid],
    ['factory_uid', webhook.factory_uid],
    ['name', webhook.name],
    ['auth_mode', webhook.auth_mode],
    ['signature_scheme', webhook.signature_scheme],
    ['secret_name', webhook.secret_name],
    ['secret_configured', webhook.secret_configured ? 'yes' : 'no'],
    ['delivery_id_header', webhook.delivery_id_header],
    ['enabled', webhook.enabled ? 'yes' : 'no'],
    ['ingress_url', webhook.ingress_url],
    ['created_at', formatTime(webhook.created_at)],
    ['updated_at', formatTime(webhook.updated_at)],
    ['secret', secret],
  ]);
}

/** The create and rotate answers: the webhook, its secret, and on stderr what to do with it. */
function printWithSecret(out: Output, webhook: WebhookWithSecret, factoryUid: string): void {
  out.result(webhook, () => formatWebhook(webhook, webhook.secret));
  if (webhook.secret) {
    const where = webhook.auth_mode === 'url_token' ? 'the secret (and the ingress URL, which contains it)' : 'the secret';
    out.warn(
      `${where} is shown only now and cannot be read back; store it safely. ` +
        `It is kept as team secret ${webhook.secret_name}; replace it with \`agent-runs webhooks rotate\`.`,
    );
  } else if (!webhook.secret_configured) {
    out.note(
      `note: the provider's signing secret is not set yet, so deliveries are rejected (401) until you run\n` +
        `  agent-runs webhooks rotate --factory ${factoryUid} ${webhook.uid} --provider-secret <secret>`,
    );
  } else {
    out.note(`note: this webhook uses the value of the existing team secret ${webhook.secret_name}.`);
  }
}
