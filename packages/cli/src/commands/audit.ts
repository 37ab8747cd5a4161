import { type AuditEvent, type AuditEventListParams, auditResourceTypeValues } from '@agent-runs/sdk';
import { type Command, Option } from 'commander';
import { addPageOptions, contextOf, type PageOptions, pageQuery } from '../context';
import { type Column, formatPage, formatTime } from '../output';

interface ListOptions extends PageOptions {
  resourceType?: AuditEventListParams['resource_type'];
  resourceId?: string;
  actor?: string;
  since?: string;
  until?: string;
}

const EVENT_COLUMNS: Column<AuditEvent>[] = [
  { header: 'WHEN', value: (e) => formatTime(e.occurred_at) },
  { header: 'ACTOR', value: (e) => e.actor.name ?? e.actor.key_id },
  { header: 'ACTION', value: (e) => e.action },
  { header: 'RESOURCE', value: (e) => `${e.resource.type} ${e.resource.id}` },
  { header: 'OPERATION', value: (e) => e.operation_id },
  { header: 'ADDRESS', value: (e) => e.address ?? '' },
  { header: 'FIELDS', value: (e) => e.changed_fields.join(','), maxWidth: 40 },
];

/** `audit list`: the team's audit log, newest first (admin keys). */
export function registerAuditCommands(program: Command): void {
  const audit = program.command('audit').description("the team's audit log: what admins changed (admin keys)");

  addPageOptions(audit.command('list').description('list audit events, newest first'), 'events', 50)
    .addOption(new Option('--resource-type <type>', 'only events about this kind of resource').choices(auditResourceTypeValues))
    .option('--resource-id <id>', 'only events about this resource (a secret by its name)')
    .option('--actor <keyId>', 'only changes made with this API key (key_…)')
    .option('--since <time>', 'only events at or after this instant (RFC 3339)')
    .option('--until <time>', 'only events before this instant (RFC 3339)')
    .action(async (options: ListOptions, command: Command) => {
      const { client, out } = contextOf(command);
      const query: AuditEventListParams = {
        ...pageQuery(options),
        ...(options.resourceType !== undefined ? { resource_type: options.resourceType } : {}),
        ...(options.resourceId !== undefined ? { resource_id: options.resourceId } : {}),
        ...(options.actor !== undefined ? { actor_key_id: options.actor } : {}),
        ...(options.since !== undefined ? { since: options.since } : {}),
        ...(options.until !== undefined ? { until: options.until } : {}),
      };
      const page = await client.auditEvents.list(query);
      out.result(page.body, () => formatPage(page.data, page.page_info, EVENT_COLUMNS, 'no audit events'));
    });
}
