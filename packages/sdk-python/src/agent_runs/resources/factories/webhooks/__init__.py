from .deliveries import AsyncDeliveries, Deliveries
from .webhooks import AsyncWebhooks, Webhooks

__all__ = ["Webhooks", "AsyncWebhooks", "Deliveries", "AsyncDeliveries"]
