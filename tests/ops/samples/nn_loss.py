"""Losses vs Paddle: values, dtypes, shapes and gradients for every option."""
import numpy as np

from tests.ops.samples import OpSample, T

L = "nn.functional."
X = T((4, 5))
LAB = T((4,), kind="index", high=5, dtype="int64")
LAB1 = T((4, 1), kind="index", high=5, dtype="int64")
W5 = T((5,), kind="pos", grad=False)
SOFT = T((4, 5), value=np.random.default_rng(3).dirichlet(np.ones(5), 4), grad=False)
P = T((3, 4), low=0.05, high=0.95, kind="unit")
Y01 = T((3, 4), kind="index", high=2, grad=False)
PM1 = T((4,), value=[1.0, -1.0, 1.0, -1.0], grad=False)


def _prob(shape):
    return T(shape, value=np.random.default_rng(5).uniform(0.05, 0.95, shape))


SAMPLES = [
    OpSample(L + "cross_entropy", [X, LAB]),
    OpSample(L + "cross_entropy", [X, LAB1], {"reduction": "none", "weight": W5}, id="ce_weight_none"),
    OpSample(L + "cross_entropy", [X, LAB], {"weight": W5, "ignore_index": 2}, id="ce_weight_ignore"),
    OpSample(L + "cross_entropy", [X, LAB], {"label_smoothing": 0.1, "weight": W5}, id="ce_smoothing"),
    OpSample(L + "cross_entropy", [X, SOFT], {"soft_label": True, "weight": W5}, id="ce_soft"),
    OpSample(L + "cross_entropy", [X, SOFT], {"soft_label": True, "reduction": "sum"},
             id="ce_soft_sum"),
    OpSample(L + "cross_entropy", [T((2, 5, 3)), T((2, 3), kind="index", high=5, dtype="int64")],
             {"axis": 1, "reduction": "sum"}, id="ce_axis1"),
    OpSample(L + "cross_entropy", [_prob((4, 5)), LAB], {"use_softmax": False}, id="ce_no_softmax"),
    OpSample(L + "softmax_with_cross_entropy", [X, LAB1], {"return_softmax": True}),
    OpSample(L + "softmax_with_cross_entropy", [X, SOFT], {"soft_label": True}, id="swce_soft"),
    OpSample(L + "binary_cross_entropy", [_prob((3, 4)), Y01], {"weight": T((4,), kind="pos", grad=False)}),
    OpSample(L + "binary_cross_entropy_with_logits", [T((3, 4)), Y01],
             {"pos_weight": T((4,), kind="pos", grad=False), "reduction": "sum"}),
    OpSample(L + "mse_loss", [X, T((4, 5))]),
    OpSample(L + "l1_loss", [X, T((4, 5))], {"reduction": "none"}),
    OpSample(L + "smooth_l1_loss", [X, T((4, 5), low=-9, high=9)], {"delta": 2.0}),
    OpSample(L + "smooth_l1_loss", [X, T((4, 5))], {"delta": 0.5, "is_huber": False},
             id="smooth_l1_not_huber"),
    OpSample(L + "nll_loss", [X, LAB], {"weight": W5, "ignore_index": 1}),
    OpSample(L + "nll_loss", [T((2, 5, 3)), T((2, 3), kind="index", high=5, dtype="int64")],
             {"reduction": "none"}, id="nll_loss_nd"),
    OpSample(L + "kl_div", [X, SOFT], {"reduction": "batchmean"}),
    OpSample(L + "kl_div", [X, T((4, 5))], {"log_target": True, "reduction": "none"}, id="kl_div_log"),
    OpSample(L + "margin_ranking_loss", [T((4,)), T((4,)), PM1], {"margin": 0.3}),
    OpSample(L + "cosine_embedding_loss", [T((4, 3)), T((4, 3)), T((4,), value=[1, -1, 1, -1],
                                                                      dtype="int64")], {"margin": 0.2}),
    OpSample(L + "triplet_margin_loss", [T((4, 3)), T((4, 3)), T((4, 3))], {"swap": True, "p": 1}),
    OpSample(L + "triplet_margin_with_distance_loss", [T((4, 3)), T((4, 3)), T((4, 3))],
             {"margin": 2.0, "reduction": "sum"}),
    OpSample(L + "hinge_embedding_loss", [T((4,)), PM1], {"margin": 0.5}),
    OpSample(L + "soft_margin_loss", [T((4,)), PM1]),
    OpSample(L + "multi_label_soft_margin_loss", [T((3, 4)), Y01], {"weight": T((4,), kind="pos", grad=False)}),
    OpSample(L + "multi_label_margin_loss", [T((2, 4)), T((2, 4), value=[[3, 0, -1, 1], [1, 2, 3, -1]],
                                                           dtype="int64")]),
    OpSample(L + "multi_margin_loss", [X, LAB], {"p": 2, "margin": 0.7, "weight": W5}),
    OpSample(L + "poisson_nll_loss", [X, T((4, 5), kind="pos", grad=False)], {"full": True}),
    OpSample(L + "poisson_nll_loss", [T((4, 5), kind="pos"), T((4, 5), kind="pos", grad=False)],
             {"log_input": False}, id="poisson_nll_loss_nolog"),
    OpSample(L + "gaussian_nll_loss", [X, T((4, 5)), T((4, 5), kind="pos")], {"full": True}),
    OpSample(L + "sigmoid_focal_loss", [T((3, 4)), Y01], {"normalizer": T((1,), kind="pos", grad=False)}),
    OpSample(L + "dice_loss", [T((2, 3, 4), value=np.random.default_rng(4).dirichlet(np.ones(4), (2, 3))),
                               T((2, 3, 1), kind="index", high=4, dtype="int64")]),
    OpSample(L + "log_loss", [_prob((4, 1)), T((4, 1), kind="index", high=2, grad=False)],
             dtypes=("float32",)),  # Paddle has no float64 kernel
    OpSample(L + "square_error_cost", [X, T((4, 5))]),
    OpSample(L + "npair_loss", [T((4, 3)), T((4, 3)), T((4,), value=[1, 2, 1, 3], grad=False)],
             dtypes=("float32",)),  # Paddle's float64 path fails
    OpSample(L + "ctc_loss", [T((6, 2, 4)), T((2, 3), value=[[1, 2, 3], [2, 2, 0]], dtype="int32"),
                              T((2,), value=[6, 5], dtype="int64"), T((2,), value=[3, 2], dtype="int64")],
             dtypes=("float32",)),
    OpSample(L + "ctc_loss", [T((6, 2, 4)), T((2, 3), value=[[0, 1, 2], [2, 2, 1]], dtype="int32"),
                              T((2,), value=[6, 5], dtype="int64"), T((2,), value=[3, 2], dtype="int64")],
             {"reduction": "none", "blank": 3}, dtypes=("float32",), id="ctc_loss_none"),
    OpSample(L + "rnnt_loss", [T((2, 3, 3, 4)), T((2, 2), value=[[1, 2], [3, 0]], dtype="int32"),
                               T((2,), value=[3, 2], dtype="int32"), T((2,), value=[2, 1], dtype="int32")],
             {"reduction": "sum"}, dtypes=("float32",), grad=False),
    OpSample(L + "hsigmoid_loss", [T((3, 4)), T((3,), value=[0, 3, 5], dtype="int64"), 6, T((5, 4)),
                                   T((5, 1))]),
]
