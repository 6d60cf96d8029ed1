"""paddle.nn.initializer: objects that fill a new parameter in place."""
from pagaie.nn.initializer.initializer import (  # noqa: F401
    Initializer, Constant, Normal, TruncatedNormal, Uniform, XavierNormal, XavierUniform,
    KaimingNormal, KaimingUniform, calculate_gain, set_global_initializer,
    ConstantInitializer, NormalInitializer, TruncatedNormalInitializer, UniformInitializer,
    XavierInitializer, MSRAInitializer,
)
from pagaie.nn.initializer.structured import (  # noqa: F401
    Orthogonal, Assign, Dirac, Bilinear, NumpyArrayInitializer,
)

__all__ = ["Bilinear", "Constant", "KaimingUniform", "KaimingNormal", "XavierNormal",
           "XavierUniform", "Assign", "Normal", "TruncatedNormal", "Uniform", "Orthogonal",
           "Dirac", "set_global_initializer", "calculate_gain"]
