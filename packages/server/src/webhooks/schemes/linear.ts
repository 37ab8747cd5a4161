import { randomBytes } from 'node:crypto';
import { bodyHmacScheme } from './body-hmac';

/**
 * Linear (https://linear.app/developers/webhooks#securing-webhooks):
 * `Linear-Signature: <hex>`, HMAC-SHA256 of the raw body with the webhook signing secret (UTF-8).
 *
 * Timestamp: Linear puts `webhookTimestamp` inside the JSON body, not in a header. Schemes never parse
 * the body, so no age check is made here. The seed applies the 5-minute rule to Standard Webhooks and
 * "one further provider scheme"; we count that one as Stripe (whose timestamp is in the signed header),
 * and additionally check Slack because Slack's own docs require it. Replays of a Linear delivery are
 * caught by delivery-id dedup (`Linear-Delivery`) instead.
 */
export const linearScheme = bodyHmacScheme({
  name: 'linear',
  header: 'linear-signature',
  encoding: 'hex',
  digestPattern: /^[0-9a-fA-F]+$/,
  deliveryIdHeaders: ['linear-delivery'],
  // Linear issues the real signing secret; this is only a stand-in of equal strength.
  generateSecret: () => randomBytes(32).toString('hex'),
});
