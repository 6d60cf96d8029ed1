"""``paddle.static.nn``: layers that create their own parameters, and control flow."""
from pagaie.static.nn.common import (batch_norm, bilinear_tensor_product, conv2d, conv2d_transpose,
                                     conv3d, conv3d_transpose, deform_conv2d, embedding, fc,
                                     group_norm, instance_norm, layer_norm, nce, prelu, row_conv,
                                     sparse_embedding, spectral_norm)
from pagaie.static.nn.control_flow import case, cond, static_pylayer, switch_case, while_loop
from pagaie.static.nn.extras import (py_func, sequence_conv, sequence_expand, sequence_first_step,
                                     sequence_last_step, sequence_pool, sequence_softmax)

__all__ = ["fc", "batch_norm", "bilinear_tensor_product", "embedding", "case", "cond", "conv2d",
           "conv2d_transpose", "conv3d", "conv3d_transpose", "deform_conv2d", "group_norm",
           "instance_norm", "layer_norm", "nce", "prelu", "py_func", "row_conv", "spectral_norm",
           "switch_case", "while_loop", "sparse_embedding", "sequence_conv", "sequence_softmax",
           "sequence_pool", "sequence_first_step", "sequence_last_step", "sequence_expand",
           "static_pylayer"]
