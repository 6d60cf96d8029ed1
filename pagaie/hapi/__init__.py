"""``paddle.hapi``: the high-level API: ``Model``, ``summary``, ``flops`` and callbacks."""
from pagaie.hapi import callbacks, hub  # noqa: F401
from pagaie.hapi.flops import flops
from pagaie.hapi.model import Model
from pagaie.hapi.model_summary import summary

__all__: list[str] = []
# Names listed here are also exported from the top-level ``paddle`` namespace.
__paddle_toplevel__: list[str] = ["Model", "summary", "flops", "hub"]
