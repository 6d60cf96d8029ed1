"""Role makers; defined in :mod:`pagaie.distributed.fleet.base.role_maker` (Paddle's module
path, ``paddle.distributed.fleet.base.role_maker``) and re-exported here."""
from pagaie.distributed.fleet.base.role_maker import (PaddleCloudRoleMaker, Role,  # noqa: F401
                                                      UserDefinedRoleMaker, _RoleMakerBase)

__all__ = ["Role", "PaddleCloudRoleMaker", "UserDefinedRoleMaker"]
