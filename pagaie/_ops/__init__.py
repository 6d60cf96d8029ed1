"""Op records by family. Importing this package declares every op once.

Each family module lists in ``__all__`` the names it adds to the top-level
``paddle`` namespace; namespaced APIs (``paddle.linalg``, ``paddle.fft``) are
re-exported by their public modules.
"""
from importlib import import_module

FAMILIES = ("arith", "creation", "creation_range", "creation_matrix", "math", "math_unary", "math_cum", "reduce", "manipulation", "manipulation_join", "manipulation_window", "manipulation_tensor", "indexing", "indexing_scatter", "tensor_index", "logic", "search",
            "random", "linalg_basic", "linalg", "linalg_decomp", "fft", "stat", "fused", "fused_ffn", "tensor_array")

PUBLIC: dict = {}
for _family in FAMILIES:
    _mod = import_module(f"pagaie._ops.{_family}")
    for _name in getattr(_mod, "__all__", ()):
        PUBLIC[_name] = getattr(_mod, _name)
