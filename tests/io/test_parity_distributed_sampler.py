"""paddle.io.DistributedBatchSampler with a rank outside num_replicas: pagaie vs real Paddle 3.3.1."""
import pytest

from tests.reference import same_exception


@pytest.mark.parametrize("rank", [2, 5])
def test_rank_not_below_num_replicas_fails_on_iteration(rank):
    def fn(fw):
        sampler = fw.io.DistributedBatchSampler(list(range(5)), batch_size=2, num_replicas=2, rank=rank)
        return list(sampler)
    same_exception(fn)
