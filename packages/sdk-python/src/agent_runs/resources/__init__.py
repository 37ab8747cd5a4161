from .agent import Agent, AsyncAgent
from .api_keys import ApiKeys, AsyncApiKeys
from .budgets import AsyncBudget, AsyncUsage, Budget, Usage
from .factories import AsyncFactories, Factories
from .notifications import AsyncNotifications, Notifications
from .secrets import AsyncSecrets, Secrets

__all__ = ["Agent", "AsyncAgent", "Factories", "AsyncFactories", "Secrets", "AsyncSecrets", "ApiKeys", "AsyncApiKeys", "Notifications", "AsyncNotifications", "Budget", "AsyncBudget", "Usage", "AsyncUsage"]
