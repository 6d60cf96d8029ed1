"""paddle.linalg."""

__all__: list[str] = []
