"""Models of the API's answers (pydantic, generated from openapi/v1.yaml) and TypedDicts for
request bodies (``...Param``)."""

from ._generated import *  # noqa: F401,F403
from ._generated import __all__ as _generated_all
from ._params import *  # noqa: F401,F403
from ._params import __all__ as _params_all
from .run_event import RunEvent

__all__ = [*_generated_all, *_params_all, "RunEvent"]
