"""``paddle.distributed.communication.group``: groups and the calls that act on whole groups."""
from pagaie.distributed._env import Group, destroy_process_group, get_backend, get_group, is_initialized
from pagaie.distributed.communication import barrier, wait

__all__ = ["Group", "barrier", "destroy_process_group", "get_backend", "get_group", "is_initialized", "wait"]
