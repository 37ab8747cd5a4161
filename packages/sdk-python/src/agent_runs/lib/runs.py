"""Hand-written methods of ``client.agent.runs`` that are not one operation of the contract: waiting for a
run to settle and answering its question. The generated ``Runs`` and ``AsyncRuns``
(resources/agent/runs.py) inherit them."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Optional, Sequence, Union

from .._constants import SETTLED_RUN_STATES
from .._exceptions import APIConnectionError
from .._resource import AsyncAPIResource, SyncAPIResource
from .._streaming import AsyncRunEventStream, RunEventStream
from .._types import NOT_GIVEN, Headers, NotGiven, Timeout
from .._utils import path_param
from ..types import AmbientAgentConfigParam, RunAgentResponse, RunAttachmentInputParam, RunEvent, RunItem

__all__ = ["RunsHelpers", "AsyncRunsHelpers", "run_question"]


def run_question(run: RunItem) -> Optional[str]:
    """The question a BLOCKED run asks (its ``status_message.message``); None for a run in any other state."""
    if run.state != "BLOCKED" or run.status_message is None:
        return None
    return run.status_message.message


class RunsHelpers(SyncAPIResource):
    if TYPE_CHECKING:
        # The generated operations these helpers call (resources/agent/runs.py defines them in full).
        def create(
            self,
            *,
            prompt: Union[str, NotGiven] = NOT_GIVEN,
            title: Union[str, NotGiven] = NOT_GIVEN,
            config: Union[AmbientAgentConfigParam, NotGiven] = NOT_GIVEN,
            attachments: Union[Sequence[RunAttachmentInputParam], NotGiven] = NOT_GIVEN,
            extra_headers: Optional[Headers] = None,
            timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        ) -> RunAgentResponse: ...

        def retrieve(self, run_id: str) -> RunItem: ...

        def followup(
            self, run_id: str, *, message: str, timeout: Union[Timeout, NotGiven] = NOT_GIVEN
        ) -> RunAgentResponse: ...

        def events(self, run_id: str, *, timeout: Union[Timeout, NotGiven] = NOT_GIVEN) -> RunEventStream[RunEvent]: ...

    def answer(self, run_id: str, text: str, *, timeout: Union[Timeout, NotGiven] = NOT_GIVEN) -> RunAgentResponse:
        """Answer the question of a BLOCKED run (``run_question(run)``): a follow-up with ``text`` as its message,
        so the run is re-queued and continues its conversation with the answer."""
        return self.followup(run_id, message=text, timeout=timeout)

    def create_and_wait(
        self,
        *,
        prompt: str,
        title: Union[str, NotGiven] = NOT_GIVEN,
        config: Union[AmbientAgentConfigParam, NotGiven] = NOT_GIVEN,
        attachments: Union[Sequence[RunAttachmentInputParam], NotGiven] = NOT_GIVEN,
        poll_interval: float = 1.0,
        max_wait: Optional[float] = None,
        extra_headers: Optional[Headers] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> RunItem:
        """Create a run and return it once it is terminal (SUCCEEDED, FAILED, ERROR or CANCELLED) or BLOCKED on
        a question (``run_question(run)``; answer it with ``answer()``, then ``wait()`` again)."""
        created = self.create(
            prompt=prompt,
            title=title,
            config=config,
            attachments=attachments,
            extra_headers=extra_headers,
            timeout=timeout,
        )
        return self.wait(created.run_id, poll_interval=poll_interval, max_wait=max_wait)

    def wait(self, run_id: str, *, poll_interval: float = 1.0, max_wait: Optional[float] = None) -> RunItem:
        """Block until the run is terminal or BLOCKED on a question and return it: follows the event stream,
        falling back to polling ``retrieve`` every ``poll_interval`` seconds if the stream is unavailable.
        Raises `TimeoutError` after ``max_wait`` seconds."""
        path_param("run_id", run_id)
        deadline = None if max_wait is None else time.monotonic() + max_wait
        try:
            with self.events(run_id, timeout=max_wait if max_wait is not None else NOT_GIVEN) as stream:
                for event in stream:
                    if event.is_settled:
                        break
                    if deadline is not None and time.monotonic() > deadline:
                        break
        except APIConnectionError:
            pass  # fall back to polling
        while True:
            run = self.retrieve(run_id)
            if run.state in SETTLED_RUN_STATES:
                return run
            if deadline is not None and time.monotonic() + poll_interval > deadline:
                raise TimeoutError(f"Run {run_id} not terminal after {max_wait} s (state {run.state})")
            self._client._sleep(poll_interval)


class AsyncRunsHelpers(AsyncAPIResource):
    if TYPE_CHECKING:

        async def create(
            self,
            *,
            prompt: Union[str, NotGiven] = NOT_GIVEN,
            title: Union[str, NotGiven] = NOT_GIVEN,
            config: Union[AmbientAgentConfigParam, NotGiven] = NOT_GIVEN,
            attachments: Union[Sequence[RunAttachmentInputParam], NotGiven] = NOT_GIVEN,
            extra_headers: Optional[Headers] = None,
            timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
        ) -> RunAgentResponse: ...

        async def retrieve(self, run_id: str) -> RunItem: ...

        async def followup(
            self, run_id: str, *, message: str, timeout: Union[Timeout, NotGiven] = NOT_GIVEN
        ) -> RunAgentResponse: ...

        async def events(
            self, run_id: str, *, timeout: Union[Timeout, NotGiven] = NOT_GIVEN
        ) -> AsyncRunEventStream[RunEvent]: ...

    async def answer(
        self, run_id: str, text: str, *, timeout: Union[Timeout, NotGiven] = NOT_GIVEN
    ) -> RunAgentResponse:
        """Answer the question of a BLOCKED run (``run_question(run)``): a follow-up with ``text`` as its message."""
        return await self.followup(run_id, message=text, timeout=timeout)

    async def create_and_wait(
        self,
        *,
        prompt: str,
        title: Union[str, NotGiven] = NOT_GIVEN,
        config: Union[AmbientAgentConfigParam, NotGiven] = NOT_GIVEN,
        attachments: Union[Sequence[RunAttachmentInputParam], NotGiven] = NOT_GIVEN,
        poll_interval: float = 1.0,
        max_wait: Optional[float] = None,
        extra_headers: Optional[Headers] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> RunItem:
        """Create a run and return it once it is terminal or BLOCKED on a question."""
        created = await self.create(
            prompt=prompt,
            title=title,
            config=config,
            attachments=attachments,
            extra_headers=extra_headers,
            timeout=timeout,
        )
        return await self.wait(created.run_id, poll_interval=poll_interval, max_wait=max_wait)

    async def wait(self, run_id: str, *, poll_interval: float = 1.0, max_wait: Optional[float] = None) -> RunItem:
        """Wait until the run is terminal or BLOCKED on a question and return it (events first, polling as fallback)."""
        path_param("run_id", run_id)
        deadline = None if max_wait is None else time.monotonic() + max_wait
        try:
            stream = await self.events(run_id, timeout=max_wait if max_wait is not None else NOT_GIVEN)
            async with stream:
                async for event in stream:
                    if event.is_settled:
                        break
                    if deadline is not None and time.monotonic() > deadline:
                        break
        except APIConnectionError:
            pass
        while True:
            run = await self.retrieve(run_id)
            if run.state in SETTLED_RUN_STATES:
                return run
            if deadline is not None and time.monotonic() + poll_interval > deadline:
                raise TimeoutError(f"Run {run_id} not terminal after {max_wait} s (state {run.state})")
            await self._client._sleep(poll_interval)
