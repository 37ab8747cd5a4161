from .automations import AsyncAutomations, Automations
from .factories import AsyncFactories, Factories
from .runs import AsyncFactoryRuns, FactoryRuns
from .webhooks import AsyncDeliveries, AsyncWebhooks, Deliveries, Webhooks

__all__ = [
    "Factories", "AsyncFactories", "FactoryRuns", "AsyncFactoryRuns", "Webhooks", "AsyncWebhooks",
    "Deliveries", "AsyncDeliveries", "Automations", "AsyncAutomations",
]
