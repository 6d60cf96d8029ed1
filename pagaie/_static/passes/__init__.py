"""Graph passes over static Programs, and the BuildStrategy pipeline.

- :mod:`.engine`: rules, passes, the fixed-point engine, analysis, cloning.
- :mod:`.simplify`: dead-code elimination, constant folding, CSE.
- :mod:`.fusion`: conv + batch norm folding, conv/bn/act, linear/act and
  elementwise-chain fusion into the ops of ``pagaie._ops.fused``.
- :mod:`.memory`: the interpreter's buffer-reuse plan (``enable_inplace``).
- :mod:`.strategy`: ``apply_build_strategy`` and ``optimize_for_inference``.
"""
from pagaie._static.passes.engine import (PASSES, Analysis, Pass, PassContext, Rule, clone_program,
                                          register_pass, run_passes)
from pagaie._static.passes import simplify as _simplify  # noqa: F401  (registers its passes)
from pagaie._static.passes import fusion as _fusion  # noqa: F401
from pagaie._static.passes.strategy import (apply_build_strategy, optimize_for_inference,
                                            strategy_passes)

__all__ = ["PASSES", "Analysis", "Pass", "PassContext", "Rule", "clone_program", "register_pass",
           "run_passes", "apply_build_strategy", "optimize_for_inference", "strategy_passes"]
