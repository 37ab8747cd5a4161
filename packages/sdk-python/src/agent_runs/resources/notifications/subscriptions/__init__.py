from .attempts import AsyncAttempts, Attempts
from .events import AsyncEvents, Events
from .subscriptions import AsyncSubscriptions, Subscriptions

__all__ = ["Subscriptions", "AsyncSubscriptions", "Attempts", "AsyncAttempts", "Events", "AsyncEvents"]
