"""pagaie core: Tensor, dtypes, places, random state, flags and the op registry."""
