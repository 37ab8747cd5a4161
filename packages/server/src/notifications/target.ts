/**
 * Where notifications may go (docs/decisions.md §Outbound notifications): the egress policy of
 * engine/egress/ with `NOTIFICATIONS_ALLOWED_HOSTS` in place of the sandbox's list.
 *
 * - When a subscription's URL is set, `refusal` says what can be known then: not http(s), plain http to a
 *   host the operator did not list, credentials or a fragment in the URL, an IP literal of a loopback,
 *   private, link-local, CGNAT… range (unless listed as that exact IP).
 * - Every delivery goes through `createDispatcher`'s undici connector, which applies the policy to the
 *   address actually dialled (a name that resolves or rebinds to an internal address is refused) — the
 *   same check again at connect time. Redirects are never followed (undici's `request` follows none).
 */
import type { Agent } from 'undici';
import { createEgressDispatcher } from '../engine/egress/fetch';
import { createEgressPolicy, type EgressPolicy, type EgressPolicyOptions } from '../engine/egress/policy';
import type { NotificationSettings } from '../settings';

const URL_MAX_LENGTH = 2048;
const SETTING = 'NOTIFICATIONS_ALLOWED_HOSTS';

export class NotificationTargets {
  /** Any public host; internal addresses only as exact IPs the operator listed. */
  private readonly policy: EgressPolicy;
  /** Only what the operator listed: the hosts that may take plain http. */
  private readonly listed: EgressPolicy;

  /** Throws EgressPolicyError for an entry of NOTIFICATIONS_ALLOWED_HOSTS it cannot read (at start). */
  constructor(settings: Pick<NotificationSettings, 'allowedHosts'>, options: Omit<EgressPolicyOptions, 'settingName'> = {}) {
    this.policy = createEgressPolicy({ network: 'open', allowedHosts: settings.allowedHosts }, { ...options, settingName: SETTING });
    this.listed = createEgressPolicy({ network: 'allowlist', allowedHosts: settings.allowedHosts }, { ...options, settingName: SETTING });
  }

  /** Why `raw` cannot be a subscription URL (a phrase that follows the field name), or undefined. */
  refusal(raw: string): string | undefined {
    if (raw.length > URL_MAX_LENGTH) return `must be at most ${URL_MAX_LENGTH} characters`;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return 'is not an absolute URL';
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https URL';
    if (url.username !== '' || url.password !== '') return 'must not contain a user name or password (sign, do not embed credentials)';
    if (url.hash !== '' || raw.includes('#')) return 'must not contain a fragment';
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    if (url.protocol === 'http:' && !this.listed.checkHost(url.hostname, port).allowed) {
      return `must be an https URL (plain http only for hosts in ${SETTING})`;
    }
    const decision = this.policy.checkHost(url.hostname, port);
    return decision.allowed ? undefined : `is not allowed: ${decision.reason}`;
  }

  /** An undici dispatcher whose every connection obeys the policy (close it when the delivery workers stop). */
  createDispatcher(): Agent {
    return createEgressDispatcher(this.policy);
  }
}
