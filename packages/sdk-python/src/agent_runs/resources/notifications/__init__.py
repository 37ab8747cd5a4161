from .notifications import AsyncNotifications, Notifications

__all__ = ["Notifications", "AsyncNotifications"]
