"""Samples for paddle.fft and paddle.signal (pagaie/_ops/fft.py, pagaie/signal.py)."""
from tests.ops.samples import FLOATS, INTS, OpSample, T

COMPLEX = ("complex64", "complex128")
NORMS = ("backward", "ortho", "forward")
TOL = dict(rtol=1e-4, atol=1e-5)

SAMPLES = []
for _api in ("fft", "ifft", "rfft", "ihfft"):
    SAMPLES += [
        OpSample(f"fft.{_api}", [T((3, 8))], dtypes=FLOATS + INTS, **TOL),
        OpSample(f"fft.{_api}", [T((3, 8))], {"n": 5, "axis": 0, "norm": "ortho"}, id=f"{_api}_n_axis", **TOL),
        OpSample(f"fft.{_api}", [T((4, 6))], {"n": 9, "norm": "forward"}, id=f"{_api}_pad_forward", **TOL),
    ]
for _api in ("irfft", "hfft"):
    SAMPLES += [
        OpSample(f"fft.{_api}", [T((3, 5))], **TOL),
        OpSample(f"fft.{_api}", [T((3, 5))], {"n": 7, "axis": 0, "norm": "ortho"}, id=f"{_api}_n_axis", **TOL),
        OpSample(f"fft.{_api}", [T((3, 5))], {"norm": "forward"}, dtypes=COMPLEX, id=f"{_api}_complex", **TOL),
    ]
SAMPLES += [
    OpSample("fft.fft", [T((2, 6))], dtypes=COMPLEX, id="fft_complex", **TOL),
    OpSample("fft.ifft", [T((2, 6))], {"norm": "ortho"}, dtypes=COMPLEX, id="ifft_complex", **TOL),
]
for _api in ("fft2", "ifft2", "rfft2", "ihfft2", "fftn", "ifftn", "rfftn", "ihfftn"):
    SAMPLES += [
        OpSample(f"fft.{_api}", [T((2, 4, 6))], **TOL),
        OpSample(f"fft.{_api}", [T((2, 4, 6))], {"s": [3, 8], "axes": [0, 2], "norm": "ortho"},
                 id=f"{_api}_s_axes", **TOL),
    ]
for _api in ("irfft2", "hfft2", "irfftn", "hfftn"):
    SAMPLES += [
        OpSample(f"fft.{_api}", [T((2, 4, 5))], **TOL),
        OpSample(f"fft.{_api}", [T((2, 4, 5))], {"s": [3, 6], "axes": [0, 1], "norm": "forward"},
                 id=f"{_api}_s_axes", **TOL),
        OpSample(f"fft.{_api}", [T((4, 5))], dtypes=COMPLEX, id=f"{_api}_complex", **TOL),
    ]
SAMPLES += [
    OpSample("fft.fftn", [T((2, 3, 4))], {"s": [5, 2]}, id="fftn_s_only", **TOL),
    OpSample("fft.fftn", [T((2, 3, 4))], {"axes": [1]}, id="fftn_axes_only", **TOL),
    OpSample("fft.fftfreq", [5], dtypes=("float32",)),
    OpSample("fft.fftfreq", [8], {"d": 0.5, "dtype": "float64"}, dtypes=("float32",), id="fftfreq_d_dtype"),
    OpSample("fft.rfftfreq", [7], {"d": 2.0}, dtypes=("float32",)),
    OpSample("fft.fftshift", [T((4, 5))], dtypes=FLOATS + INTS),
    OpSample("fft.fftshift", [T((3, 4, 5))], {"axes": [2, 0]}, id="fftshift_axes"),  # Paddle fails on one axis
    OpSample("fft.ifftshift", [T((4, 5))], dtypes=FLOATS + INTS),
    OpSample("fft.ifftshift", [T((3, 4, 5))], {"axes": (0, 2)}, id="ifftshift_axes"),
    # short-time transforms
    OpSample("signal.stft", [T((2, 64))], {"n_fft": 16}, **TOL),
    OpSample("signal.stft", [T((64,)), 16], {"hop_length": 3, "win_length": 10, "window": T((10,), kind="pos"),
                                             "center": False}, id="stft_window", **TOL),
    OpSample("signal.stft", [T((2, 64))], {"n_fft": 16, "normalized": True, "onesided": False,
                                          "pad_mode": "constant"}, id="stft_twosided", **TOL),
    OpSample("signal.stft", [T((2, 32))], {"n_fft": 8}, dtypes=COMPLEX, id="stft_complex", **TOL),
    OpSample("Tensor.stft", [T((2, 64)), 16], id="method_stft", **TOL),
    OpSample("signal.istft", [T((9, 17)), 16], dtypes=COMPLEX, **TOL),
    OpSample("signal.istft", [T((2, 9, 17)), 16], {"window": T((16,), kind="pos", dtype="float64"), "length": 60},
             dtypes=COMPLEX, id="istft_window_length", **TOL),
    OpSample("signal.istft", [T((2, 16, 17)), 16], {"onesided": False, "return_complex": True},
             dtypes=COMPLEX, id="istft_complex", **TOL),
]
