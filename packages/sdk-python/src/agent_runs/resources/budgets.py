"""``client.budget`` and ``client.usage``: tag Budgets (the team's monthly budget and its usage per month)."""

from __future__ import annotations

from typing import Optional, Union

from .._base_client import make_request_options
from .._resource import AsyncAPIResource, SyncAPIResource
from .._response import (
    async_to_raw_response_wrapper,
    async_to_streamed_response_wrapper,
    to_raw_response_wrapper,
    to_streamed_response_wrapper,
)
from .._types import NOT_GIVEN, Body, Headers, NotGiven, Query, Timeout
from .._utils import strip_not_given
from ..types import TeamBudget, TeamUsage

__all__ = ["Budget", "AsyncBudget", "Usage", "AsyncUsage"]


def _options(
    extra_headers: Optional[Headers],
    extra_query: Optional[Query],
    extra_body: Optional[Body],
    timeout: Union[Timeout, NotGiven],
    query: Optional[Query] = None,
):
    return make_request_options(
        query=query, extra_headers=extra_headers, extra_query=extra_query, extra_body=extra_body, timeout=timeout
    )


def _limits(max_tokens_per_month: Union[int, None, NotGiven], max_cost_usd_per_month: Union[float, None, NotGiven]) -> Body:
    # None is sent (no limit); NOT_GIVEN is left out, which the server also reads as no limit.
    return strip_not_given({"max_tokens_per_month": max_tokens_per_month, "max_cost_usd_per_month": max_cost_usd_per_month})


class Budget(SyncAPIResource):
    @property
    def with_raw_response(self) -> "BudgetWithRawResponse":
        return BudgetWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "BudgetWithStreamingResponse":
        return BudgetWithStreamingResponse(self)

    def retrieve(
        self,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> TeamBudget:
        """The team's monthly limits and this month's use of them (getTeamBudget, any role)."""
        return self._get("/team/budget", options=_options(extra_headers, extra_query, extra_body, timeout), cast_to=TeamBudget)

    def update(
        self,
        *,
        max_tokens_per_month: Union[int, None, NotGiven] = NOT_GIVEN,
        max_cost_usd_per_month: Union[float, None, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> TeamBudget:
        """Replace the team's monthly limits (updateTeamBudget, admin); a limit left out or None is none."""
        return self._put(
            "/team/budget",
            body=_limits(max_tokens_per_month, max_cost_usd_per_month),
            options=_options(extra_headers, extra_query, extra_body, timeout),
            cast_to=TeamBudget,
        )


class AsyncBudget(AsyncAPIResource):
    @property
    def with_raw_response(self) -> "AsyncBudgetWithRawResponse":
        return AsyncBudgetWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncBudgetWithStreamingResponse":
        return AsyncBudgetWithStreamingResponse(self)

    async def retrieve(
        self,
        *,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> TeamBudget:
        """The team's monthly limits and this month's use of them (getTeamBudget, any role)."""
        return await self._get("/team/budget", options=_options(extra_headers, extra_query, extra_body, timeout), cast_to=TeamBudget)

    async def update(
        self,
        *,
        max_tokens_per_month: Union[int, None, NotGiven] = NOT_GIVEN,
        max_cost_usd_per_month: Union[float, None, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> TeamBudget:
        """Replace the team's monthly limits (updateTeamBudget, admin); a limit left out or None is none."""
        return await self._put(
            "/team/budget",
            body=_limits(max_tokens_per_month, max_cost_usd_per_month),
            options=_options(extra_headers, extra_query, extra_body, timeout),
            cast_to=TeamBudget,
        )


class Usage(SyncAPIResource):
    @property
    def with_raw_response(self) -> "UsageWithRawResponse":
        return UsageWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "UsageWithStreamingResponse":
        return UsageWithStreamingResponse(self)

    def retrieve(
        self,
        *,
        month: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> TeamUsage:
        """What the team's runs spent in a month, ``YYYY-MM`` (default this one, UTC), in total and per model (getTeamUsage)."""
        query = strip_not_given({"month": month})
        return self._get("/usage", options=_options(extra_headers, extra_query, extra_body, timeout, query), cast_to=TeamUsage)


class AsyncUsage(AsyncAPIResource):
    @property
    def with_raw_response(self) -> "AsyncUsageWithRawResponse":
        return AsyncUsageWithRawResponse(self)

    @property
    def with_streaming_response(self) -> "AsyncUsageWithStreamingResponse":
        return AsyncUsageWithStreamingResponse(self)

    async def retrieve(
        self,
        *,
        month: Union[str, NotGiven] = NOT_GIVEN,
        extra_headers: Optional[Headers] = None,
        extra_query: Optional[Query] = None,
        extra_body: Optional[Body] = None,
        timeout: Union[Timeout, NotGiven] = NOT_GIVEN,
    ) -> TeamUsage:
        """What the team's runs spent in a month, ``YYYY-MM`` (default this one, UTC), in total and per model (getTeamUsage)."""
        query = strip_not_given({"month": month})
        return await self._get("/usage", options=_options(extra_headers, extra_query, extra_body, timeout, query), cast_to=TeamUsage)


class BudgetWithRawResponse:
    def __init__(self, budget: Budget) -> None:
        self.retrieve = to_raw_response_wrapper(budget.retrieve)
        self.update = to_raw_response_wrapper(budget.update)


class AsyncBudgetWithRawResponse:
    def __init__(self, budget: AsyncBudget) -> None:
        self.retrieve = async_to_raw_response_wrapper(budget.retrieve)
        self.update = async_to_raw_response_wrapper(budget.update)


class BudgetWithStreamingResponse:
    def __init__(self, budget: Budget) -> None:
        self.retrieve = to_streamed_response_wrapper(budget.retrieve)
        self.update = to_streamed_response_wrapper(budget.update)


class AsyncBudgetWithStreamingResponse:
    def __init__(self, budget: AsyncBudget) -> None:
        self.retrieve = async_to_streamed_response_wrapper(budget.retrieve)
        self.update = async_to_streamed_response_wrapper(budget.update)


class UsageWithRawResponse:
    def __init__(self, usage: Usage) -> None:
        self.retrieve = to_raw_response_wrapper(usage.retrieve)


class AsyncUsageWithRawResponse:
    def __init__(self, usage: AsyncUsage) -> None:
        self.retrieve = async_to_raw_response_wrapper(usage.retrieve)


class UsageWithStreamingResponse:
    def __init__(self, usage: Usage) -> None:
        self.retrieve = to_streamed_response_wrapper(usage.retrieve)


class AsyncUsageWithStreamingResponse:
    def __init__(self, usage: AsyncUsage) -> None:
        self.retrieve = async_to_streamed_response_wrapper(usage.retrieve)
