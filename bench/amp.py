"""AMP training throughput: pagaie's auto_cast vs PyTorch's own autocast, and vs float32.

For ResNet50 and the BERT-base-sized encoder (see bench/train_throughput.py), runs float32,
bfloat16 O1 and bfloat16 O2 steps in separate processes and prints ratios:

    python bench/amp.py [--model resnet50|bert|all] [--steps 5] [--quick]

Target (issue "AMP"): pagaie's AMP step >= 0.95x PyTorch autocast's.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_throughput import run_one  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="all", choices=["resnet50", "bert", "all"])
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    models = ["resnet50", "bert"] if args.model == "all" else [args.model]
    for model in models:
        base = {fw: run_one(fw, model, args.steps, args.quick, None) for fw in ("torch", "pagaie")}
        print(f"{model}:")
        for amp in ("bf16-O1", "bf16-O2"):
            res = {fw: run_one(fw, model, args.steps, args.quick, amp) for fw in ("torch", "pagaie")}
            t, p = res["torch"], res["pagaie"]
            if t and p:
                line = f"  {amp}: pagaie/torch-autocast = {p['steps_per_s'] / t['steps_per_s']:.2f}x"
                if base["pagaie"]:
                    line += f"   pagaie {amp}/float32 = {p['steps_per_s'] / base['pagaie']['steps_per_s']:.2f}x"
                print(line)


if __name__ == "__main__":
    main()
