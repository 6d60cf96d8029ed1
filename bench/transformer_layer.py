"""Forward + backward of a BERT-base-sized TransformerEncoder: pagaie vs the same architecture
in plain PyTorch (``torch.nn.TransformerEncoderLayer``: post-norm, ReLU, dropout 0.1 in the same
places), in one process; prints steps/s of each and the ratio.

    python bench/transformer_layer.py [--layers 12] [--steps 10] [--device cuda|cpu] [--quick]

Defaults: 12 layers, hidden 768, 12 heads, FFN 3072, batch 8, sequence 128.
``--quick``: 2 layers, batch 2, sequence 32, 3 steps (a smoke run for CPUs).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch  # noqa: E402


def _sync(device: str) -> None:
    if device.startswith("cuda"):
        torch.cuda.synchronize()


def _time(step, steps: int, device: str) -> float:
    step()
    step()  # warm-up (kernels, allocator)
    _sync(device)
    t0 = time.perf_counter()
    for _ in range(steps):
        step()
    _sync(device)
    return steps / (time.perf_counter() - t0)


def bench_pagaie(cfg: dict, device: str) -> float:
    import pagaie as paddle
    paddle.set_device("gpu" if device.startswith("cuda") else "cpu")
    layer = paddle.nn.TransformerEncoderLayer(cfg["hidden"], cfg["heads"], cfg["ffn"], dropout=0.1)
    net = paddle.nn.TransformerEncoder(layer, cfg["layers"])
    net.train()
    x = paddle.randn([cfg["batch"], cfg["seq"], cfg["hidden"]])

    def step() -> None:
        net(x).mean().backward()
        net.clear_gradients()
    return _time(step, cfg["steps"], device)


def bench_torch(cfg: dict, device: str) -> float:
    layer = torch.nn.TransformerEncoderLayer(cfg["hidden"], cfg["heads"], cfg["ffn"], dropout=0.1,
                                             activation="relu", batch_first=True, norm_first=False)
    net = torch.nn.TransformerEncoder(layer, cfg["layers"], enable_nested_tensor=False).to(device)
    net.train()
    x = torch.randn(cfg["batch"], cfg["seq"], cfg["hidden"], device=device)

    def step() -> None:
        net(x).mean().backward()
        net.zero_grad(set_to_none=True)
    return _time(step, cfg["steps"], device)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    cfg = dict(layers=args.layers, hidden=768, heads=12, ffn=3072, batch=8, seq=128, steps=args.steps)
    if args.quick:
        cfg.update(layers=2, batch=2, seq=32, steps=3)
    torch.manual_seed(0)
    t = bench_torch(cfg, args.device)
    p = bench_pagaie(cfg, args.device)
    print(f"TransformerEncoder fwd+bwd ({cfg['layers']} layers, hidden {cfg['hidden']}, batch {cfg['batch']}, "
          f"seq {cfg['seq']}, {args.device}): torch {t:.2f} steps/s, pagaie {p:.2f} steps/s, "
          f"pagaie/torch = {p / t:.2f}x")


if __name__ == "__main__":
    main()
