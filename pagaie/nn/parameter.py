"""paddle.nn.parameter: the Parameter class (``EagerParamBase`` is its Paddle 2 name)."""
from pagaie._core.parameter import Parameter

EagerParamBase = Parameter

__all__: list[str] = []
