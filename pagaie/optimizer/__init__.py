"""paddle.optimizer: optimizers and learning-rate schedulers (``paddle.optimizer.lr``).

Every optimizer is an :class:`Optimizer` shell (parameters, groups, learning rate, weight
decay, gradient clipping, state dict) plus one small update rule over torch tensors.
"""
from pagaie.optimizer import lr  # noqa: F401
from pagaie.optimizer.optimizer import Optimizer
from pagaie.optimizer.sgd import SGD
from pagaie.optimizer.momentum import Momentum
from pagaie.optimizer.adam import Adam
from pagaie.optimizer.adamw import AdamW
from pagaie.optimizer.adamax import Adamax
from pagaie.optimizer.adagrad import Adagrad
from pagaie.optimizer.adadelta import Adadelta
from pagaie.optimizer.rmsprop import RMSProp
from pagaie.optimizer.lamb import Lamb
from pagaie.optimizer.nadam import NAdam
from pagaie.optimizer.radam import RAdam
from pagaie.optimizer.asgd import ASGD
from pagaie.optimizer.rprop import Rprop
from pagaie.optimizer.lbfgs import LBFGS

__all__: list[str] = [
    "Optimizer", "Adagrad", "Adam", "AdamW", "Adamax", "RMSProp", "Adadelta", "SGD", "Momentum",
    "Lamb", "LBFGS", "NAdam", "RAdam", "ASGD", "Rprop",
]
# Names listed here are also exported from the top-level ``paddle`` namespace.
__paddle_toplevel__: list[str] = []
