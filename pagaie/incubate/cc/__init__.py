"""``paddle.incubate.cc``: the experimental fusion compiler's front end (``compile``, ``fuse``
hints, ``typing`` annotations). pagaie keeps the API and runs the compiled functions as
written (see :mod:`pagaie.incubate.cc.compiler`)."""
from pagaie.incubate.cc import fuse, typing  # noqa: F401
from pagaie.incubate.cc.compiler import compile  # noqa: A004

__all__ = ["fuse", "compile"]
