"""paddle.nn."""

__all__: list[str] = []
# Names listed here are also exported from the top-level ``paddle`` namespace.
__paddle_toplevel__: list[str] = []
