"""Loss layers: each stores its options and calls one ``paddle.nn.functional`` loss."""
from __future__ import annotations

from typing import Any

from pagaie._core import dtype as _dt
from pagaie._ops import nn_loss as _l
from pagaie._ops import nn_loss_extra as _x
from pagaie.nn.layer.layers import Layer, kw_alias

__all__ = ["BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "MSELoss", "L1Loss", "SmoothL1Loss",
           "NLLLoss", "KLDivLoss", "MarginRankingLoss", "CosineEmbeddingLoss", "TripletMarginLoss",
           "TripletMarginWithDistanceLoss", "HingeEmbeddingLoss", "SoftMarginLoss",
           "MultiLabelSoftMarginLoss", "MultiLabelMarginLoss", "MultiMarginLoss", "PoissonNLLLoss",
           "GaussianNLLLoss", "CTCLoss", "RNNTLoss", "HSigmoidLoss",
           "AdaptiveLogSoftmaxWithLoss"]


def _check_reduction(cls: str, reduction: str, allowed: tuple = ("sum", "mean", "none")) -> None:
    if reduction not in allowed:
        raise ValueError(f"paddle.nn.{cls}: the value of 'reduction' should be 'sum', 'mean' or "
                         f"'none', but received {reduction}, which is not allowed.")


class BCELoss(Layer):
    """Layer form of :func:`paddle.nn.functional.binary_cross_entropy` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.BCELoss()(paddle.to_tensor([0.5, 0.5]), paddle.to_tensor([1.0, 0.0]))
        >>> round(loss.item(), 4)
        0.6931
    """

    def __init__(self, weight: Any = None, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__()
        _check_reduction("BCELoss", reduction)
        self.weight = weight
        self.reduction = reduction
        self.name = name

    def forward(self, input: Any, label: Any) -> Any:
        return _l.binary_cross_entropy(input, label, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(Layer):
    """Layer form of :func:`paddle.nn.functional.binary_cross_entropy_with_logits` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.BCEWithLogitsLoss()(paddle.to_tensor([0.0, 0.0]), paddle.to_tensor([1.0, 0.0]))
        >>> round(loss.item(), 4)
        0.6931
    """

    def __init__(self, weight: Any = None, reduction: str = "mean", pos_weight: Any = None,
                 name: str | None = None) -> None:
        super().__init__()
        _check_reduction("BCEWithLogitsLoss", reduction)
        self.weight = weight
        self.reduction = reduction
        self.pos_weight = pos_weight
        self.name = name

    def forward(self, logit: Any, label: Any) -> Any:
        return _l.binary_cross_entropy_with_logits(logit, label, weight=self.weight,
                                                   reduction=self.reduction,
                                                   pos_weight=self.pos_weight)


class CrossEntropyLoss(Layer):
    """Layer form of :func:`paddle.nn.functional.cross_entropy` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.CrossEntropyLoss()(paddle.to_tensor([[2.0, 0.0]]), paddle.to_tensor([0]))
        >>> round(loss.item(), 4)
        0.1269
    """

    def __init__(self, weight: Any = None, ignore_index: Any = -100, reduction: str = "mean",
                 soft_label: Any = False, axis: Any = -1, use_softmax: Any = True,
                 label_smoothing: Any = 0.0, name: str | None = None) -> None:
        super().__init__()
        self.weight = weight
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.soft_label = soft_label
        self.axis = axis
        self.use_softmax = use_softmax
        self.label_smoothing = label_smoothing
        self.name = name

    @kw_alias("label", "target")
    def forward(self, input: Any, label: Any) -> Any:
        return _l.cross_entropy(input, label, weight=self.weight, ignore_index=self.ignore_index,
                                reduction=self.reduction, soft_label=self.soft_label,
                                axis=self.axis, use_softmax=self.use_softmax,
                                label_smoothing=self.label_smoothing)


class MSELoss(Layer):
    """Layer form of :func:`paddle.nn.functional.mse_loss` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.MSELoss()(paddle.to_tensor([1.0, 3.0]), paddle.to_tensor([0.0, 0.0]))
        >>> round(loss.item(), 4)
        5.0
    """

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        _check_reduction("MSELoss", reduction)
        self.reduction = reduction
        self.name = None

    def forward(self, input: Any, label: Any) -> Any:
        return _l.mse_loss(input, label, reduction=self.reduction)


class L1Loss(Layer):
    """Layer form of :func:`paddle.nn.functional.l1_loss` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.L1Loss()(paddle.to_tensor([1.0, -3.0]), paddle.to_tensor([0.0, 0.0]))
        >>> round(loss.item(), 4)
        2.0
    """

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        _check_reduction("L1Loss", reduction)
        self.reduction = reduction
        self.name = name

    def forward(self, input: Any, label: Any) -> Any:
        return _l.l1_loss(input, label, reduction=self.reduction)


class SmoothL1Loss(Layer):
    """Layer form of :func:`paddle.nn.functional.smooth_l1_loss` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.SmoothL1Loss()(paddle.to_tensor([0.5, 3.0]), paddle.zeros([2]))
        >>> round(loss.item(), 4)
        1.3125
    """

    def __init__(self, reduction: str = "mean", delta: Any = 1.0, is_huber: Any = True,
                 name: str | None = None) -> None:
        super().__init__()
        self.reduction = reduction
        self.delta = delta
        self.is_huber = is_huber
        self.name = name

    @kw_alias("label", "target")
    def forward(self, input: Any, label: Any) -> Any:
        return _l.smooth_l1_loss(input, label, reduction=self.reduction, delta=self.delta,
                                 is_huber=self.is_huber)


class NLLLoss(Layer):
    """Layer form of :func:`paddle.nn.functional.nll_loss` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.NLLLoss()(paddle.to_tensor([[-0.5, -1.0]]), paddle.to_tensor([0]))
        >>> round(loss.item(), 4)
        0.5
    """

    def __init__(self, weight: Any = None, ignore_index: Any = -100, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__()
        _check_reduction("NLLLoss", reduction)
        self._weight = weight   # a Tensor weight is the buffer '_weight', as in Paddle
        self._ignore_index = ignore_index
        self._reduction = reduction
        self._name = name

    def forward(self, input: Any, label: Any) -> Any:
        return _l.nll_loss(input, label, weight=self._weight, ignore_index=self._ignore_index,
                           reduction=self._reduction)


class KLDivLoss(Layer):
    """Layer form of :func:`paddle.nn.functional.kl_div` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.KLDivLoss()(paddle.to_tensor([[-1.0, -1.0]]), paddle.to_tensor([[0.5, 0.5]]))
        >>> round(loss.item(), 4)
        0.1534
    """

    def __init__(self, reduction: str = "mean", log_target: Any = False) -> None:
        super().__init__()
        self.reduction = reduction
        self.log_target = log_target
        self.name = None

    def forward(self, input: Any, label: Any) -> Any:
        return _l.kl_div(input, label, reduction=self.reduction, log_target=self.log_target)


class MarginRankingLoss(Layer):
    """Layer form of :func:`paddle.nn.functional.margin_ranking_loss` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.MarginRankingLoss()(paddle.to_tensor([1.0]), paddle.to_tensor([2.0]), paddle.to_tensor([1.0]))
        >>> round(loss.item(), 4)
        1.0
    """

    def __init__(self, margin: Any = 0.0, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        _check_reduction("MarginRankingLoss", reduction)
        self.margin = margin
        self.reduction = reduction
        self.name = name

    def forward(self, input: Any, other: Any, label: Any) -> Any:
        return _x.margin_ranking_loss(input, other, label, margin=self.margin,
                                      reduction=self.reduction)


class CosineEmbeddingLoss(Layer):
    """Layer form of :func:`paddle.nn.functional.cosine_embedding_loss` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.CosineEmbeddingLoss()(paddle.to_tensor([[1.0, 0.0]]), paddle.to_tensor([[0.0, 1.0]]), paddle.to_tensor([1]))
        >>> round(loss.item(), 4)
        1.0
    """

    def __init__(self, margin: Any = 0, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        # the layer checks the margin (the functional form does not); a non-number does not
        # compare: TypeError, as in Paddle
        if margin > 1 or margin < -1:
            raise ValueError("paddle.nn.CosineEmbeddingLoss: the value of 'margin' should be in "
                             f"the interval of [-1, 1], but received {margin}")
        _check_reduction("CosineEmbeddingLoss", reduction)
        self.margin = margin
        self.reduction = reduction
        self.name = name

    def forward(self, input1: Any, input2: Any, label: Any) -> Any:
        return _x.cosine_embedding_loss(input1, input2, label, margin=self.margin,
                                        reduction=self.reduction)


class TripletMarginLoss(Layer):
    """Layer form of :func:`paddle.nn.functional.triplet_margin_loss` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.TripletMarginLoss()(paddle.zeros([1, 2]), paddle.zeros([1, 2]), paddle.full([1, 2], 3.0))
        >>> round(loss.item(), 4)
        0.0
    """

    def __init__(self, margin: Any = 1.0, p: Any = 2.0, epsilon: Any = 1e-06, swap: Any = False,
                 reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        _check_reduction("TripletMarginLoss", reduction)
        self.margin = margin
        self.p = p
        self.epsilon = epsilon
        self.swap = swap
        self.reduction = reduction
        self.name = name

    def forward(self, input: Any, positive: Any, negative: Any) -> Any:
        return _x.triplet_margin_loss(input, positive, negative, margin=self.margin, p=self.p,
                                      epsilon=self.epsilon, swap=self.swap,
                                      reduction=self.reduction)


class TripletMarginWithDistanceLoss(Layer):
    """Layer form of :func:`paddle.nn.functional.triplet_margin_with_distance_loss` (same options, same defaults).

    As in Paddle 3.3.1, ``distance_function`` is stored as an attribute but the loss uses the
    default pairwise L2 distance.

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.TripletMarginWithDistanceLoss()(paddle.zeros([1, 2]), paddle.zeros([1, 2]), paddle.full([1, 2], 3.0))
        >>> round(loss.item(), 4)
        0.0
    """

    def __init__(self, distance_function: Any = None, margin: Any = 1.0, swap: Any = False,
                 reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        _check_reduction("TripletMarginWithDistanceLoss", reduction)
        self.distance_function = distance_function
        self.margin = margin
        self.swap = swap
        self.reduction = reduction
        self.name = name

    def forward(self, input: Any, positive: Any, negative: Any) -> Any:
        # Paddle 3.3.1's layer keeps ``distance_function`` but never passes it on: the loss
        # always measures the default pairwise (L2) distance
        return _x.triplet_margin_with_distance_loss(input, positive, negative,
                                                    margin=self.margin, swap=self.swap,
                                                    reduction=self.reduction)


class HingeEmbeddingLoss(Layer):
    """Layer form of :func:`paddle.nn.functional.hinge_embedding_loss` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.HingeEmbeddingLoss()(paddle.to_tensor([0.3, 0.2]), paddle.to_tensor([1.0, -1.0]))
        >>> round(loss.item(), 4)
        0.55
    """

    def __init__(self, margin: Any = 1.0, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        self.margin = margin
        self.reduction = reduction
        self.name = name

    def forward(self, input: Any, label: Any) -> Any:
        return _x.hinge_embedding_loss(input, label, margin=self.margin, reduction=self.reduction)


class SoftMarginLoss(Layer):
    """Layer form of :func:`paddle.nn.functional.soft_margin_loss` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.SoftMarginLoss()(paddle.to_tensor([0.0]), paddle.to_tensor([1.0]))
        >>> round(loss.item(), 4)
        0.6931
    """

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        _check_reduction("SoftMarginLoss", reduction)
        self.reduction = reduction
        self.name = name

    def forward(self, input: Any, label: Any) -> Any:
        return _x.soft_margin_loss(input, label, reduction=self.reduction)


class MultiLabelSoftMarginLoss(Layer):
    """Layer form of :func:`paddle.nn.functional.multi_label_soft_margin_loss` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.MultiLabelSoftMarginLoss()(paddle.zeros([1, 2]), paddle.to_tensor([[1.0, 0.0]]))
        >>> round(loss.item(), 4)
        0.6931
    """

    def __init__(self, weight: Any = None, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__()
        _check_reduction("MultiLabelSoftMarginLoss", reduction)
        self.weight = weight
        self.reduction = reduction
        self.name = name

    def forward(self, input: Any, label: Any) -> Any:
        return _x.multi_label_soft_margin_loss(input, label, weight=self.weight,
                                               reduction=self.reduction)


class MultiLabelMarginLoss(Layer):
    """Layer form of :func:`paddle.nn.functional.multi_label_margin_loss` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.MultiLabelMarginLoss()(paddle.to_tensor([[0.1, 0.2, 0.4, 0.8]]), paddle.to_tensor([[3, 0, -1, 1]]))
        >>> round(loss.item(), 4)
        0.85
    """

    def __init__(self, reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        _check_reduction("MultiLabelMarginLoss", reduction)
        self.reduction = reduction
        self.name = name

    def forward(self, input: Any, label: Any) -> Any:
        return _x.multi_label_margin_loss(input, label, reduction=self.reduction)


class MultiMarginLoss(Layer):
    """Layer form of :func:`paddle.nn.functional.multi_margin_loss` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.MultiMarginLoss()(paddle.to_tensor([[0.1, 0.2, 0.4, 0.8]]), paddle.to_tensor([3]))
        >>> round(loss.item(), 4)
        0.325
    """

    def __init__(self, p: Any = 1, margin: Any = 1.0, weight: Any = None, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__()
        _check_reduction("MultiMarginLoss", reduction)
        self.p = p
        self.margin = margin
        self.weight = weight
        self.reduction = reduction
        self.name = name

    def forward(self, input: Any, label: Any) -> Any:
        return _x.multi_margin_loss(input, label, p=self.p, margin=self.margin, weight=self.weight,
                                    reduction=self.reduction)


class PoissonNLLLoss(Layer):
    """Layer form of :func:`paddle.nn.functional.poisson_nll_loss` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.PoissonNLLLoss()(paddle.to_tensor([0.0]), paddle.to_tensor([1.0]))
        >>> round(loss.item(), 4)
        1.0
    """

    def __init__(self, log_input: Any = True, full: Any = False, epsilon: Any = 1e-08,
                 reduction: str = "mean", name: str | None = None) -> None:
        super().__init__()
        if epsilon <= 0:
            raise ValueError(f"The value of `epsilon` in PoissonNLLLoss should be positive, but "
                             f"received {epsilon}, which is not allowed")
        _check_reduction("PoissonNLLLoss", reduction)
        self._log_input = log_input
        self._full = full
        self._epsilon = epsilon
        self._reduction = reduction
        self._name = name

    def forward(self, input: Any, label: Any) -> Any:
        return _x.poisson_nll_loss(input, label, log_input=self._log_input, full=self._full,
                                   epsilon=self._epsilon, reduction=self._reduction)


class GaussianNLLLoss(Layer):
    """Layer form of :func:`paddle.nn.functional.gaussian_nll_loss` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.GaussianNLLLoss()(paddle.to_tensor([1.0]), paddle.to_tensor([3.0]), paddle.to_tensor([1.0]))
        >>> round(loss.item(), 4)
        2.0
    """

    def __init__(self, full: Any = False, epsilon: Any = 1e-06, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__()
        _check_reduction("GaussianNLLLoss", reduction)
        self.full = full
        self.epsilon = epsilon
        self.reduction = reduction
        self.name = name

    def forward(self, input: Any, label: Any, variance: Any) -> Any:
        return _x.gaussian_nll_loss(input, label, variance, full=self.full, epsilon=self.epsilon,
                                    reduction=self.reduction)


class CTCLoss(Layer):
    """Layer form of :func:`paddle.nn.functional.ctc_loss` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.CTCLoss()(paddle.zeros([3, 1, 2]), paddle.to_tensor([[1]], dtype='int32'), paddle.to_tensor([3]), paddle.to_tensor([1]))
        >>> round(loss.item(), 4)
        0.2877
    """

    def __init__(self, blank: Any = 0, reduction: str = "mean", zero_infinity: Any = False) -> None:
        super().__init__()
        self.blank = blank
        self.reduction = reduction
        self.zero_infinity = zero_infinity
        self.name = None

    def forward(self, log_probs: Any, labels: Any, input_lengths: Any, label_lengths: Any,
                norm_by_times: bool = False) -> Any:
        return _l.ctc_loss(log_probs, labels, input_lengths, label_lengths, blank=self.blank,
                           reduction=self.reduction, zero_infinity=self.zero_infinity,
                           norm_by_times=norm_by_times)


class RNNTLoss(Layer):
    """Layer form of :func:`paddle.nn.functional.rnnt_loss` (same options, same defaults).

    Examples:
        >>> import pagaie as paddle
        >>> loss = paddle.nn.RNNTLoss()(paddle.zeros([1, 2, 2, 3]), paddle.to_tensor([[1]], dtype='int32'), paddle.to_tensor([2], dtype='int32'), paddle.to_tensor([1], dtype='int32'))
        >>> round(loss.item(), 4)
        -0.6931
    """

    def __init__(self, blank: Any = 0, fastemit_lambda: Any = 0.001, reduction: str = "mean",
                 name: str | None = None) -> None:
        super().__init__()
        self.blank = blank
        self.fastemit_lambda = fastemit_lambda
        self.reduction = reduction
        self.name = name

    def forward(self, input: Any, label: Any, input_lengths: Any, label_lengths: Any) -> Any:
        return _l.rnnt_loss(input, label, input_lengths, label_lengths, blank=self.blank,
                            fastemit_lambda=self.fastemit_lambda, reduction=self.reduction)


class HSigmoidLoss(Layer):
    """Hierarchical sigmoid loss layer (:func:`paddle.nn.functional.hsigmoid_loss`).

    Parameters: ``weight`` ``[num_classes - 1, feature_size]`` (``[num_classes, ...]`` with
    ``is_custom``) and ``bias`` ``[num_classes - 1, 1]``.

    Args:
        feature_size (int): the input feature size.
        num_classes (int): the number of classes (tree nodes with ``is_custom``).
        weight_attr (ParamAttr, optional): weight attributes.
        bias_attr (ParamAttr|bool, optional): bias attributes; False: no bias.
        is_custom (bool): paths are given in ``forward(..., path_table, path_code)``.
        is_sparse (bool): unused.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> layer = paddle.nn.HSigmoidLoss(3, 5)
        With sparse mode, if your models has only small parameter prefetch may cause speed down
        >>> layer(paddle.rand([2, 3]), paddle.to_tensor([0, 4])).shape
        paddle.Size([2, 1])
    """

    def __init__(self, feature_size: int, num_classes: int, weight_attr: Any = None,
                 bias_attr: Any = None, is_custom: bool = False, is_sparse: bool = False,
                 name: str | None = None) -> None:
        super().__init__()
        if num_classes < 2 and not is_custom:
            raise ValueError(f"paddle.nn.HSigmoidLoss: num_classes must not be less than 2 with "
                             f"the default tree, but received {num_classes}")
        # Paddle prints these two notices (the second one always)
        if is_sparse and not is_custom:
            print("Sparse mode should not be used without custom tree")
            is_sparse = False
        print("With sparse mode, if your models has only small parameter prefetch may cause speed down")
        self._feature_size, self._num_classes = feature_size, num_classes
        self._is_custom, self._is_sparse = is_custom, is_sparse
        self._weight_attr, self._bias_attr, self._name = weight_attr, bias_attr, name
        self._dtype = _dt.get_default_dtype()
        rows = num_classes if is_custom else num_classes - 1
        self.weight = self.create_parameter([rows, feature_size], attr=weight_attr)
        self.bias = self.create_parameter([rows, 1], attr=bias_attr, is_bias=True)

    def forward(self, input: Any, label: Any, path_table: Any = None, path_code: Any = None) -> Any:
        return _x.hsigmoid_loss(input, label, self._num_classes, self.weight, self.bias,
                                path_table=path_table, path_code=path_code,
                                is_sparse=self._is_sparse)


class AdaptiveLogSoftmaxWithLoss(Layer):
    """Adaptive softmax with loss (:func:`paddle.nn.functional.adaptive_log_softmax_with_loss`).

    ``head_weight`` is ``[in_features, cutoffs[0] + n_clusters]``; cluster ``i`` has a
    projection ``[in_features, in_features // div_value ** (i + 1)]`` and an output weight
    (kept in the plain list ``tail_weights``, as Paddle does).

    Args:
        in_features (int): the input feature size.
        n_classes (int): the number of classes.
        cutoffs (list): increasing cluster boundaries below ``n_classes``.
        weight_attr (ParamAttr, optional): weight attributes.
        bias_attr (ParamAttr, optional): head bias attributes.
        div_value (float): the cluster size divisor.
        head_bias (bool): whether the head has a bias.
        name (str, optional): unused.

    Examples:
        >>> import pagaie as paddle
        >>> m = paddle.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4, 7])
        >>> out, loss = m(paddle.rand([3, 8]), paddle.to_tensor([0, 5, 9]))
        >>> out.shape, loss.shape
        (paddle.Size([3]), paddle.Size([]))
    """

    def __init__(self, in_features: int, n_classes: int, cutoffs: Any, weight_attr: Any = None,
                 bias_attr: Any = None, div_value: float = 4.0, head_bias: bool = False,
                 name: str | None = None) -> None:
        super().__init__()
        cutoffs = list(cutoffs)
        if (not cutoffs or cutoffs != sorted(cutoffs) or min(cutoffs) <= 0
                or max(cutoffs) > n_classes - 1 or len(set(cutoffs)) != len(cutoffs)
                or any(int(c) != c for c in cutoffs)):
            raise ValueError("paddle.nn.AdaptiveLogSoftmaxWithLoss: cutoffs should be a sequence of "
                             "unique, positive integers sorted in an increasing order, where each "
                             f"value is between 1 and n_classes-1 ({n_classes - 1}), but received "
                             f"{cutoffs}")
        self.in_features, self.n_classes = in_features, n_classes
        self._weight_attr, self._bias_attr = weight_attr, bias_attr
        self._dtype = _dt.get_default_dtype()
        self.cutoffs = cutoffs + [n_classes]
        self.div_value = div_value
        self.is_head_bias = head_bias
        self.shortlist_size = self.cutoffs[0]
        self.n_clusters = len(self.cutoffs) - 1
        self.head_size = self.shortlist_size + self.n_clusters
        self.head_weight = self.create_parameter([in_features, self.head_size], attr=weight_attr)
        self.head_bias = (self.create_parameter([self.head_size], attr=bias_attr, is_bias=True)
                          if head_bias else None)
        tails = []
        for i in range(self.n_clusters):
            hsz = int(in_features // (div_value ** (i + 1)))
            osz = self.cutoffs[i + 1] - self.cutoffs[i]
            tails.append([self.create_parameter([in_features, hsz], attr=weight_attr),
                          self.create_parameter([hsz, osz], attr=weight_attr)])
        self.tail_weights = tails

    def forward(self, input: Any, label: Any) -> Any:
        return _x.adaptive_log_softmax_with_loss(input, label, self.head_weight,
                                                 self.tail_weights, self.cutoffs, self.head_bias)

    def log_prob(self, input: Any) -> Any:
        """Log-probabilities of every class, ``[N, n_classes]``."""
        import pagaie
        import pagaie.nn.functional as F
        head = pagaie.matmul(input, self.head_weight)
        if self.head_bias is not None:
            head = head + self.head_bias
        head_logp = F.log_softmax(head, axis=1)
        parts = [head_logp[:, :self.shortlist_size]]
        for i, (proj, outw) in enumerate(self.tail_weights):
            clus = F.log_softmax(pagaie.matmul(pagaie.matmul(input, proj), outw), axis=1)
            parts.append(clus + head_logp[:, self.shortlist_size + i:self.shortlist_size + i + 1])
        return pagaie.concat(parts, axis=1)

    def predict(self, input: Any) -> Any:
        """The most likely class of each row, ``[N]``.

        As in Paddle, the result is float32, except when no row's best head entry is a
        shortlist class (then it is int64).
        """
        import pagaie
        head = pagaie.matmul(input, self.head_weight)
        if self.head_bias is not None:
            head = head + self.head_bias
        out = pagaie.argmax(head, axis=1)
        tail = out >= self.shortlist_size
        if not bool(tail.any()):
            return out.astype("float32")
        full = pagaie.argmax(self.log_prob(input), axis=1)
        if bool(tail.all()):
            return full
        return pagaie.where(tail, full, out).astype("float32")
