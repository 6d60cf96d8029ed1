"""Pass pipelines: what a ``BuildStrategy`` asks for, and the inference pipeline."""
from __future__ import annotations

from typing import Any, Iterable

from pagaie._static.ir import Program
from pagaie._static.passes.engine import clone_program, run_passes

__all__ = ["strategy_passes", "apply_build_strategy", "optimize_for_inference", "INFERENCE_PASSES"]

# Folding the batch norm into the convolution freezes parameters and statistics, so it is
# only in the explicit inference pipeline, never in a BuildStrategy's.
INFERENCE_PASSES = ("common_subexpression_elimination", "constant_folding", "fold_conv_bn",
                    "fuse_conv_bn_add_act", "fuse_linear_act", "fuse_elementwise",
                    "dead_code_elimination")


def strategy_passes(build_strategy: Any = None) -> list[str]:
    """The pass names a ``BuildStrategy`` switches on, in the order they run.

    ``fuse_bn_act_ops`` / ``fuse_bn_add_act_ops``: conv + batch norm (+ residual) +
    activation; ``fuse_gemm_epilogue``: matmul + bias (+ activation);
    ``fuse_elewise_add_act_ops``: elementwise chains; ``fused_feedforward``: a training
    feed-forward block (linear, activation, dropout, linear); ``enable_auto_fusion`` or
    ``build_cinn_pass``: constant folding and every fusion. Common subexpressions and
    dead code are always removed. ``enable_inplace`` / ``memory_optimize`` act at run
    time (the interpreter's buffer reuse); ``fuse_all_optimizer_ops``, ``enable_addto``
    and the distributed switches are accepted and change nothing on one device.
    """
    bs = build_strategy
    get = (lambda k, d=False: bool(getattr(bs, k, d))) if bs is not None else (lambda k, d=False: d)
    auto = get("enable_auto_fusion") or get("build_cinn_pass")
    names = ["common_subexpression_elimination"]
    if auto:
        names.append("constant_folding")
    if get("fuse_bn_add_act_ops", True) or auto:
        names.append("fuse_conv_bn_add_act")
    elif get("fuse_bn_act_ops"):
        names.append("fuse_conv_bn_act")
    if get("fuse_gemm_epilogue") or auto:
        names.append("fuse_linear_act")
    if get("fused_feedforward") or auto:
        names.append("fuse_feedforward")
    if get("fuse_elewise_add_act_ops") or auto:
        names.append("fuse_elementwise")
    names.append("dead_code_elimination")
    return names


def apply_build_strategy(program: Program, build_strategy: Any = None,
                         keep: Iterable[str] | None = None, debug: bool | None = None) -> Program:
    """A rewritten copy of ``program`` with the passes ``build_strategy`` asks for.

    The user's program is never changed.

    Args:
        program (Program): the program to optimise.
        build_strategy (BuildStrategy, optional): the switches; Paddle's defaults if None.
        keep (iterable[str], optional): names of values that must stay computable (the
            fetch targets); by default every value nothing in the program reads.
        debug (bool, optional): verify the program after every pass (default: the
            ``PAGAIE_DEBUG_PASSES`` environment variable).

    Returns:
        Program: the optimised copy; ``copy.pass_stats`` counts the rewrites per rule.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie._static.passes import apply_build_strategy
        >>> from pagaie.static.build_strategy import BuildStrategy
        >>> paddle.enable_static()
        >>> main = paddle.static.Program()
        >>> with paddle.static.program_guard(main):
        ...     x = paddle.static.data('x', [4, 8], 'float32')
        ...     y = paddle.nn.functional.relu(paddle.exp(x) * 2.0 + 1.0)
        >>> bs = BuildStrategy()
        >>> bs.fuse_elewise_add_act_ops = True
        >>> opt = apply_build_strategy(main, bs, keep=[y.name])
        >>> [op.type for op in opt.global_block().ops]
        ['fused_elementwise']
        >>> len(main.global_block().ops)
        4
        >>> paddle.disable_static()
    """
    new = clone_program(program)
    new.pass_stats = run_passes(new, strategy_passes(build_strategy), keep=keep, debug=debug)
    return new


def optimize_for_inference(program: Program, keep: Iterable[str] | None = None,
                           debug: bool | None = None) -> Program:
    """A copy of an inference ``program`` with every pass on, conv + batch norm folding included.

    Folding reads the parameters' and statistics' current values: use it on a trained
    model (export, prediction), not on a program that will keep training.

    Args:
        program (Program): an inference program (no backward op).
        keep (iterable[str], optional): the output value names (see
            :func:`apply_build_strategy`).
        debug (bool, optional): verify after every pass.

    Returns:
        Program: the optimised copy.
    """
    new = clone_program(program)
    new.pass_stats = run_passes(new, INFERENCE_PASSES, keep=keep, debug=debug)
    return new
