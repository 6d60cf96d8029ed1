"""``paddle.onnx``: export a Layer to an ONNX model (see :mod:`.export`)."""
from pagaie.onnx.export import export

__all__ = ["export"]
