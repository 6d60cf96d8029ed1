"""``paddle.nn.attention``: choosing the backend of scaled dot product attention."""
from pagaie.nn.attention import sdpa  # noqa: F401
from pagaie.nn.attention.sdpa import SDPBackend, _cur_sdpa_kernel_backends, sdpa_kernel  # noqa: F401

__all__ = ["SDPBackend", "sdpa_kernel"]
