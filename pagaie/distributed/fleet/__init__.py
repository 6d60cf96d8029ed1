"""``paddle.distributed.fleet``: collective training set-up (data parallelism over torch.distributed).

The module-level functions (``fleet.init``, ``fleet.worker_index``, ``fleet.distributed_model``...)
are the methods of one :class:`Fleet` instance, as in Paddle.
"""
from pagaie.distributed.fleet.data_generator import MultiSlotDataGenerator, MultiSlotStringDataGenerator
from pagaie.distributed.fleet.fleet import Fleet, UtilBase
from pagaie.distributed.fleet.role_maker import PaddleCloudRoleMaker, Role, UserDefinedRoleMaker
from pagaie.distributed.fleet.strategy import DistributedStrategy
from pagaie.distributed.fleet.topology import CommunicateTopology, HybridCommunicateGroup
from pagaie.distributed.fleet import utils  # noqa: F401,E402

__all__ = ["CommunicateTopology", "DistributedStrategy", "Fleet", "HybridCommunicateGroup",
           "MultiSlotDataGenerator", "MultiSlotStringDataGenerator", "PaddleCloudRoleMaker", "Role",
           "UserDefinedRoleMaker", "UtilBase"]

fleet = Fleet()
init = fleet.init
is_first_worker = fleet.is_first_worker
worker_index = fleet.worker_index
worker_num = fleet.worker_num
node_num = fleet.node_num
local_rank = fleet.local_rank
rank_in_node = fleet.rank_in_node
local_device_ids = fleet.local_device_ids
world_device_ids = fleet.world_device_ids
world_size = fleet.world_size
nranks = fleet.nranks
rank = fleet.rank
is_worker = fleet.is_worker
is_server = fleet.is_server
is_coordinator = fleet.is_coordinator
worker_endpoints = fleet.worker_endpoints
server_num = fleet.server_num
server_index = fleet.server_index
server_endpoints = fleet.server_endpoints
barrier_worker = fleet.barrier_worker
all_reduce = fleet.all_reduce
init_worker = fleet.init_worker
init_server = fleet.init_server
run_server = fleet.run_server
stop_worker = fleet.stop_worker
distributed_model = fleet.distributed_model
distributed_optimizer = fleet.distributed_optimizer
distributed_scaler = fleet.distributed_scaler
get_hybrid_communicate_group = fleet.get_hybrid_communicate_group
minimize = fleet.minimize
save_persistables = fleet.save_persistables
save_inference_model = fleet.save_inference_model
util = fleet.util
