"""Models of the API's answers (pydantic, generated from openapi/v1.yaml) and TypedDicts for
request bodies (``...Param``)."""

from . import _generated, _params
from ._generated import *  # noqa: F403
from ._params import *  # noqa: F403
from .run_event import RunEvent

__all__ = ["RunEvent"]
__all__ += _generated.__all__
__all__ += _params.__all__
