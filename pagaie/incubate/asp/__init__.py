"""``paddle.incubate.asp``: Automatic SParsity, ``n:m`` structured pruning (2:4 by default)
of Linear and Conv2D weights, and optimizers that keep the pruned weights at zero.

Mask utilities over numpy arrays live in :mod:`.masks`, the table of prunable layers in
:mod:`.supported_layers`, pruning and the optimizer wrapper in :mod:`.asp`.
"""
from pagaie.incubate.asp.asp import (OptimizerWithSparsityGuarantee, decorate, prune_model,
                                     reset_excluded_layers, set_excluded_layers)
from pagaie.incubate.asp.masks import (CheckMethod, MaskAlgo, calculate_density, check_mask_1d,
                                       check_mask_2d, check_sparsity, create_mask, get_mask_1d,
                                       get_mask_2d_best, get_mask_2d_greedy)
from pagaie.incubate.asp.supported_layers import add_supported_layer

__all__ = ["calculate_density", "decorate", "prune_model", "set_excluded_layers",
           "reset_excluded_layers", "add_supported_layer"]
