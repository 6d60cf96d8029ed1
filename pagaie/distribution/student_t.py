"""``paddle.distribution.student_t``: Paddle's module path of :class:`paddle.distribution.StudentT`."""
from pagaie.distribution import StudentT

__all__ = ["StudentT"]
