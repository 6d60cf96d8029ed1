"""``paddle.distribution.transformed_distribution``: Paddle's module path of :class:`paddle.distribution.TransformedDistribution`."""
from pagaie.distribution import TransformedDistribution

__all__ = ["TransformedDistribution"]
