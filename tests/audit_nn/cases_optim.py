"""Optimizer and learning-rate scheduler cases: every optimizer with its documented options
on a small model, and every scheduler with its options."""
from __future__ import annotations

import math

from tests.audit_nn.harness import E


def wd(kind):
    """weight_decay forms: a float, an L2Decay / L1Decay regularizer."""
    if kind == "float":
        return lambda fw: 0.01
    if kind == "l2":
        return lambda fw: fw.regularizer.L2Decay(0.02)
    return lambda fw: fw.regularizer.L1Decay(0.02)


def clip(kind):
    return {
        "global": lambda fw: fw.nn.ClipGradByGlobalNorm(0.5),
        "norm": lambda fw: fw.nn.ClipGradByNorm(0.3),
        "value": lambda fw: fw.nn.ClipGradByValue(0.05),
    }[kind]


# (id, optimizer class name, kwargs; callables in kwargs receive the framework)
OPTIMIZERS = [
    ("SGD", "SGD", {"learning_rate": 0.1}),
    ("SGD_wd", "SGD", {"learning_rate": 0.1, "weight_decay": wd("float")}),
    ("SGD_l1", "SGD", {"learning_rate": 0.1, "weight_decay": wd("l1")}),
    ("SGD_clip_global", "SGD", {"learning_rate": 0.1, "grad_clip": clip("global")}),
    ("SGD_clip_norm", "SGD", {"learning_rate": 0.1, "grad_clip": clip("norm")}),
    ("SGD_clip_value", "SGD", {"learning_rate": 0.1, "grad_clip": clip("value")}),
    ("SGD_sched", "SGD", {"learning_rate": lambda fw: fw.optimizer.lr.StepDecay(0.1, 1, 0.5)}),
    ("Momentum", "Momentum", {"learning_rate": 0.1}),
    ("Momentum_nesterov", "Momentum", {"learning_rate": 0.1, "momentum": 0.8, "use_nesterov": True}),
    ("Momentum_wd", "Momentum", {"learning_rate": 0.1, "weight_decay": wd("l2")}),
    ("Momentum_wdf", "Momentum", {"learning_rate": 0.1, "weight_decay": wd("float")}),
    ("Momentum_rescale", "Momentum", {"learning_rate": 0.1, "rescale_grad": 0.5}),
    ("Adam", "Adam", {"learning_rate": 0.01}),
    ("Adam_betas", "Adam", {"learning_rate": 0.01, "beta1": 0.8, "beta2": 0.9, "epsilon": 1e-6}),
    ("Adam_wd", "Adam", {"learning_rate": 0.01, "weight_decay": wd("float")}),
    ("Adam_l1", "Adam", {"learning_rate": 0.01, "weight_decay": wd("l1")}),
    ("Adam_amsgrad", "Adam", {"learning_rate": 0.01, "amsgrad": True}),
    ("Adam_lazy", "Adam", {"learning_rate": 0.01, "lazy_mode": True}),
    ("Adam_clip", "Adam", {"learning_rate": 0.01, "grad_clip": clip("global")}),
    ("Adam_sched", "Adam", {"learning_rate": lambda fw: fw.optimizer.lr.ExponentialDecay(0.01, 0.5)}),
    ("AdamW", "AdamW", {"learning_rate": 0.01}),
    ("AdamW_wd", "AdamW", {"learning_rate": 0.01, "weight_decay": 0.1, "beta1": 0.8}),
    ("AdamW_apply", "AdamW", {"learning_rate": 0.01, "weight_decay": 0.1,
                              "apply_decay_param_fun": lambda fw: (lambda n: "b_" not in n)}),
    ("AdamW_lr_ratio", "AdamW", {"learning_rate": 0.01, "lr_ratio": lambda fw: (lambda p: 0.5)}),
    ("AdamW_amsgrad", "AdamW", {"learning_rate": 0.01, "amsgrad": True}),
    ("AdamW_clip", "AdamW", {"learning_rate": 0.01, "grad_clip": clip("value")}),
    ("Adamax", "Adamax", {"learning_rate": 0.01}),
    ("Adamax_wd", "Adamax", {"learning_rate": 0.01, "beta1": 0.8, "weight_decay": wd("l2")}),
    ("Adagrad", "Adagrad", {"learning_rate": 0.1}),
    ("Adagrad_init", "Adagrad", {"learning_rate": 0.1, "initial_accumulator_value": 0.5, "epsilon": 1e-4}),
    ("Adagrad_wd", "Adagrad", {"learning_rate": 0.1, "weight_decay": wd("float")}),
    ("Adadelta", "Adadelta", {"learning_rate": 1.0}),
    ("Adadelta_rho", "Adadelta", {"learning_rate": 0.5, "rho": 0.8, "epsilon": 1e-4, "weight_decay": wd("l2")}),
    ("RMSProp", "RMSProp", {"learning_rate": 0.01}),
    ("RMSProp_centered", "RMSProp", {"learning_rate": 0.01, "centered": True, "momentum": 0.5}),
    ("RMSProp_rho", "RMSProp", {"learning_rate": 0.01, "rho": 0.8, "epsilon": 1e-4, "weight_decay": wd("float")}),
    ("Lamb", "Lamb", {"learning_rate": 0.01}),
    ("Lamb_wd", "Lamb", {"learning_rate": 0.01, "lamb_weight_decay": 0.1, "beta1": 0.8}),
    ("Lamb_exclude", "Lamb", {"learning_rate": 0.01, "exclude_from_weight_decay_fn": lambda fw: (
        lambda p: "b_" in p.name)}),
    ("Lamb_always", "Lamb", {"learning_rate": 0.01, "always_adapt": True, "lamb_weight_decay": 0.0}),
    ("NAdam", "NAdam", {"learning_rate": 0.01}),
    ("NAdam_md", "NAdam", {"learning_rate": 0.01, "momentum_decay": 0.01, "weight_decay": wd("float")}),
    ("RAdam", "RAdam", {"learning_rate": 0.01}),
    ("RAdam_wd", "RAdam", {"learning_rate": 0.01, "beta2": 0.9, "weight_decay": wd("l2")}),
    ("ASGD", "ASGD", {"learning_rate": 0.01}),
    ("ASGD_batch", "ASGD", {"learning_rate": 0.01, "batch_num": 2, "weight_decay": wd("float")}),
    ("Rprop", "Rprop", {"learning_rate": 0.01}),
    ("Rprop_range", "Rprop", {"learning_rate": 0.01, "learning_rate_range": (1e-3, 0.02), "etas": (0.3, 1.5)}),
    ("SGD_groups", "SGD", {"learning_rate": 0.1, "parameters": "groups"}),
    ("Adam_groups", "Adam", {"learning_rate": 0.01, "parameters": "groups"}),
    ("Momentum_groups", "Momentum", {"learning_rate": 0.1, "parameters": "groups"}),
]

# (id, class name, args, kwargs, steps, metric values for ReduceOnPlateau)
SCHEDULERS = [
    ("StepDecay", "StepDecay", (0.5, 2), {}),
    ("StepDecay_g", "StepDecay", (0.5, 3), {"gamma": 0.3}),
    ("MultiStepDecay", "MultiStepDecay", (0.5, [2, 5]), {"gamma": 0.2}),
    ("ExponentialDecay", "ExponentialDecay", (0.5, 0.8), {}),
    ("NaturalExpDecay", "NaturalExpDecay", (0.5, 0.3), {}),
    ("InverseTimeDecay", "InverseTimeDecay", (0.5, 0.3), {}),
    ("PolynomialDecay", "PolynomialDecay", (0.5, 4), {}),
    ("PolynomialDecay_cycle", "PolynomialDecay", (0.5, 3), {"end_lr": 0.01, "power": 2.0, "cycle": True}),
    ("PiecewiseDecay", "PiecewiseDecay", ([2, 4], [0.5, 0.2, 0.1]), {}),
    ("NoamDecay", "NoamDecay", (16, 3), {}),
    ("NoamDecay_lr", "NoamDecay", (16, 3), {"learning_rate": 2.0}),
    ("LinearWarmup", "LinearWarmup", (0.5, 3, 0.0, 0.5), {}),
    ("LinearWarmup_sched", "LinearWarmup", ("SCHED", 3, 0.0, 0.5), {}),
    ("LambdaDecay", "LambdaDecay", (0.5, lambda e: 0.9 ** e), {}),
    ("MultiplicativeDecay", "MultiplicativeDecay", (0.5, lambda e: 0.9), {}),
    ("CosineAnnealingDecay", "CosineAnnealingDecay", (0.5, 4), {}),
    ("CosineAnnealingDecay_min", "CosineAnnealingDecay", (0.5, 3), {"eta_min": 0.1}),
    ("CosineAnnealingWarmRestarts", "CosineAnnealingWarmRestarts", (0.5, 3), {}),
    ("CosineAnnealingWarmRestarts_mult", "CosineAnnealingWarmRestarts", (0.5, 2), {"T_mult": 2, "eta_min": 0.05}),
    ("OneCycleLR", "OneCycleLR", (0.5, 10), {}),
    ("OneCycleLR_lin3", "OneCycleLR", (0.5, 10), {"anneal_strategy": "linear", "three_phase": True,
                                                   "divide_factor": 10.0, "phase_pct": 0.4}),
    ("CyclicLR", "CyclicLR", (0.1, 0.5, 2), {}),
    ("CyclicLR_t2", "CyclicLR", (0.1, 0.5, 2), {"step_size_down": 3, "mode": "triangular2"}),
    ("CyclicLR_exp", "CyclicLR", (0.1, 0.5, 2), {"mode": "exp_range", "exp_gamma": 0.9}),
    ("CyclicLR_fn", "CyclicLR", (0.1, 0.5, 2), {"scale_fn": lambda x: 0.5 ** x, "scale_mode": "iterations"}),
    ("LinearLR", "LinearLR", (0.5, 4), {}),
    ("LinearLR_f", "LinearLR", (0.5, 3), {"start_factor": 0.5, "end_factor": 0.1}),
    ("ReduceOnPlateau", "ReduceOnPlateau", (0.5,), {"patience": 1}),
    ("ReduceOnPlateau_max", "ReduceOnPlateau", (0.5,), {"mode": "max", "patience": 0, "factor": 0.5,
                                                        "threshold_mode": "abs", "cooldown": 1, "min_lr": 0.1}),
    ("StepDecay_last", "StepDecay", (0.5, 2), {"last_epoch": 3}),
]
PLATEAU_METRICS = [1.0, 0.9, 0.95, 0.96, 0.97, 0.5, 0.6, 0.7, 0.8, 0.9]

OPTIM_ERRORS = [
    E("SGD_no_params_step", lambda fw: fw.optimizer.SGD(0.1).step()),
    E("Adam_beta_bad", lambda fw: fw.optimizer.Adam(0.1, beta1=1.5, parameters=fw.nn.Linear(2, 2).parameters())),
    E("Adam_eps_bad", lambda fw: fw.optimizer.Adam(0.1, epsilon=-1.0, parameters=fw.nn.Linear(2, 2).parameters())),
    E("Momentum_lr_none", lambda fw: fw.optimizer.Momentum(None, parameters=fw.nn.Linear(2, 2).parameters())),
    E("Adagrad_lr_none", lambda fw: fw.optimizer.Adagrad(None, parameters=fw.nn.Linear(2, 2).parameters())),
    E("RMSProp_rho_bad", lambda fw: fw.optimizer.RMSProp(0.1, rho=-1.0, parameters=fw.nn.Linear(2, 2).parameters())),
    E("SGD_lr_str", lambda fw: fw.optimizer.SGD("0.1", parameters=fw.nn.Linear(2, 2).parameters())),
    E("Rprop_range_bad", lambda fw: fw.optimizer.Rprop(0.1, learning_rate_range=(1.0, 0.1),
                                                       parameters=fw.nn.Linear(2, 2).parameters())),
    E("Lamb_eps_bad", lambda fw: fw.optimizer.Lamb(0.1, epsilon=-1.0, parameters=fw.nn.Linear(2, 2).parameters())),
    E("AdamW_wd_bad", lambda fw: fw.optimizer.AdamW(0.1, weight_decay="x", parameters=fw.nn.Linear(2, 2).parameters())),
    E("set_lr_sched", lambda fw: fw.optimizer.SGD(fw.optimizer.lr.StepDecay(0.1, 1),
                                                  parameters=fw.nn.Linear(2, 2).parameters()).set_lr(0.5)),
    E("StepDecay_bad", lambda fw: fw.optimizer.lr.StepDecay(0.1, 1.5)),
    E("StepDecay_gamma", lambda fw: fw.optimizer.lr.StepDecay(0.1, 2, gamma=1.5)),
    E("MultiStep_unsorted", lambda fw: fw.optimizer.lr.MultiStepDecay(0.1, [3, 1])),
    E("Piecewise_len", lambda fw: fw.optimizer.lr.PiecewiseDecay([1, 2], [0.1, 0.2])),
    E("LinearWarmup_bad", lambda fw: fw.optimizer.lr.LinearWarmup(0.1, 0, 0.0, 0.1)),
    E("OneCycle_bad_strategy", lambda fw: fw.optimizer.lr.OneCycleLR(0.1, 10, anneal_strategy="exp")),
    E("OneCycle_bad_total", lambda fw: fw.optimizer.lr.OneCycleLR(0.1, 0)),
    E("CyclicLR_bad_mode", lambda fw: fw.optimizer.lr.CyclicLR(0.1, 0.5, 2, mode="x")),
    E("Cosine_bad_T", lambda fw: fw.optimizer.lr.CosineAnnealingDecay(0.1, 0)),
    E("WarmRestarts_bad", lambda fw: fw.optimizer.lr.CosineAnnealingWarmRestarts(0.1, 0)),
    E("LinearLR_bad", lambda fw: fw.optimizer.lr.LinearLR(0.1, 3, start_factor=0.0)),
    E("Plateau_bad_mode", lambda fw: fw.optimizer.lr.ReduceOnPlateau(0.1, mode="avg")),
    E("Plateau_bad_factor", lambda fw: fw.optimizer.lr.ReduceOnPlateau(0.1, factor=1.5)),
    E("Lambda_bad", lambda fw: fw.optimizer.lr.LambdaDecay(0.1, 3)),
    E("Noam_bad", lambda fw: fw.optimizer.lr.NoamDecay(16, 0)),
    E("Poly_bad", lambda fw: fw.optimizer.lr.PolynomialDecay(0.1, 0)),
]

OPTIM_SKIP: dict = {
    "AdamW_lr_ratio": "Paddle 3.3.1 raises NotImplementedError for lr_ratio on CPU; pagaie applies it",
}
