"""``paddle.utils.run_check``: check that pagaie computes correctly on every device found."""
from __future__ import annotations

import platform
import traceback
from typing import Any

import torch

__all__ = ["run_check", "check_installation"]


def _device_list() -> list[str]:
    devs = ["cpu"]
    if torch.cuda.is_available():
        devs += [f"gpu:{i}" for i in range(torch.cuda.device_count())]
    return devs


def _forward_backward(paddle: Any, device: str) -> None:
    """A small regression step (matmul, bias, square error) with a known gradient."""
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], dtype="float32", place=device)
    w = paddle.to_tensor([[0.5], [-1.0]], dtype="float32", place=device, stop_gradient=False)
    b = paddle.to_tensor([0.25], dtype="float32", place=device, stop_gradient=False)
    if hasattr(paddle, "matmul"):
        y = paddle.matmul(x, w) + b
    else:  # while the matmul op is not yet declared
        y = x[:, 0:1] * w[0] + x[:, 1:2] * w[1] + b
    err = y - paddle.to_tensor([[1.0], [0.0]], dtype="float32", place=device)
    (err * err).backward()  # the initial gradient defaults to ones
    # d loss / d w = 2 * x^T (x w + b - t)
    xt = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    r = xt @ torch.tensor([[0.5], [-1.0]]) + 0.25 - torch.tensor([[1.0], [0.0]])
    want_w = 2 * xt.T @ r
    want_b = 2 * r.sum().reshape(1)
    got_w = torch.as_tensor(w.grad.numpy())
    got_b = torch.as_tensor(b.grad.numpy())
    if not (torch.allclose(got_w, want_w) and torch.allclose(got_b, want_b)):
        raise AssertionError(f"wrong gradients on {device}: got w.grad={got_w.tolist()}, "
                             f"b.grad={got_b.tolist()}; expected {want_w.tolist()}, {want_b.tolist()}")


def check_installation(verbose: bool = True) -> bool:
    """Run :func:`run_check`'s checks; returns True when every device works.

    Args:
        verbose (bool, optional): print the report. Default True.

    Returns:
        bool: whether all checks passed.

    Examples:
        >>> from pagaie.utils.install_check import check_installation
        >>> check_installation(verbose=False)
        True
    """
    import pagaie
    from pagaie._core.flags import _values  # noqa: F401  (flags load with pagaie)

    def say(msg: str) -> None:
        if verbose:
            print(msg)

    say(f"pagaie {pagaie.__version__} (PaddlePaddle 3.3.1 API) on torch {torch.__version__}, "
        f"Python {platform.python_version()}")
    if torch.version.cuda is None:
        say("CUDA: this torch build has no CUDA support; running on the CPU only.")
    elif not torch.cuda.is_available():
        say(f"CUDA: torch was built with CUDA {torch.version.cuda}, but no GPU is visible.")
    else:
        cudnn = torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None
        say(f"CUDA {torch.version.cuda}, cuDNN {cudnn if cudnn is not None else 'not available'}, "
            f"{torch.cuda.device_count()} GPU(s):")
        for i in range(torch.cuda.device_count()):
            major, minor = torch.cuda.get_device_capability(i)
            say(f"  gpu:{i} {torch.cuda.get_device_name(i)}, compute capability {major}.{minor}")
    ok_devices, failed = [], []
    for dev in _device_list():
        try:
            _forward_backward(pagaie, dev)
            if dev != "cpu":
                torch.cuda.synchronize(int(dev.split(":")[1]))
            ok_devices.append(dev)
        except Exception as exc:  # noqa: BLE001 - report every failure plainly
            failed.append(dev)
            say(f"FAILED on {dev}: {type(exc).__name__}: {exc}")
            if verbose:
                traceback.print_exc(limit=3)
    if ok_devices:
        say(f"pagaie works well on {len(ok_devices)} device(s): {', '.join(ok_devices)}.")
    if failed:
        say(f"pagaie FAILED on {len(failed)} device(s): {', '.join(failed)}.")
        return False
    say("pagaie is installed successfully!")
    return True


def run_check() -> None:
    """Check the installation as Paddle's ``run_check`` does: run a small forward and backward
    computation on one device (the first GPU when CUDA is available, else the CPU), then on
    every other GPU, and print Paddle's report lines. A failure raises its exception; use
    :func:`check_installation` for a detailed report of versions and devices.

    Examples:
        >>> import pagaie as paddle
        >>> paddle.utils.run_check()  # doctest: +ELLIPSIS
        Running verify PaddlePaddle program ...
        PaddlePaddle works well on 1 ...
        PaddlePaddle is installed successfully! Let's start deep learning with PaddlePaddle now.
    """
    import logging

    import pagaie

    print("Running verify PaddlePaddle program ... ")
    gpus = [f"gpu:{i}" for i in range(torch.cuda.device_count())] if torch.cuda.is_available() \
        else []
    kind, devices = ("GPU", gpus) if gpus else ("CPU", ["cpu"])
    _forward_backward(pagaie, devices[0])
    print(f"PaddlePaddle works well on 1 {kind}.")
    try:
        if len(devices) > 1:
            for dev in devices[1:]:
                _forward_backward(pagaie, dev)
            print(f"PaddlePaddle works well on {len(devices)} {kind}s.")
        print("PaddlePaddle is installed successfully! Let's start deep learning with "
              "PaddlePaddle now.")
    except Exception as exc:
        logging.warning(f"PaddlePaddle meets some problem with {len(devices)} {kind}s: {exc}")
        print(f"PaddlePaddle is installed successfully ONLY for single {kind}! Let's start deep "
              "learning with PaddlePaddle now.")
        raise
