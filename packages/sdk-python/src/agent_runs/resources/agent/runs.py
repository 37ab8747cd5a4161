"""``client.agent.runs``: tag Runs of openapi/v1.yaml."""

from __future__ import annotations

import time
from typing import Any, Dict, Optional, Sequence, Union

from ..._base_client import AsyncPaginator, make_request_options
from ..._constants import SETTLED_RUN_STATES
from ..._exceptions import APIConnectionError
from ..._resource import AsyncAPIResource, SyncAPIResource
from ..._response import (
    async_to_raw_response_wrapper,
    async_to_streamed_response_wrapper,
    to_raw_response_wrapper,
    to_streamed_response_wrapper,
)
from ..._streaming import AsyncRunEventStream, AsyncTeamRunEventStream, RunEventStream, TeamRunEventStream
from ..._types import NOT_GIVEN, Body, Headers, NotGiven, Query, Timeout
from ..._utils import path_param, strip_not_given
from ...pagination import AsyncCursorPage, SyncCursorPage
from ...types import (
    AmbientAgentConfigParam,
    ConversationResponse,
    ListRunsResponse,
    RunAgentResponse,
    RunArtifactType,
    RunAttachmentInputParam,
    RunByExternalReferenceResponse,
    RunEvent,
    RunExecutionLocation,
    RunItem,
    RunSetupLog,
    RunSourceType,
    RunState,
)

__all__ = ["Runs", "AsyncRuns", "run_question"]


def run_question(run: RunItem) -> Optional[str]:
    """The question a BLOCKED run asks (its ``status_message.message``); None for a run in any other state."""
    if run.state != "BLOCKED" or run.status_message is None:
        return None
    return run.status_message.message


# -- shared request building (sync and async send the same requests) ------------------------------


def _create_body(**fields: Any) -> Dict[str, Any]:
    return strip_not_given(fields)


def _list_query(**params: Any) -> Dict[str, Any]:
    query = strip_not_given(params)
    state = query.get("state")
    if isinstance(state, str):
        query["state"] = [state]
    # deepObject, as the contract styles it: metadata[key]=value.
    for key, value in query.pop("metadata", {}).items():
        query[f"metadata[{key}]"] = value
    return query


def _events_headers(last_event_id: Union[str, int, None], extra_headers: Optional[Headers]) -> Optional[Headers]:
    if last_event_id is None:
        return extra_headers
    return {**(extra_headers or {}), "Last-Event-ID": str(last_event_id)}


def _events_accept(extra_headers: Optional[Headers]) -> Headers:
    return {"Accept": "text/event-stream", **(extra_headers or {})}


class Runs(SyncAPIResource):
    @property
    def with_raw_response(self) -> "RunsWithRawResponse":
        """Every method, answering an `APIResponse` (headers, status, ``.parse()``)."""
        return RunsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "RunsWithStreamingResponse":
        """Every method as a context manager whose body is read only on demand."""
        return RunsWithStreamingResponse(self)

    def create(
        self,
        *,
        prompt: Union[str, NotGiven] = NOT_GIVEN,
        skill: Union[str, NotGiven] = NOT_GIVEN,
        title: Union[str, NotGiven] = NOT_GIVEN,
        config: Union[AmbientAgentConfigParam, NotGiven] = NOT_GIVEN,
        metadata: Union[Dict[str, str], NotGiven] = NOT_GIVEN,
        parent_run_id: Union[str, NotGiven] = NOT_GIVEN,
        attachments: Union[Sequence[RunAttachmentInputParam], NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> RunAgentResponse:
        """Start a run (createRun, ``POST /agent/runs``). Answers ``{run_id, task_id, state}``. ``prompt`` may be
        left out when a skill is given (``skill``, ``config.skill_spec`` or ``config.skills``); ``metadata`` and
        ``parent_run_id`` are fixed at creation (a child inherits its parent's metadata)."""
        return self._post(
            "/agent/runs",
            body=_create_body(
                prompt=prompt, skill=skill, title=title, config=config, metadata=metadata, parent_run_id=parent_run_id,
                attachments=attachments,
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=RunAgentResponse,
        )

    def list(
        self,
        *,
        limit: Union[int, NotGiven] = NOT_GIVEN,
        cursor: Union[str, NotGiven] = NOT_GIVEN,
        sort_by: Union[str, NotGiven] = NOT_GIVEN,
        sort_order: Union[str, NotGiven] = NOT_GIVEN,
        state: Union[RunState, Sequence[RunState], NotGiven] = NOT_GIVEN,
        name: Union[str, NotGiven] = NOT_GIVEN,
        model_id: Union[str, NotGiven] = NOT_GIVEN,
        creator: Union[str, NotGiven] = NOT_GIVEN,
        source: Union[RunSourceType, NotGiven] = NOT_GIVEN,
        factory_uid: Union[str, NotGiven] = NOT_GIVEN,
        automation_id: Union[str, NotGiven] = NOT_GIVEN,
        delivery_id: Union[str, NotGiven] = NOT_GIVEN,
        session_id: Union[str, NotGiven] = NOT_GIVEN,
        created_after: Union[str, Any, NotGiven] = NOT_GIVEN,
        created_before: Union[str, Any, NotGiven] = NOT_GIVEN,
        updated_after: Union[str, Any, NotGiven] = NOT_GIVEN,
        q: Union[str, NotGiven] = NOT_GIVEN,
        environment_id: Union[str, NotGiven] = NOT_GIVEN,
        skill: Union[str, NotGiven] = NOT_GIVEN,
        skill_spec: Union[str, NotGiven] = NOT_GIVEN,
        ancestor_run_id: Union[str, NotGiven] = NOT_GIVEN,
        metadata: Union[Dict[str, str], NotGiven] = NOT_GIVEN,
        executor: Union[str, NotGiven] = NOT_GIVEN,
        execution_location: Union[RunExecutionLocation, NotGiven] = NOT_GIVEN,
        schedule_id: Union[str, NotGiven] = NOT_GIVEN,
        artifact_type: Union[RunArtifactType, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> SyncCursorPage[RunItem]:
        """List runs (listRuns). Iterating the page walks every run of every page; ``state`` may be one
        state or several. Timestamps accept ``datetime`` or RFC 3339 strings."""
        query = _list_query(
            limit=limit, cursor=cursor, sort_by=sort_by, sort_order=sort_order, state=state, name=name,
            model_id=model_id, creator=creator, source=source, factory_uid=factory_uid,
            automation_id=automation_id, delivery_id=delivery_id, session_id=session_id, created_after=created_after, created_before=created_before,
            updated_after=updated_after, q=q, environment_id=environment_id, skill=skill, skill_spec=skill_spec,
            ancestor_run_id=ancestor_run_id, metadata=metadata, executor=executor,
            execution_location=execution_location, schedule_id=schedule_id, artifact_type=artifact_type,
        )
        return self._get_api_list(
            "/agent/runs",
            page=SyncCursorPage[RunItem],
            model=ListRunsResponse,
            items_key="runs",
            options=make_request_options(
                query=query, extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body,
                timeout=timeout,
            ),
        )

    def retrieve_by_external_reference(
        self,
        url: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> RunByExternalReferenceResponse:
        """The run of the team that published an EXTERNAL_REFERENCE artifact with exactly this URL
        (getRunByExternalReferenceURL)."""
        return self._get(
            "/agent/run-by-external-reference",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout,
                query={"url": url},
            ),
            cast_to=RunByExternalReferenceResponse,
        )

    def retrieve(
        self,
        run_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> RunItem:
        """One run (getRun)."""
        return self._get(
            f"/agent/runs/{path_param('run_id', run_id)}",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=RunItem,
        )

    def cancel(
        self,
        run_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> str:
        """Cancel a run (cancelRun). Answers the run id; a run already terminal (``CANCELLED`` included) raises
        `BadRequestError`, a ``PENDING`` one `ConflictError` (retryable), as in the Oz API."""
        return self._post(
            f"/agent/runs/{path_param('run_id', run_id)}/cancel",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=str,
        )

    def followup(
        self,
        run_id: str,
        *,
        message: str,
        mode: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> RunAgentResponse:
        """Send a follow-up message (createRunFollowup); a finished or BLOCKED run is re-queued."""
        return self._post(
            f"/agent/runs/{path_param('run_id', run_id)}/followups",
            body=strip_not_given({"message": message, "mode": mode}),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=RunAgentResponse,
        )

    def answer(self, run_id: str, text: str, *, timeout: Union[Timeout, NotGiven] = NOT_GIVEN) -> RunAgentResponse:
        """Answer the question of a BLOCKED run (``run_question(run)``): a follow-up with ``text`` as its message,
        so the run is re-queued and continues its conversation with the answer."""
        return self.followup(run_id, message=text, timeout=timeout)

    def conversation(
        self,
        run_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ConversationResponse:
        """The run's conversation (getRunConversation)."""
        return self._get(
            f"/agent/runs/{path_param('run_id', run_id)}/conversation",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ConversationResponse,
        )

    def setup_log(
        self,
        run_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> RunSetupLog:
        """What the run's environment setup commands printed, secrets shown as ``***`` (getRunSetupLog, admin keys only)."""
        return self._get(
            f"/agent/runs/{path_param('run_id', run_id)}/setup-log",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=RunSetupLog,
        )

    def attachment(
        self,
        run_id: str,
        name: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> bytes:
        """The bytes of one attachment (getRunAttachment), e.g. ``event-payload.json``. For headers
        (``Content-Type``, ``Content-Disposition``) use ``.with_raw_response.attachment(...)``."""
        return self._get(
            f"/agent/runs/{path_param('run_id', run_id)}/attachments/{path_param('name', name)}",
            options=make_request_options(
                extra_headers={"Accept": "*/*", **(extra_headers or {})}, extra_query=extra_query,
                extra_body=extra_body, timeout=timeout,
            ),
            cast_to=bytes,
        )

    def transcript(
        self,
        run_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> str:
        """The run's transcript (getRunTranscript): JSON Lines, one message of the conversation per line
        (``TranscriptLine``). The server answers a 302 to a signed URL that expires; the client follows it."""
        return self._get(
            f"/agent/runs/{path_param('run_id', run_id)}/transcript",
            options=make_request_options(
                extra_headers={"Accept": "application/x-ndjson", **(extra_headers or {})}, extra_query=extra_query,
                extra_body=extra_body, timeout=timeout,
            ),
            cast_to=str,
        )

    def download_transcript(
        self,
        run_id: str,
        *,
        token: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> str:
        """The transcript behind a download URL ``transcript`` was redirected to, by its ``token``
        (downloadRunTranscript; needs no API key)."""
        return self._get(
            f"/agent/runs/{path_param('run_id', run_id)}/transcript/download",
            options=make_request_options(
                query={"token": token}, extra_headers={"Accept": "application/x-ndjson", **(extra_headers or {})},
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
            cast_to=str,
        )

    def events(
        self,
        run_id: str,
        *,
        last_event_id: Union[str, int, None] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> RunEventStream[RunEvent]:
        """The run's events (streamRunEvents) as an iterator of `RunEvent`. Reconnects with
        ``Last-Event-ID`` when the connection drops and stops after the terminal ``state`` event.
        Use it as a context manager (or call ``.close()``) to stop early."""
        return self._get(
            f"/agent/runs/{path_param('run_id', run_id)}/events",
            options=make_request_options(
                extra_headers=_events_accept(_events_headers(last_event_id, extra_headers)),
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
            cast_to=RunEvent,
            stream=True,
            stream_cls=RunEventStream,
        )

    def team_events(
        self,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> TeamRunEventStream[RunEvent]:
        """The state changes of every run of the team as they happen (streamTeamRunEvents): ``state``
        events of all the team's runs, a new run's first ``QUEUED`` included, for live run lists. No
        replay and no ids: open the stream, then read the list, and re-read it after a reconnection
        (changes made while the connection was down are not sent). Never ends by itself: use it as a
        context manager or call ``.close()``. Per server process today (see the contract)."""
        return self._get(
            "/agent/run-events",
            options=make_request_options(
                extra_headers=_events_accept(extra_headers), extra_query=extra_query, extra_body=extra_body,
                timeout=timeout,
            ),
            cast_to=RunEvent,
            stream=True,
            stream_cls=TeamRunEventStream,
        )

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
            prompt=prompt, title=title, config=config, attachments=attachments, extra_headers=extra_headers,
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


class AsyncRuns(AsyncAPIResource):
    @property
    def with_raw_response(self) -> "AsyncRunsWithRawResponse":
        return AsyncRunsWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncRunsWithStreamingResponse":
        return AsyncRunsWithStreamingResponse(self)

    async def create(
        self,
        *,
        prompt: Union[str, NotGiven] = NOT_GIVEN,
        skill: Union[str, NotGiven] = NOT_GIVEN,
        title: Union[str, NotGiven] = NOT_GIVEN,
        config: Union[AmbientAgentConfigParam, NotGiven] = NOT_GIVEN,
        metadata: Union[Dict[str, str], NotGiven] = NOT_GIVEN,
        parent_run_id: Union[str, NotGiven] = NOT_GIVEN,
        attachments: Union[Sequence[RunAttachmentInputParam], NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> RunAgentResponse:
        """Start a run (createRun, ``POST /agent/runs``). Answers ``{run_id, task_id, state}``. ``prompt`` may be
        left out when a skill is given (``skill``, ``config.skill_spec`` or ``config.skills``); ``metadata`` and
        ``parent_run_id`` are fixed at creation (a child inherits its parent's metadata)."""
        return await self._post(
            "/agent/runs",
            body=_create_body(
                prompt=prompt, skill=skill, title=title, config=config, metadata=metadata, parent_run_id=parent_run_id,
                attachments=attachments,
            ),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=RunAgentResponse,
        )

    def list(
        self,
        *,
        limit: Union[int, NotGiven] = NOT_GIVEN,
        cursor: Union[str, NotGiven] = NOT_GIVEN,
        sort_by: Union[str, NotGiven] = NOT_GIVEN,
        sort_order: Union[str, NotGiven] = NOT_GIVEN,
        state: Union[RunState, Sequence[RunState], NotGiven] = NOT_GIVEN,
        name: Union[str, NotGiven] = NOT_GIVEN,
        model_id: Union[str, NotGiven] = NOT_GIVEN,
        creator: Union[str, NotGiven] = NOT_GIVEN,
        source: Union[RunSourceType, NotGiven] = NOT_GIVEN,
        factory_uid: Union[str, NotGiven] = NOT_GIVEN,
        automation_id: Union[str, NotGiven] = NOT_GIVEN,
        delivery_id: Union[str, NotGiven] = NOT_GIVEN,
        session_id: Union[str, NotGiven] = NOT_GIVEN,
        created_after: Union[str, Any, NotGiven] = NOT_GIVEN,
        created_before: Union[str, Any, NotGiven] = NOT_GIVEN,
        updated_after: Union[str, Any, NotGiven] = NOT_GIVEN,
        q: Union[str, NotGiven] = NOT_GIVEN,
        environment_id: Union[str, NotGiven] = NOT_GIVEN,
        skill: Union[str, NotGiven] = NOT_GIVEN,
        skill_spec: Union[str, NotGiven] = NOT_GIVEN,
        ancestor_run_id: Union[str, NotGiven] = NOT_GIVEN,
        metadata: Union[Dict[str, str], NotGiven] = NOT_GIVEN,
        executor: Union[str, NotGiven] = NOT_GIVEN,
        execution_location: Union[RunExecutionLocation, NotGiven] = NOT_GIVEN,
        schedule_id: Union[str, NotGiven] = NOT_GIVEN,
        artifact_type: Union[RunArtifactType, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> AsyncPaginator[RunItem, AsyncCursorPage[RunItem]]:
        """List runs (listRuns): ``await`` for the first page, or ``async for`` over every run."""
        query = _list_query(
            limit=limit, cursor=cursor, sort_by=sort_by, sort_order=sort_order, state=state, name=name,
            model_id=model_id, creator=creator, source=source, factory_uid=factory_uid,
            automation_id=automation_id, delivery_id=delivery_id, session_id=session_id, created_after=created_after, created_before=created_before,
            updated_after=updated_after, q=q, environment_id=environment_id, skill=skill, skill_spec=skill_spec,
            ancestor_run_id=ancestor_run_id, metadata=metadata, executor=executor,
            execution_location=execution_location, schedule_id=schedule_id, artifact_type=artifact_type,
        )
        return self._get_api_list(
            "/agent/runs",
            page=AsyncCursorPage[RunItem],
            model=ListRunsResponse,
            items_key="runs",
            options=make_request_options(
                query=query, extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body,
                timeout=timeout,
            ),
        )

    async def retrieve_by_external_reference(
        self,
        url: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> RunByExternalReferenceResponse:
        """The run of the team that published an EXTERNAL_REFERENCE artifact with exactly this URL
        (getRunByExternalReferenceURL)."""
        return await self._get(
            "/agent/run-by-external-reference",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout,
                query={"url": url},
            ),
            cast_to=RunByExternalReferenceResponse,
        )

    async def retrieve(
        self,
        run_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> RunItem:
        """One run (getRun)."""
        return await self._get(
            f"/agent/runs/{path_param('run_id', run_id)}",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=RunItem,
        )

    async def cancel(
        self,
        run_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> str:
        """Cancel a run (cancelRun). Answers the run id; a run already terminal (``CANCELLED`` included) raises
        `BadRequestError`, a ``PENDING`` one `ConflictError` (retryable), as in the Oz API."""
        return await self._post(
            f"/agent/runs/{path_param('run_id', run_id)}/cancel",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=str,
        )

    async def followup(
        self,
        run_id: str,
        *,
        message: str,
        mode: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> RunAgentResponse:
        """Send a follow-up message (createRunFollowup); a finished or BLOCKED run is re-queued."""
        return await self._post(
            f"/agent/runs/{path_param('run_id', run_id)}/followups",
            body=strip_not_given({"message": message, "mode": mode}),
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=RunAgentResponse,
        )

    async def answer(self, run_id: str, text: str, *, timeout: Union[Timeout, NotGiven] = NOT_GIVEN) -> RunAgentResponse:
        """Answer the question of a BLOCKED run (``run_question(run)``): a follow-up with ``text`` as its message,
        so the run is re-queued and continues its conversation with the answer."""
        return await self.followup(run_id, message=text, timeout=timeout)

    async def conversation(
        self,
        run_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> ConversationResponse:
        """The run's conversation (getRunConversation)."""
        return await self._get(
            f"/agent/runs/{path_param('run_id', run_id)}/conversation",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=ConversationResponse,
        )

    async def setup_log(
        self,
        run_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> RunSetupLog:
        """What the run's environment setup commands printed, secrets shown as ``***`` (getRunSetupLog, admin keys only)."""
        return await self._get(
            f"/agent/runs/{path_param('run_id', run_id)}/setup-log",
            options=make_request_options(
                extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
            ),
            cast_to=RunSetupLog,
        )

    async def attachment(
        self,
        run_id: str,
        name: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> bytes:
        """The bytes of one attachment (getRunAttachment)."""
        return await self._get(
            f"/agent/runs/{path_param('run_id', run_id)}/attachments/{path_param('name', name)}",
            options=make_request_options(
                extra_headers={"Accept": "*/*", **(extra_headers or {})}, extra_query=extra_query,
                extra_body=extra_body, timeout=timeout,
            ),
            cast_to=bytes,
        )

    async def transcript(
        self,
        run_id: str,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> str:
        """The run's transcript (getRunTranscript): JSON Lines, one message of the conversation per line
        (``TranscriptLine``). The server answers a 302 to a signed URL that expires; the client follows it."""
        return await self._get(
            f"/agent/runs/{path_param('run_id', run_id)}/transcript",
            options=make_request_options(
                extra_headers={"Accept": "application/x-ndjson", **(extra_headers or {})}, extra_query=extra_query,
                extra_body=extra_body, timeout=timeout,
            ),
            cast_to=str,
        )

    async def download_transcript(
        self,
        run_id: str,
        *,
        token: str,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> str:
        """The transcript behind a download URL ``transcript`` was redirected to, by its ``token``
        (downloadRunTranscript; needs no API key)."""
        return await self._get(
            f"/agent/runs/{path_param('run_id', run_id)}/transcript/download",
            options=make_request_options(
                query={"token": token}, extra_headers={"Accept": "application/x-ndjson", **(extra_headers or {})},
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
            cast_to=str,
        )

    async def events(
        self,
        run_id: str,
        *,
        last_event_id: Union[str, int, None] = None,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> AsyncRunEventStream[RunEvent]:
        """The run's events (streamRunEvents): ``async for event in await client.agent.runs.events(id)``.
        Reconnects with ``Last-Event-ID``; stops after the terminal ``state`` event."""
        return await self._get(
            f"/agent/runs/{path_param('run_id', run_id)}/events",
            options=make_request_options(
                extra_headers=_events_accept(_events_headers(last_event_id, extra_headers)),
                extra_query=extra_query, extra_body=extra_body, timeout=timeout,
            ),
            cast_to=RunEvent,
            stream=True,
            stream_cls=AsyncRunEventStream,
        )

    async def team_events(
        self,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> AsyncTeamRunEventStream[RunEvent]:
        """The state changes of every run of the team as they happen (streamTeamRunEvents): ``state``
        events of all the team's runs, a new run's first ``QUEUED`` included, for live run lists. No
        replay and no ids: open the stream, then read the list, and re-read it after a reconnection
        (changes made while the connection was down are not sent). Never ends by itself: use it as a
        ``async with`` or call ``.close()``. Per server process today (see the contract)."""
        return await self._get(
            "/agent/run-events",
            options=make_request_options(
                extra_headers=_events_accept(extra_headers), extra_query=extra_query, extra_body=extra_body,
                timeout=timeout,
            ),
            cast_to=RunEvent,
            stream=True,
            stream_cls=AsyncTeamRunEventStream,
        )

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
            prompt=prompt, title=title, config=config, attachments=attachments, extra_headers=extra_headers,
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


class RunsWithRawResponse:
    def __init__(self, runs: Runs) -> None:
        self.create = to_raw_response_wrapper(runs.create)
        self.list = to_raw_response_wrapper(runs.list)
        self.retrieve = to_raw_response_wrapper(runs.retrieve)
        self.retrieve_by_external_reference = to_raw_response_wrapper(runs.retrieve_by_external_reference)
        self.cancel = to_raw_response_wrapper(runs.cancel)
        self.followup = to_raw_response_wrapper(runs.followup)
        self.conversation = to_raw_response_wrapper(runs.conversation)
        self.setup_log = to_raw_response_wrapper(runs.setup_log)
        self.attachment = to_raw_response_wrapper(runs.attachment)
        self.transcript = to_raw_response_wrapper(runs.transcript)
        self.download_transcript = to_raw_response_wrapper(runs.download_transcript)
        self.events = to_raw_response_wrapper(runs.events)
        self.team_events = to_raw_response_wrapper(runs.team_events)


class AsyncRunsWithRawResponse:
    def __init__(self, runs: AsyncRuns) -> None:
        self.create = async_to_raw_response_wrapper(runs.create)
        self.list = async_to_raw_response_wrapper(runs.list)
        self.retrieve = async_to_raw_response_wrapper(runs.retrieve)
        self.retrieve_by_external_reference = async_to_raw_response_wrapper(runs.retrieve_by_external_reference)
        self.cancel = async_to_raw_response_wrapper(runs.cancel)
        self.followup = async_to_raw_response_wrapper(runs.followup)
        self.conversation = async_to_raw_response_wrapper(runs.conversation)
        self.setup_log = async_to_raw_response_wrapper(runs.setup_log)
        self.attachment = async_to_raw_response_wrapper(runs.attachment)
        self.transcript = async_to_raw_response_wrapper(runs.transcript)
        self.download_transcript = async_to_raw_response_wrapper(runs.download_transcript)
        self.events = async_to_raw_response_wrapper(runs.events)
        self.team_events = async_to_raw_response_wrapper(runs.team_events)


class RunsWithStreamingResponse:
    def __init__(self, runs: Runs) -> None:
        self.create = to_streamed_response_wrapper(runs.create)
        self.list = to_streamed_response_wrapper(runs.list)
        self.retrieve = to_streamed_response_wrapper(runs.retrieve)
        self.retrieve_by_external_reference = to_streamed_response_wrapper(runs.retrieve_by_external_reference)
        self.cancel = to_streamed_response_wrapper(runs.cancel)
        self.followup = to_streamed_response_wrapper(runs.followup)
        self.conversation = to_streamed_response_wrapper(runs.conversation)
        self.setup_log = to_streamed_response_wrapper(runs.setup_log)
        self.attachment = to_streamed_response_wrapper(runs.attachment)
        self.transcript = to_streamed_response_wrapper(runs.transcript)
        self.download_transcript = to_streamed_response_wrapper(runs.download_transcript)
        self.events = to_streamed_response_wrapper(runs.events)
        self.team_events = to_streamed_response_wrapper(runs.team_events)


class AsyncRunsWithStreamingResponse:
    def __init__(self, runs: AsyncRuns) -> None:
        self.create = async_to_streamed_response_wrapper(runs.create)
        self.list = async_to_streamed_response_wrapper(runs.list)
        self.retrieve = async_to_streamed_response_wrapper(runs.retrieve)
        self.retrieve_by_external_reference = async_to_streamed_response_wrapper(runs.retrieve_by_external_reference)
        self.cancel = async_to_streamed_response_wrapper(runs.cancel)
        self.followup = async_to_streamed_response_wrapper(runs.followup)
        self.conversation = async_to_streamed_response_wrapper(runs.conversation)
        self.setup_log = async_to_streamed_response_wrapper(runs.setup_log)
        self.attachment = async_to_streamed_response_wrapper(runs.attachment)
        self.transcript = async_to_streamed_response_wrapper(runs.transcript)
        self.download_transcript = async_to_streamed_response_wrapper(runs.download_transcript)
        self.events = async_to_streamed_response_wrapper(runs.events)
        self.team_events = async_to_streamed_response_wrapper(runs.team_events)
