"""``paddle.sparse.nn.functional``: functional forms of the sparse layers."""
from pagaie._ops import sparse_nn as _n

conv2d = _n.sparse_conv2d
conv3d = _n.sparse_conv3d
subm_conv2d = _n.sparse_subm_conv2d
subm_conv2d_igemm = _n.sparse_subm_conv2d_igemm
subm_conv3d = _n.sparse_subm_conv3d
subm_conv3d_igemm = _n.sparse_subm_conv3d_igemm
max_pool3d = _n.sparse_max_pool3d
relu = _n.sparse_relu
relu6 = _n.sparse_relu6
leaky_relu = _n.sparse_leaky_relu
softmax = _n.sparse_softmax
attention = _n.sparse_attention_csr

__all__ = ["conv2d", "conv3d", "subm_conv2d", "subm_conv2d_igemm", "subm_conv3d",
           "subm_conv3d_igemm", "max_pool3d", "relu", "relu6", "leaky_relu", "softmax",
           "attention"]
