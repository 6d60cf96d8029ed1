"""``paddle.jit``: run dynamic code as static programs (``to_static``) and save/load them."""
from pagaie.jit.api import (StaticFunction, enable_to_static, ignore_module, not_to_static,
                            set_code_level, set_verbosity, to_static)
from pagaie.jit.save_load import TranslatedLayer, load, save

__all__ = ["save", "load", "to_static", "ignore_module", "TranslatedLayer", "not_to_static",
           "enable_to_static", "set_code_level", "set_verbosity"]

