"""``paddle.base.data_feeder``: dtype naming and the argument checks of static-mode layers.

``check_type`` / ``check_dtype`` / ``check_variable_and_dtype`` only check in static
mode; in dynamic mode they return at once, as in Paddle.

Examples:
    >>> import pagaie as paddle
    >>> from pagaie.base.data_feeder import convert_dtype
    >>> convert_dtype(paddle.float32), convert_dtype('bfloat16')
    ('float32', 'uint16')
"""
from __future__ import annotations

from typing import Any

import numpy as np

from pagaie._core.dtype import DType
from pagaie.static.framework import in_dynamic_mode

__all__ = ["convert_dtype", "check_type", "check_dtype", "check_variable_and_dtype"]

_NAMES = ("bool", "float16", "uint16", "uint32", "uint64", "float32", "float64", "int4", "int8",
          "int16", "int32", "int64", "uint8", "complex64", "complex128", "float8_e4m3fn",
          "float8_e5m2")
_NUMPY_TYPES = (bool, np.float16, np.uint16, np.uint32, np.uint64, np.float32, np.float64,
                np.int8, np.int16, np.int32, np.int64, np.uint8, np.complex64, np.complex128)


def convert_dtype(dtype: Any) -> str:
    """The numpy-style name of a dtype (``bfloat16`` is named ``'uint16'``, its storage).

    Args:
        dtype (paddle.dtype|np.dtype|type|str): the data type.

    Returns:
        str: e.g. ``'float32'``.

    Raises:
        TypeError: for anything that is not a supported data type.

    Examples:
        >>> import numpy as np
        >>> from pagaie.base.data_feeder import convert_dtype
        >>> convert_dtype(np.int64), convert_dtype(np.dtype('float16'))
        ('int64', 'float16')
    """
    from pagaie.base.core import legacy_to_dtype
    dtype = legacy_to_dtype(dtype)
    if isinstance(dtype, DType):
        name = "uint16" if dtype.name == "bfloat16" else dtype.name
        if name in _NAMES:
            return name
    elif isinstance(dtype, type):
        if dtype in _NUMPY_TYPES:
            return dtype.__name__
    elif dtype in _NAMES:
        return str(dtype)
    elif dtype == "bfloat16":
        return "uint16"
    raise TypeError("dtype must be any of [bool, float16, uint16, float32, float64, int8, int16, "
                    f"int32, int64, uint8, complex64, complex128, bfloat16], but received {dtype}")


def check_type(input: Any, input_name: str, expected_type: Any, op_name: str,
               extra_message: str = "") -> None:
    """In static mode, raise TypeError unless ``isinstance(input, expected_type)``.

    Args:
        input (object): the argument value.
        input_name (str): the argument name (for the message).
        expected_type (type|tuple): accepted type(s).
        op_name (str): the API name (for the message).
        extra_message (str, optional): appended to the message.

    Examples:
        >>> from pagaie.base.data_feeder import check_type
        >>> check_type([1], 'x', (list, tuple), 'my_op')  # no check in dynamic mode
    """
    if in_dynamic_mode():
        return
    from pagaie._core.tensor import Tensor
    from pagaie.static import Variable
    if isinstance(input, Tensor) and not isinstance(input, Variable):
        raise TypeError("Please use `with base.dygraph.guard()` as context or "
                        "`paddle.disable_static()` to switch to dygraph mode firstly. Because "
                        f"received '{input_name}' in {op_name} is an Eager Tensor.")
    if not isinstance(input, expected_type):
        raise TypeError(f"The type of '{input_name}' in {op_name} must be {expected_type}, but "
                        f"received {type(input)}. {extra_message}")


def check_dtype(input_dtype: Any, input_name: str, expected_dtype: Any, op_name: str,
                extra_message: str = "") -> None:
    """In static mode, raise TypeError unless ``convert_dtype(input_dtype)`` is expected.

    Args:
        input_dtype (paddle.dtype|str): the dtype to check.
        input_name (str): the argument name (for the message).
        expected_dtype (list|tuple): accepted dtype names, e.g. ``['float32', 'float64']``.
        op_name (str): the API name (for the message).
        extra_message (str, optional): appended to the message.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.base.data_feeder import check_dtype
        >>> paddle.enable_static()
        >>> check_dtype(paddle.float32, 'x', ['float32', 'float64'], 'my_op')
        >>> try:
        ...     check_dtype(paddle.int32, 'x', ['float32'], 'my_op')
        ... except TypeError as e:
        ...     print(e)
        The data type of 'x' in my_op must be ['float32'], but received int32.
        >>> paddle.disable_static()
    """
    if in_dynamic_mode():
        return
    name = convert_dtype(input_dtype)
    if name not in expected_dtype:
        raise TypeError(f"The data type of '{input_name}' in {op_name} must be {expected_dtype}, "
                        f"but received {name}. {extra_message}")


def check_variable_and_dtype(input: Any, input_name: str, expected_dtype: Any, op_name: str,
                             extra_message: str = "") -> None:
    """In static mode, check that ``input`` is a static Variable of an expected dtype.

    Args:
        input (Variable): the argument value.
        input_name (str): the argument name (for the message).
        expected_dtype (list|tuple): accepted dtype names.
        op_name (str): the API name (for the message).
        extra_message (str, optional): appended to the message.

    Examples:
        >>> import pagaie as paddle
        >>> from pagaie.base.data_feeder import check_variable_and_dtype
        >>> paddle.enable_static()
        >>> x = paddle.static.data('x', [2], 'float32')
        >>> check_variable_and_dtype(x, 'x', ['float32'], 'my_op')
        >>> paddle.disable_static()
    """
    from pagaie.static import Variable
    check_type(input, input_name, Variable, op_name, extra_message)
    check_dtype(input.dtype, input_name, expected_dtype, op_name, extra_message)
