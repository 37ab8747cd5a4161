from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Optional, Union

from .._constants import SETTLED_RUN_STATES, TERMINAL_RUN_STATES
from .._models import BaseModel, construct_type
from .._utils import as_json_object
from ._generated import RunContentEvent, RunStateEvent

if TYPE_CHECKING:
    from .._streaming import ServerSentEvent

__all__ = ["RunEvent"]


class RunEvent(BaseModel):
    """One event of ``GET /agent/runs/{runId}/events``.

    ``event`` is ``"state"`` (``data`` is a `RunStateEvent`) or ``"content"`` (``data`` is a
    `RunContentEvent`); an event type this SDK does not know keeps its decoded JSON in ``data``.
    """

    id: Optional[str] = None
    event: str
    data: Union[RunStateEvent, RunContentEvent, Any]

    @property
    def is_terminal(self) -> bool:
        """A ``state`` event reporting SUCCEEDED, FAILED, ERROR or CANCELLED (the stream's last)."""
        return self.event == "state" and getattr(self.data, "state", None) in TERMINAL_RUN_STATES

    @property
    def is_settled(self) -> bool:
        """A ``state`` event where ``runs.wait()`` stops: terminal, or BLOCKED on a question."""
        return self.event == "state" and getattr(self.data, "state", None) in SETTLED_RUN_STATES

    @classmethod
    def from_sse(cls, sse: "ServerSentEvent") -> "RunEvent":
        try:
            raw: Any = json.loads(sse.data)
        except ValueError:
            raw = sse.data
        data: Any = raw
        if sse.event == "state" and as_json_object(raw) is not None:
            data = construct_type(type_=RunStateEvent, value=raw)
        elif sse.event == "content" and as_json_object(raw) is not None:
            data = construct_type(type_=RunContentEvent, value=raw)
        return cls.model_construct(id=sse.id, event=sse.event, data=data)
