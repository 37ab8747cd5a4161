from .agent import Agent, AsyncAgent
from .api_keys import ApiKeys, AsyncApiKeys
from .audit_events import AsyncAuditEvents, AuditEvents
from .budgets import AsyncBudget, AsyncUsage, Budget, Usage
from .factories import AsyncFactories, Factories
from .notifications import AsyncNotifications, Notifications
from .secrets import AsyncSecrets, Secrets

__all__ = ["Agent", "AsyncAgent", "Factories", "AsyncFactories", "Secrets", "AsyncSecrets", "ApiKeys", "AsyncApiKeys", "AuditEvents", "AsyncAuditEvents", "Notifications", "AsyncNotifications", "Budget", "AsyncBudget", "Usage", "AsyncUsage"]
