"""paddle.nn.functional: the functional forms of the nn ops (op records in pagaie._ops.nn_*)."""
from pagaie._core.tensor import Tensor as _Tensor
from pagaie._ops import PUBLIC as _PUBLIC
from pagaie._ops.nn_activation import *  # noqa: F401,F403
from pagaie._ops.nn_common import *  # noqa: F401,F403
from pagaie._ops.nn_resample import *  # noqa: F401,F403
from pagaie._ops.nn_conv import *  # noqa: F401,F403
from pagaie._ops.nn_pool import *  # noqa: F401,F403
from pagaie._ops.nn_norm import *  # noqa: F401,F403
from pagaie._ops.nn_loss import *  # noqa: F401,F403
from pagaie._ops.nn_loss_extra import *  # noqa: F401,F403
from pagaie._ops.nn_misc import *  # noqa: F401,F403
from pagaie._ops.nn_attention import *  # noqa: F401,F403
from pagaie._ops.nn_attention_mask import *  # noqa: F401,F403
from pagaie._ops.nn_moe import *  # noqa: F401,F403

# Math ops Paddle also exposes here: declared once, by whichever family owns them.
sigmoid = _Tensor.sigmoid
tanh = _PUBLIC["tanh"]
tanh_ = _PUBLIC["tanh_"]
# Outside Paddle's __all__ but reachable as paddle.nn.functional.<name>.
pdist = _PUBLIC["pdist"]

# The APIs Paddle deprecates: each call warns (VisibleDeprecationWarning), as in Paddle.
from pagaie.utils import _mark_deprecated  # noqa: E402

diag_embed = _mark_deprecated(_PUBLIC["diag_embed"], "paddle.nn.functional.extension.diag_embed",
                              update_to="paddle.diag_embed", since="2.5.2",
                              reason="diag_embed in paddle.nn.functional will be removed in future")

softmax_with_cross_entropy = _mark_deprecated(
    softmax_with_cross_entropy, "paddle.nn.functional.loss.softmax_with_cross_entropy",
    update_to="paddle.nn.functional.cross_entropy", since="2.0.0",
    reason='Please notice that behavior of "paddle.nn.functional.softmax_with_cross_entropy" and '
           '"paddle.nn.functional.cross_entropy" is different.')
zeropad2d = _mark_deprecated(zeropad2d, "paddle.nn.functional.common.zeropad2d",
                             update_to="paddle.nn.ZeroPad2D", since="3.0.0",
                             reason="Please use class ZeroPad2D")
from pagaie.nn.attention.sdpa import sdp_kernel  # noqa: E402,F401
del _Tensor, _PUBLIC, _mark_deprecated
