"""paddle.nn.utils: gradient clipping helpers, parameter/vector conversion, weight and
spectral normalisation."""
# the modules first, then the functions of the same names over them (as Paddle's package)
from pagaie.nn.utils.clip_grad_norm_ import clip_grad_norm_  # noqa: F401
from pagaie.nn.utils.clip_grad_value_ import clip_grad_value_  # noqa: F401
from pagaie.nn.utils.transform_parameters import parameters_to_vector, vector_to_parameters  # noqa: F401
from pagaie.nn.utils.weight_norm_hook import weight_norm, remove_weight_norm  # noqa: F401
from pagaie.nn.utils.spectral_norm_hook import spectral_norm  # noqa: F401

__all__ = ["weight_norm", "remove_weight_norm", "spectral_norm", "parameters_to_vector",
           "vector_to_parameters", "clip_grad_norm_", "clip_grad_value_"]
