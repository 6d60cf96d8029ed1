"""Random consumers (data pipeline, vision transforms, distributions) draw Paddle's numbers.

Each test seeds pagaie and real Paddle 3.3.1 alike (``paddle.seed``, ``np.random.seed``,
``random.seed``), runs the same calls, and compares the values, then the draw that follows
(so the stream is left where Paddle leaves it).

Where the randomness comes from a Paddle op (``randperm``, ``uniform``, ``normal``,
``standard_gamma``...), the test first checks that pagaie's op already gives Paddle's CPU values
(:func:`_need_exact`) and is skipped, naming the op, until it does.
"""
import random

import numpy as np
import pytest
from PIL import Image

import pagaie
from tests.reference import paddle_ref

# ---- op probes ------------------------------------------------------------------------------
_PROBES = {
    "rand": lambda P: P.rand([7]),
    "uniform": lambda P: P.uniform([5], min=-2.0, max=3.0),
    "uniform(seed)": lambda P: P.uniform([5], min=0.0, max=1.0, seed=4),
    "randn": lambda P: P.randn([7]),
    "standard_normal": lambda P: P.standard_normal([5], dtype="float64"),
    "normal": lambda P: P.normal(0.0, 1.0, [5]),
    "randint": lambda P: P.randint(0, 7, [9]),
    "randperm": lambda P: P.randperm(11),
    "standard_gamma": lambda P: P.standard_gamma(P.to_tensor([0.4, 1.0, 3.0, 7.5])),
    "bernoulli": lambda P: P.bernoulli(P.to_tensor([0.1, 0.5, 0.9, 0.3])),
    "poisson": lambda P: P.poisson(P.to_tensor([0.5, 3.0, 20.0])),
    "binomial": lambda P: P.binomial(P.to_tensor([3, 10, 40], dtype="int32"), P.to_tensor([0.2, 0.5, 0.9])),
    "multinomial": lambda P: P.multinomial(P.to_tensor([[0.1, 0.3, 0.6], [0.5, 0.25, 0.25]]), 4, True),
}
_EXACT: dict = {}


def _run(P, fn, seed):
    P.seed(seed)
    out = fn(P)
    return out, P.rand([3])


def _values(v):
    if isinstance(v, (list, tuple)):
        return [_values(e) for e in v]
    return v.numpy() if hasattr(v, "numpy") else v


def _close(a, b) -> bool:
    """Equal values; floats within 1e-6 (glibc's logf may move a normal sample by 1 ulp)."""
    if isinstance(b, list):
        return isinstance(a, list) and len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b))
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if b.dtype.kind in "fc":
        return bool(np.allclose(a.astype(b.dtype), b, rtol=1e-6, atol=1e-6, equal_nan=True))
    return bool(np.array_equal(a, b))


def _is_exact(op: str) -> bool:
    """Whether pagaie's ``op`` already gives Paddle's CPU values (the RNG ops helper's work)."""
    if op not in _EXACT:
        ref = paddle_ref()
        try:
            ours = _run(pagaie, _PROBES[op], 123)
            theirs = _run(ref, _PROBES[op], 123)
            _EXACT[op] = _close(_values(list(ours)), _values(list(theirs)))
        except Exception:  # noqa: BLE001 (a probe that fails means "not exact yet")
            _EXACT[op] = False
    return _EXACT[op]


def _need_exact(*ops: str) -> None:
    """Skip unless pagaie's ``ops`` already give Paddle's CPU values."""
    for op in ops:
        if not _is_exact(op):
            pytest.skip(f"waits on a Paddle-exact CPU paddle.{op} (RNG ops helper)")


@pytest.fixture(autouse=True)
def _cpu_default():
    ref = paddle_ref()
    ref.disable_static()
    old = pagaie.get_device()
    pagaie.set_device("cpu")
    ref.set_device("cpu")
    yield
    pagaie.set_device(old)


def _seed_all(P, s: int) -> None:
    P.seed(s)
    np.random.seed(s)
    random.seed(s)


def _after(P):
    """The next draw of each source a random consumer may use (Paddle's engine through
    ``paddle.rand`` once pagaie's rand is exact)."""
    out = [random.random(), float(np.random.random())]
    return out + [P.rand([2]).numpy()] if _is_exact("rand") else out


def _same(make, seeds=(0, 7, 2024), ops=()):
    """``make(P)`` gives the same values, and leaves every stream alike, for pagaie and Paddle."""
    _need_exact(*ops)
    _is_exact("rand")  # probe now: a probe reseeds both frameworks
    ref = paddle_ref()
    for s in seeds:
        _seed_all(pagaie, s)
        ours = _values(make(pagaie))
        ours_after = _after(pagaie)
        _seed_all(ref, s)
        theirs = _values(make(ref))
        theirs_after = _after(ref)
        assert _close(ours, theirs), f"seed {s}:\nours   {ours}\npaddle {theirs}"
        assert _close(ours_after, theirs_after), f"seed {s}: the next draws differ"


# ---- paddle.io ------------------------------------------------------------------------------
class _Idx:
    def __init__(self, n):
        self.n = n

    def __getitem__(self, i):
        return np.array([i], dtype="int64")

    def __len__(self):
        return self.n


@pytest.mark.parametrize("replacement,num_samples", [(False, None), (False, 4), (True, None), (True, 13)])
def test_random_sampler(replacement, num_samples):
    _same(lambda P: list(P.io.RandomSampler(range(9), replacement=replacement, num_samples=num_samples)))


def test_random_sampler_iterator_generator():
    _same(lambda P: list(P.io.RandomSampler(range(9), num_samples=5, generator=iter([4, 1, 3]))))


def test_batch_sampler_shuffle_and_dataloader_order():
    _same(lambda P: [list(b) for b in P.io.BatchSampler(range(10), shuffle=True, batch_size=3)])
    _same(lambda P: [b[0].numpy().ravel().tolist() for epoch in range(2)
                     for b in P.io.DataLoader(_Idx(10), batch_size=4, shuffle=True)])


def test_distributed_batch_sampler_shuffle_epochs():
    def run(P):
        out = []
        for rank in range(3):
            s = P.io.DistributedBatchSampler(range(11), batch_size=2, num_replicas=3, rank=rank, shuffle=True)
            out.append([list(b) for b in s] + [list(b) for b in s])  # epochs 0 and 1
            s.set_epoch(5)
            out.append([list(b) for b in s])
        return out
    _same(run)


@pytest.mark.parametrize("weights", [[0.1, 0.0, 2.0, 1.0, 0.5], np.array([1, 3, 0, 2]),
                                     np.array([0.2, 0.3, 0.1, 0.4], dtype="float32")])
@pytest.mark.parametrize("replacement", [True, False])
def test_weighted_random_sampler(weights, replacement):
    _same(lambda P: list(iter(P.io.WeightedRandomSampler(weights, 3, replacement=replacement))))


def test_weighted_random_sampler_tensor_weights():
    """Paddle 3.3.1 rejects Tensor weights (an assertion); pagaie takes them as their numpy array."""
    w = np.array([0.5, 0.25, 1.0, 2.0], dtype="float32")
    _same(lambda P: list(iter(P.io.WeightedRandomSampler(P.to_tensor(w) if P is pagaie else w, 6))))


def test_subset_random_sampler():
    _same(lambda P: list(P.io.SubsetRandomSampler([10, 11, 12, 13, 14, 15, 16])), ops=("randperm",))


def test_random_split():
    _same(lambda P: [list(s.indices) for s in P.io.random_split(range(10), [3, 7])]
          + [list(s.indices) for s in P.io.random_split(range(9), [0.5, 0.5])], ops=("randperm",))


def _worker_draws(P):
    class DS(P.io.Dataset):
        def __getitem__(self, i):
            info = P.io.get_worker_info()
            return np.array([info.id, info.seed % 1000003, np.random.randint(0, 10 ** 6),
                             random.randint(0, 10 ** 6)], dtype="int64"), P.rand([2]).numpy()

        def __len__(self):
            return 4
    loader = P.io.DataLoader(DS(), batch_size=1, num_workers=2, shuffle=True)
    return [[b[0].numpy().tolist(), b[1].numpy().tolist()] for b in loader]


def test_dataloader_worker_seeds():
    """Workers get Paddle's base seed (from numpy's global generator) and seed random,
    numpy and paddle.seed from it as Paddle's workers do."""
    _same(_worker_draws, seeds=(3,), ops=("rand",))


# ---- paddle.vision.transforms ---------------------------------------------------------------
def _img(kind: str):
    rs = np.random.RandomState(0)
    a = rs.randint(0, 256, (24, 20, 3)).astype("uint8")
    return Image.fromarray(a) if kind == "pil" else a


_TRANSFORMS = {
    "RandomCrop": lambda T: T.RandomCrop(12),
    "RandomCrop_pad": lambda T: T.RandomCrop((10, 8), padding=2),
    "RandomHorizontalFlip": lambda T: T.RandomHorizontalFlip(0.5),
    "RandomVerticalFlip": lambda T: T.RandomVerticalFlip(0.5),
    "RandomResizedCrop": lambda T: T.RandomResizedCrop(10),
    "ColorJitter": lambda T: T.ColorJitter(0.4, 0.4, 0.4, 0.1),
    "BrightnessTransform": lambda T: T.BrightnessTransform(0.4),
    "ContrastTransform": lambda T: T.ContrastTransform(0.4),
    "SaturationTransform": lambda T: T.SaturationTransform(0.4),
    "HueTransform": lambda T: T.HueTransform(0.2),
    "RandomRotation": lambda T: T.RandomRotation(30),
    "RandomAffine": lambda T: T.RandomAffine(20, translate=(0.1, 0.2), scale=(0.8, 1.2), shear=(5, 10)),
    "RandomPerspective": lambda T: T.RandomPerspective(0.9, 0.5),
    "RandomErasing": lambda T: T.RandomErasing(0.9, value=(10, 20, 30)),
    "RandomErasing_random": lambda T: T.RandomErasing(0.9, value="random"),
}


@pytest.mark.parametrize("kind", ["numpy", "pil"])
@pytest.mark.parametrize("name", sorted(_TRANSFORMS))
def test_vision_random_transforms(name, kind):
    if kind == "pil" and name.startswith("RandomErasing"):
        pytest.skip("Paddle's RandomErasing does not take PIL images")

    def run(P):
        t = _TRANSFORMS[name](P.vision.transforms)
        return [np.asarray(t(_img(kind))) for _ in range(4)]
    _same(run, seeds=(1, 5))


def test_vision_random_erasing_tensor():
    """The Tensor path draws its noise with paddle.normal."""
    def run(P):
        t = P.vision.transforms.RandomErasing(0.9, value="random")
        x = P.to_tensor(np.random.RandomState(1).rand(3, 12, 10).astype("float32"))
        return [t(x) for _ in range(3)]
    _same(run, ops=("normal",))


def test_vision_tensor_flip_and_crop():
    def run(P):
        x = P.to_tensor(np.arange(3 * 8 * 6, dtype="float32").reshape(3, 8, 6))
        T = P.vision.transforms
        return [T.RandomHorizontalFlip(0.5)(x), T.RandomCrop(4)(x), T.RandomResizedCrop(5)(x)]
    _same(run, seeds=(1, 2, 3))


# ---- paddle.distribution --------------------------------------------------------------------
def _t(P, v, dtype="float32"):
    return P.to_tensor(v, dtype=dtype)


_DISTS = {
    "Normal.sample": (lambda P: P.distribution.Normal(_t(P, [0.0, 1.0]), _t(P, [1.0, 2.0])).sample([3]),
                      ("normal",)),
    "Normal.sample_scalar": (lambda P: P.distribution.Normal(0.5, 2.0).sample([4]), ("normal",)),
    "Normal.rsample": (lambda P: P.distribution.Normal(_t(P, [0.0, 1.0]), _t(P, [1.0, 2.0])).rsample([3]),
                       ("normal",)),
    "Uniform.sample": (lambda P: P.distribution.Uniform(_t(P, [0.0, 1.0]), _t(P, [1.0, 3.0])).sample([3]),
                       ("uniform",)),
    "Uniform.sample(seed)": (lambda P: P.distribution.Uniform(-1.0, 2.0).sample([5], seed=9),
                             ("uniform(seed)",)),
    "Cauchy": (lambda P: P.distribution.Cauchy(_t(P, [0.1]), _t(P, [1.0, 2.0])).sample([3]), ("rand",)),
    "Laplace": (lambda P: P.distribution.Laplace(_t(P, [0.1, 0.2]), _t(P, [1.0, 2.0])).sample([3]), ("uniform",)),
    "Exponential": (lambda P: P.distribution.Exponential(_t(P, [1.0, 2.0])).sample([3]), ("uniform",)),
    "Geometric": (lambda P: P.distribution.Geometric(_t(P, [0.3, 0.6])).sample([3]), ("uniform",)),
    "Gumbel": (lambda P: P.distribution.Gumbel(_t(P, [0.1, 0.2]), _t(P, [1.0, 2.0])).sample([3]), ("uniform",)),
    "LogNormal": (lambda P: P.distribution.LogNormal(_t(P, [0.1, 0.2]), _t(P, [1.0, 2.0])).sample([3]),
                  ("normal",)),
    "ContinuousBernoulli": (lambda P: P.distribution.ContinuousBernoulli(_t(P, [0.2, 0.7])).sample([3]),
                            ("uniform",)),
    "Bernoulli.rsample": (lambda P: P.distribution.Bernoulli(_t(P, [0.2, 0.7])).rsample([3]), ("rand",)),
    "Bernoulli.sample": (lambda P: P.distribution.Bernoulli(_t(P, [0.2, 0.7])).sample([3]), ("bernoulli",)),
    "MultivariateNormal": (lambda P: P.distribution.MultivariateNormal(
        _t(P, [0.0, 1.0]), covariance_matrix=_t(P, [[2.0, 0.5], [0.5, 1.0]])).sample([3]), ("normal",)),
    "Independent": (lambda P: P.distribution.Independent(
        P.distribution.Normal(_t(P, [0.0, 1.0]), _t(P, [1.0, 2.0])), 1).sample([2]), ("normal",)),
    "TransformedDistribution": (lambda P: P.distribution.TransformedDistribution(
        P.distribution.Normal(0.0, 1.0), [P.distribution.AffineTransform(_t(P, 1.0), _t(P, 2.0))]).sample([4]),
        ("normal",)),
    "Gamma": (lambda P: P.distribution.Gamma(_t(P, [0.5, 2.0]), _t(P, [1.0, 3.0])).sample([3]),
              ("standard_gamma",)),
    "Beta": (lambda P: P.distribution.Beta(_t(P, [0.5, 2.0]), _t(P, [1.0, 3.0])).sample([3]),
             ("standard_gamma",)),
    "Dirichlet": (lambda P: P.distribution.Dirichlet(_t(P, [0.5, 2.0, 1.0])).sample([3]), ("standard_gamma",)),
    "Chi2": (lambda P: P.distribution.Chi2(_t(P, [1.0, 4.0])).sample([3]), ("standard_gamma",)),
    "StudentT": (lambda P: P.distribution.StudentT(_t(P, [3.0, 5.0]), _t(P, [0.0, 1.0]), _t(P, [1.0, 2.0]))
                 .sample([3]), ("normal", "standard_gamma")),
    "LKJCholesky.onion": (lambda P: P.distribution.LKJCholesky(3, 2.0, "onion").sample([2]),
                          ("randn", "standard_gamma")),
    "LKJCholesky.cvine": (lambda P: P.distribution.LKJCholesky(3, 2.0, "cvine").sample([2]),
                          ("standard_gamma",)),
    "Poisson": (lambda P: P.distribution.Poisson(_t(P, [0.5, 4.0])).sample([3]), ("poisson",)),
    "Binomial": (lambda P: P.distribution.Binomial(_t(P, [5.0, 10.0]), _t(P, [0.3, 0.6])).sample([3]),
                 ("binomial",)),
    "Categorical": (lambda P: P.distribution.Categorical(_t(P, [[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]])).sample([4]),
                    ("multinomial",)),
    "Multinomial": (lambda P: P.distribution.Multinomial(5, _t(P, [0.2, 0.3, 0.5])).sample([2]),
                    ("multinomial",)),
}


@pytest.mark.parametrize("name", sorted(_DISTS))
def test_distribution_samples(name):
    make, ops = _DISTS[name]
    _same(make, seeds=(7, 100), ops=ops)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_normal_sample_with_seed(dtype):
    """A non-zero ``seed`` draws from a fresh engine seeded with it; the default stream is untouched."""
    def run(P):
        d = P.distribution.Normal(_t(P, [0.0, 1.0], dtype), _t(P, [1.0, 2.0], dtype))
        return [d.sample([3], seed=5), d.sample([3], seed=5),
                P.distribution.Normal(_t(P, 0.5, dtype), _t(P, 2.0, dtype)).sample([3], seed=11)]
    _same(run, seeds=(3,))
