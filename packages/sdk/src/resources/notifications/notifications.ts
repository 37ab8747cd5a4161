import { APIResource } from '../../core/resource';
import { Subscriptions } from './subscriptions/subscriptions';

/** `/notifications/…`: signed outbound notifications of run events. */
export class Notifications extends APIResource {
  subscriptions: Subscriptions = new Subscriptions(this._client);
}
