"""Whole Paddle scripts, round 5: the training-loop features a Paddle user combines, against real Paddle 3.3.1.

Same method as tests/test_parity_s7_scripts.py (whose runner and line comparison this file reuses):
each script is written once against ``paddle``, run with real Paddle and with pagaie (``pagaie run``),
and the printed numbers must agree exactly or to 1e-5. These scripts cover what rounds 1-4 did not:
weight tying (a matmul against the embedding matrix, one Parameter shared by two Linears), freezing and
unfreezing a backbone mid-training under parameter groups, a multi-task model (autograd.backward over
several losses, paddle.Model with two labels), PyLayers inside a model (save_for_backward,
mark_non_differentiable, set_materialize_grads, double backward) with tensor and Layer hooks, a
mixture-of-experts layer trained with mixup (distribution.Beta, soft labels), a RealNVP flow and a
Gaussian mixture on paddle.distribution, activation checkpointing with fleet.utils.recompute, an
nn.Transformer seq2seq with a custom RNN cell through nn.RNN / nn.BiRNN, to_static forward and loss
functions with tensor-dependent control flow, a static Program with nn layers and control flow, what
print(layer) and paddle.summary show. Below the scripts: a checkpoint written by one framework resumes
training in the other, and two in-place/autograd differences found this round (relu's still xfail).

Where the scripts step around real Paddle 3.3.1 (each is listed in the session-12 report):
- paddle.jit.to_static of a lambda raises IndexError; static.nn.embedding / batch_norm and
  static.ExponentialMovingAverage fail under PIR; Program.clone(for_test=True) raises TypeError, and
  fetching a value of another Program returns nothing: the static script uses nn layers and one Program.
- paddle.flops ends with int() of a shape-[1] tensor (TypeError) on any network with parameters.
- fleet.distributed_model on one process asserts the model is a PipelineLayer, and a collective outside a
  launched job raises RuntimeError (pagaie's one-process collectives are identities by design).
- Adam after a Linear that feeds BatchNorm normalises a zero gradient (rounding noise): no bias there.
"""
from __future__ import annotations

import numpy as np
import pytest

import pagaie
from tests.reference import paddle_ref
from tests.test_parity_s7_scripts import check_scripts

TIMEOUT = 150  # seconds per script group and framework; the group takes 10-15 s on an idle machine

SCRIPTS = {
    'tied_lm': r'''
# weight tying: a GRU language model whose output projection is the embedding matrix (matmul transpose_y)
# and a Linear whose weight is the same Parameter object; AdamW with apply_decay_param_fun; dedup of params
import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

paddle.seed(77)
np.random.seed(77)
V, E, T, B = 11, 8, 6, 10

class TiedLM(nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, E)
        self.rnn = nn.GRU(E, E)
        self.proj = nn.Linear(E, E)
        self.bias = self.create_parameter([V], is_bias=True)
    def forward(self, ids):
        h, _ = self.rnn(self.emb(ids))
        h = paddle.tanh(self.proj(h))
        return paddle.matmul(h, self.emb.weight, transpose_y=True) + self.bias

m = TiedLM()
print("n params", len(m.parameters()), [p.shape for p in m.parameters()])
print("keys", list(m.state_dict().keys()))
decay_names = {p.name for n, p in m.named_parameters() if "bias" not in n}
opt = paddle.optimizer.AdamW(0.01, parameters=m.parameters(), weight_decay=0.05,
                             apply_decay_param_fun=lambda name: name in decay_names)
seq = (np.arange(B)[:, None] + np.arange(T + 1)[None, :]) % V
x, y = paddle.to_tensor(seq[:, :-1]), paddle.to_tensor(seq[:, 1:])
for step in range(12):
    logits = m(x)
    loss = F.cross_entropy(logits.reshape([-1, V]), y.reshape([-1]))
    loss.backward()
    if step == 0:
        print("emb grad", "%.6e" % float(m.emb.weight.grad.abs().sum()), "bias grad", "%.6e" % float(m.bias.grad.abs().sum()))
    opt.step()
    opt.clear_grad()
    if step % 3 == 0:
        print(step, "%.6e" % float(loss))
print("opt keys", len(opt.state_dict()), sorted(k.split("_", 1)[-1] for k in opt.state_dict() if k != "LR_Scheduler")[:6])

# tie by assigning the same Parameter object to a second layer
class Tied2(nn.Layer):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(5, 5, bias_attr=False)
        self.dec = nn.Linear(5, 5)
        self.dec.weight = self.enc.weight
    def forward(self, x):
        return self.dec(F.relu(self.enc(x)))

t = Tied2()
print("tied params", len(t.parameters()), [n for n, _ in t.named_parameters()], list(t.state_dict().keys()))
print("same", t.dec.weight is t.enc.weight)
opt2 = paddle.optimizer.SGD(0.1, parameters=t.parameters())
xx = paddle.randn([4, 5])
for i in range(4):
    l = (t(xx) - xx).pow(2).mean()
    l.backward()
    g = t.enc.weight.grad
    opt2.step(); opt2.clear_grad()
    print(i, "%.6e" % float(l), "%.6e" % float(g.abs().sum()))
print("after", "%.6e" % float(t.dec.weight.abs().sum()), "%.6e" % float(t.enc.weight.abs().sum()))
sd = t.state_dict()
t2 = Tied2()
missing = t2.set_state_dict(sd)
print("reload", missing, float((t2(xx) - t(xx)).abs().max()))
''',
    'freeze': r'''
# freezing mid-training: stop_gradient / trainable=False on a backbone after some steps, Adam and Momentum
# skip parameters without gradients, unfreeze later; parameter groups with their own lr; set_lr;
# clear_grad(set_to_zero=False); a frozen BatchNorm in eval mode inside a training model
import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

paddle.seed(5)
np.random.seed(5)
X = paddle.to_tensor(np.random.randn(32, 6).astype("float32"))
Y = paddle.to_tensor((np.random.rand(32) * 3).astype("int64"))

class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(6, 12, bias_attr=False), nn.BatchNorm1D(12), nn.ReLU(), nn.Linear(12, 12), nn.ReLU())
        self.head = nn.Linear(12, 3)
    def forward(self, x):
        return self.head(self.backbone(x))

def summ(m):
    return " ".join("%.6e" % float(p.abs().sum()) for p in m.parameters())

for opt_name in ("adam", "momentum"):
    paddle.seed(9)
    m = Net()
    groups = [{"params": m.backbone.parameters(), "learning_rate": 0.5},
              {"params": m.head.parameters()}]
    if opt_name == "adam":
        opt = paddle.optimizer.Adam(0.02, parameters=groups)
    else:
        opt = paddle.optimizer.Momentum(0.05, momentum=0.9, parameters=groups, weight_decay=0.01)
    for step in range(9):
        if step == 3:
            for p in m.backbone.parameters():
                p.stop_gradient = True
            m.backbone[1].eval()
        if step == 6:
            for p in m.backbone.parameters():
                p.stop_gradient = False
            m.backbone[1].train()
            opt.set_lr(0.01)
        loss = F.cross_entropy(m(X), Y)
        loss.backward()
        grads = [p.grad is None for p in m.backbone.parameters()]
        opt.step()
        opt.clear_grad(set_to_zero=(step % 2 == 0))
        print(opt_name, step, "%.6e" % float(loss), grads[:2], "lr %.4e" % opt.get_lr())
    print(opt_name, "params", summ(m))
    print(opt_name, "bn", "%.6e" % float(m.backbone[1]._mean.abs().sum()), "%.6e" % float(m.backbone[1]._variance.abs().sum()))
    print(opt_name, "state", len(opt.state_dict()))

# trainable=False through the attribute and through ParamAttr
paddle.seed(3)
lin = nn.Linear(6, 3, weight_attr=paddle.ParamAttr(trainable=False))
print("attr", lin.weight.trainable, lin.weight.stop_gradient, lin.bias.trainable)
lin.bias.trainable = False
print("bias", lin.bias.trainable, lin.bias.stop_gradient)
out = lin(X).sum()
print("out sg", out.stop_gradient)
lin.weight.trainable = True
o = paddle.optimizer.SGD(0.1, parameters=lin.parameters())
l = lin(X).pow(2).mean()
l.backward()
print("w grad", lin.weight.grad is not None, "b grad", lin.bias.grad is None)
o.step()
print("after", "%.6e" % float(lin.weight.abs().sum()), "%.6e" % float(lin.bias.abs().sum()))
# a detached feature extractor: no grad flows to it
feat = m.backbone(X).detach()
l2 = F.cross_entropy(m.head(feat), Y)
l2.backward()
print("detached", m.backbone[0].weight.grad is None or float(m.backbone[0].weight.grad.abs().sum()) == 0.0,
      "%.6e" % float(m.head.weight.grad.abs().sum()))
''',
    'multi_out': r'''
# multi-task model: shared trunk, a classification head and a regression head, weighted loss sum,
# paddle.autograd.backward over several losses with grad_tensors, and paddle.Model with two labels,
# a loss over both outputs and a metric on the first output
import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.static import InputSpec

paddle.seed(42)
np.random.seed(42)
N = 40
xs = np.random.randn(N, 5).astype("float32")
cls = (xs[:, 0] * 2 + xs[:, 1] > 0).astype("int64")[:, None]
reg = (xs[:, 2:4].sum(1, keepdims=True) * 0.5).astype("float32")

class MT(nn.Layer):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(5, 16), nn.GELU(), nn.LayerNorm(16))
        self.cls = nn.Linear(16, 2)
        self.reg = nn.Linear(16, 1)
    def forward(self, x):
        h = self.trunk(x)
        return self.cls(h), self.reg(h)

m = MT()
opt = paddle.optimizer.RMSProp(0.01, parameters=m.parameters(), rho=0.9, momentum=0.1, centered=True)
X, C, R = paddle.to_tensor(xs), paddle.to_tensor(cls), paddle.to_tensor(reg)
for step in range(8):
    lc, lr_ = m(X)
    l1 = F.cross_entropy(lc, C)
    l2 = F.smooth_l1_loss(lr_, R, delta=0.5)
    if step % 2 == 0:
        (l1 + 3.0 * l2).backward()
    else:
        paddle.autograd.backward([l1, l2], [paddle.to_tensor(1.0), paddle.to_tensor(3.0)])
    gn = float(paddle.sqrt(sum((p.grad ** 2).sum() for p in m.parameters())))
    opt.step()
    opt.clear_grad()
    print(step, "%.6e %.6e gn %.6e" % (float(l1), float(l2), gn))

# hapi: two labels, loss over (out1, out2, label1, label2)
class DS(paddle.io.Dataset):
    def __getitem__(self, i):
        return xs[i], cls[i], reg[i]
    def __len__(self):
        return N

class Joint(nn.Layer):
    def forward(self, out1, out2, lab1, lab2):
        return F.cross_entropy(out1, lab1) + F.mse_loss(out2, lab2)

paddle.seed(7)
net = MT()
model = paddle.Model(net, [InputSpec([None, 5], "float32", "x")],
                     [InputSpec([None, 1], "int64", "c"), InputSpec([None, 1], "float32", "r")])
model.prepare(paddle.optimizer.Adam(0.01, parameters=net.parameters()), Joint(), paddle.metric.Accuracy())

class Rec(paddle.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        print("epoch", epoch, sorted(logs), "%.6e" % logs["loss"][0], "%.6f" % logs["acc"])

model.fit(DS(), batch_size=8, epochs=3, shuffle=False, verbose=0, callbacks=[Rec()])
r = model.evaluate(DS(), batch_size=16, verbose=0)
print("eval", sorted(r), "%.6e" % r["loss"][0], "%.6f" % r["acc"])
p = model.predict(DS(), batch_size=16, verbose=0, stack_outputs=True)
print("pred", len(p), [a.shape for a in p], "%.6e %.6e" % (np.abs(p[0]).sum(), np.abs(p[1]).sum()))
out = model.train_batch([xs[:4]], [cls[:4], reg[:4]])
print("train_batch", type(out).__name__, len(out), ["%.6e" % float(np.asarray(v).ravel()[0]) for v in np.asarray(out[0], dtype=object).ravel()])
''',
    'pylayer': r'''
# custom autograd inside a model: PyLayer with save_for_backward, several inputs and outputs, a non-tensor
# argument, mark_non_differentiable, set_materialize_grads(False); tensor hooks and Layer forward hooks
import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.autograd import PyLayer

paddle.seed(11)
np.random.seed(11)

class ScaledSwish(PyLayer):
    @staticmethod
    def forward(ctx, x, beta, scale=1.0):
        s = F.sigmoid(beta * x)
        ctx.save_for_backward(x, s, beta)
        ctx.scale = scale
        return x * s * scale

    @staticmethod
    def backward(ctx, dy):
        x, s, beta = ctx.saved_tensor()
        dx = dy * ctx.scale * (s + x * beta * s * (1 - s))
        dbeta = (dy * ctx.scale * x * x * s * (1 - s)).sum().reshape(beta.shape)
        return dx, dbeta

class TopMask(PyLayer):
    """returns the input with its smallest entries zeroed and the (non-differentiable) mask"""
    @staticmethod
    def forward(ctx, x, k):
        thr = paddle.topk(x.abs(), k, axis=-1)[0][:, -1:]
        mask = (x.abs() >= thr).astype(x.dtype)
        ctx.save_for_backward(mask)
        ctx.mark_non_differentiable(mask)
        return x * mask, mask

    @staticmethod
    def backward(ctx, dy, dmask):
        mask, = ctx.saved_tensor()
        return dy * mask

class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 10)
        self.beta = self.create_parameter([1], default_initializer=nn.initializer.Constant(1.0))
        self.fc2 = nn.Linear(10, 3)
    def forward(self, x):
        h = ScaledSwish.apply(self.fc1(x), self.beta, scale=1.5)
        h, mask = TopMask.apply(h, 4)
        self.last_mask = mask
        return self.fc2(h)

net = Net()
calls = []
pre = net.fc2.register_forward_pre_hook(lambda layer, inp: (inp[0] * 0.5,))
post = net.fc1.register_forward_post_hook(lambda layer, inp, out: calls.append(out.shape) or out + 0.1)
X = paddle.to_tensor(np.random.randn(16, 6).astype("float32"))
Y = paddle.to_tensor(np.random.randint(0, 3, 16).astype("int64"))
opt = paddle.optimizer.Adam(0.02, parameters=net.parameters())
for step in range(6):
    out = net(X)
    loss = F.cross_entropy(out, Y)
    loss.backward()
    print(step, "%.6e" % float(loss), "beta %.6e grad %.6e" % (net.beta.item(), net.beta.grad.item()),
          net.last_mask.stop_gradient, "%.1f" % float(net.last_mask.sum()))
    opt.step()
    opt.clear_grad()
    if step == 3:
        pre.remove()
print("calls", len(calls), calls[0])
post.remove()

# tensor hooks: scale a gradient, inspect an intermediate's gradient, hook on a parameter
x = paddle.to_tensor([[1.0, -2.0, 3.0]], stop_gradient=False)
seen = []
h = x * x
hk = h.register_hook(lambda g: seen.append(g.numpy().tolist()) or g * 2)
y = (h * paddle.to_tensor([1.0, 2.0, 3.0])).sum()
y.backward()
print("x grad", x.grad.numpy().tolist(), "seen", seen)
hk.remove()
x.clear_grad()
(x * x).sum().backward()
print("after remove", x.grad.numpy().tolist())
lin = nn.Linear(3, 1)
lin.weight.register_hook(lambda g: paddle.clip(g, -0.1, 0.1))
lin(x).sum().backward()
print("clipped", lin.weight.grad.numpy().ravel().tolist())

# set_materialize_grads(False): an unused output gives None in backward
class TwoOut(PyLayer):
    @staticmethod
    def forward(ctx, a):
        ctx.set_materialize_grads(False)
        return a * 2, a * 3
    @staticmethod
    def backward(ctx, g1, g2):
        print("  g2 is None:", g2 is None)
        return g1 * 2 + (0 if g2 is None else g2 * 3)

a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
o1, o2 = TwoOut.apply(a)
o1.sum().backward()
print("two out", a.grad.numpy().tolist())
# once_differentiable-style double backward through a PyLayer made of paddle ops
class Cube(PyLayer):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(t)
        return t ** 3
    @staticmethod
    def backward(ctx, g):
        t, = ctx.saved_tensor()
        return 3 * t * t * g
b = paddle.to_tensor([2.0, -1.0], stop_gradient=False)
gb, = paddle.grad(Cube.apply(b).sum(), b, create_graph=True)
print("first", gb.numpy().tolist(), gb.stop_gradient)
gb.sum().backward()
print("second", b.grad.numpy().tolist())
''',
    'moe': r'''
# mixture of experts: top-2 softmax gating, dispatch with gather / index_select, combine with
# scatter(overwrite=False) and index_add, load-balancing auxiliary loss with one_hot and bincount,
# mixup augmentation with paddle.distribution.Beta and soft-label cross entropy, label_smooth
import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

paddle.seed(2025)
np.random.seed(2025)
D, E, K, N, C = 6, 4, 2, 20, 3

class MoE(nn.Layer):
    def __init__(self):
        super().__init__()
        self.gate = nn.Linear(D, E, bias_attr=False)
        self.experts = nn.LayerList([nn.Sequential(nn.Linear(D, 8), nn.SiLU(), nn.Linear(8, D)) for _ in range(E)])
        self.head = nn.Linear(D, C)
    def forward(self, x):
        probs = F.softmax(self.gate(x), axis=-1)
        topv, topi = paddle.topk(probs, K, axis=-1)
        topv = topv / topv.sum(-1, keepdim=True)
        out = paddle.zeros_like(x)
        for e in range(E):
            sel = (topi == e)
            rows = paddle.nonzero(sel.any(-1)).flatten()
            if rows.shape[0] == 0:
                continue
            w = (topv * sel.astype(topv.dtype)).sum(-1)
            xe = paddle.index_select(x, rows)
            ye = self.experts[e](xe) * paddle.gather(w, rows).unsqueeze(-1)
            out = paddle.index_add(out, rows, 0, ye)
        frac = F.one_hot(topi[:, 0], E).mean(0)
        aux = (frac * probs.mean(0)).sum() * E
        counts = paddle.bincount(topi.flatten(), minlength=E)
        return self.head(out + x), aux, counts

model = MoE()
opt = paddle.optimizer.AdamW(0.01, parameters=model.parameters(), weight_decay=0.01)
xs = np.random.randn(N, D).astype("float32")
ys = (np.abs(xs[:, :3]).argmax(1)).astype("int64")
beta = paddle.distribution.Beta(paddle.to_tensor(0.4), paddle.to_tensor(0.4))
for step in range(6):
    x, y = paddle.to_tensor(xs), paddle.to_tensor(ys)
    lam = beta.sample()
    perm = paddle.randperm(N)
    xm = lam * x + (1 - lam) * paddle.gather(x, perm)
    y1 = F.label_smooth(F.one_hot(y, C), epsilon=0.1)
    ym = lam * y1 + (1 - lam) * paddle.gather(y1, perm)
    logits, aux, counts = model(xm)
    ce = F.cross_entropy(logits, ym, soft_label=True)
    loss = ce + 0.01 * aux
    loss.backward()
    opt.step()
    opt.clear_grad()
    print(step, "lam %.6e" % float(lam), "ce %.6e aux %.6e" % (float(ce), float(aux)), counts.numpy().tolist(), counts.dtype)

# scatter with overwrite=False accumulates duplicate indices (and its gradient)
src = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], stop_gradient=False)
base = paddle.zeros([4, 2])
base.stop_gradient = False
idx = paddle.to_tensor([1, 3, 1])
sc = paddle.scatter(base, idx, src, overwrite=False)
(sc * paddle.arange(8, dtype="float32").reshape([4, 2])).sum().backward()
print("scatter", sc.numpy().tolist(), src.grad.numpy().tolist(), base.grad.numpy().tolist())
sc2 = paddle.scatter(paddle.zeros([4, 2]), idx, src, overwrite=True)
print("scatter overwrite", sc2.numpy().tolist())
pa = paddle.put_along_axis(paddle.zeros([2, 3]), paddle.to_tensor([[0, 0], [2, 1]]), paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]]), 1, reduce="add")
print("put_along_axis add", pa.numpy().tolist())
pm = paddle.put_along_axis(paddle.ones([2, 3]), paddle.to_tensor([[0, 0], [2, 1]]), paddle.to_tensor([[2.0, 5.0], [3.0, 4.0]]), 1, reduce="mul", include_self=False)
print("put_along_axis mul", pm.numpy().tolist())
pmean = paddle.put_along_axis(paddle.ones([2, 3]), paddle.to_tensor([[0, 0], [2, 1]]), paddle.to_tensor([[2.0, 5.0], [3.0, 4.0]]), 1, reduce="mean")
print("put_along_axis mean", pmean.numpy().tolist())
''',
    'flow': r'''
# a RealNVP-style normalising flow trained by maximum likelihood: affine coupling layers with masks,
# log-determinants, paddle.distribution Normal / Independent / MultivariateNormal / TransformedDistribution,
# sampling through the inverse; a Gaussian mixture fitted with Categorical + logsumexp
import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
import paddle.distribution as D

paddle.seed(31)
np.random.seed(31)
N = 64
t = np.random.rand(N) * np.pi
data = np.stack([np.cos(t), np.sin(t) - 0.5], 1).astype("float32") + 0.05 * np.random.randn(N, 2).astype("float32")

class Coupling(nn.Layer):
    def __init__(self, mask):
        super().__init__()
        self.register_buffer("mask", paddle.to_tensor(mask, dtype="float32"))
        self.net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 4))
    def forward(self, x):
        xm = x * self.mask
        s, tt = self.net(xm).chunk(2, axis=-1)
        s = paddle.tanh(s) * (1 - self.mask)
        tt = tt * (1 - self.mask)
        return xm + (1 - self.mask) * (x * paddle.exp(s) + tt), s.sum(-1)
    def inverse(self, y):
        ym = y * self.mask
        s, tt = self.net(ym).chunk(2, axis=-1)
        s = paddle.tanh(s) * (1 - self.mask)
        tt = tt * (1 - self.mask)
        return ym + (1 - self.mask) * (y - tt) * paddle.exp(-s)

class Flow(nn.Layer):
    def __init__(self):
        super().__init__()
        self.layers = nn.LayerList([Coupling([1, 0]), Coupling([0, 1]), Coupling([1, 0]), Coupling([0, 1])])
        self.base = D.Independent(D.Normal(paddle.zeros([2]), paddle.ones([2])), 1)
    def log_prob(self, x):
        ld = paddle.zeros([x.shape[0]])
        for l in self.layers:
            x, s = l(x)
            ld = ld + s
        return self.base.log_prob(x) + ld
    def sample(self, n):
        z = self.base.sample([n])
        for l in reversed(self.layers):
            z = l.inverse(z)
        return z

flow = Flow()
opt = paddle.optimizer.Adam(0.01, parameters=flow.parameters())
X = paddle.to_tensor(data)
for step in range(10):
    nll = -flow.log_prob(X).mean()
    nll.backward()
    opt.step(); opt.clear_grad()
    if step % 3 == 0:
        print(step, "nll %.6e" % float(nll))
with paddle.no_grad():
    s = flow.sample(5)
print("samples", s.shape, "%.5e" % float(s.abs().sum()))
print("buffers", [n for n, _ in flow.named_buffers()], len(flow.state_dict()))

# mixture of Gaussians by maximum likelihood with logsumexp
K = 3
logits = paddle.create_parameter([K], "float32", default_initializer=nn.initializer.Constant(0.0))
mu = paddle.create_parameter([K, 2], "float32", default_initializer=nn.initializer.Normal(0, 1))
log_sd = paddle.create_parameter([K, 2], "float32", default_initializer=nn.initializer.Constant(-1.0))
opt2 = paddle.optimizer.Adam(0.05, parameters=[logits, mu, log_sd])
for step in range(8):
    comp = D.Normal(mu, paddle.exp(log_sd))
    lp = comp.log_prob(X.unsqueeze(1)).sum(-1) + F.log_softmax(logits)
    nll = -paddle.logsumexp(lp, axis=-1).mean()
    nll.backward(); opt2.step(); opt2.clear_grad()
    print("gmm", step, "%.6e" % float(nll))
cat = D.Categorical(F.softmax(logits))
print("cat", cat.sample([6]).numpy().tolist(), "%.6e" % float(cat.entropy()))
mvn = D.MultivariateNormal(paddle.zeros([2]), covariance_matrix=paddle.to_tensor([[1.0, 0.3], [0.3, 0.5]]))
print("mvn", "%.6e" % float(mvn.log_prob(paddle.to_tensor([0.2, -0.1]))), "%.6e" % float(mvn.entropy()),
      mvn.sample([3]).shape)
td = D.TransformedDistribution(D.Normal(paddle.to_tensor(0.0), paddle.to_tensor(1.0)),
                               [D.AffineTransform(paddle.to_tensor(1.0), paddle.to_tensor(2.0)), D.ExpTransform()])
v = td.sample([4])
print("td", v.shape, "%.6e" % float(td.log_prob(paddle.to_tensor(3.0))), bool((v > 0).all()))
ln = D.LogNormal(paddle.to_tensor(1.0), paddle.to_tensor(2.0))
print("lognormal", "%.6e" % float(ln.log_prob(paddle.to_tensor(3.0))), "%.6e" % float(ln.mean), "%.6e" % float(ln.entropy()))
print("kl", "%.6e" % float(D.kl_divergence(D.Normal(paddle.to_tensor(0.0), paddle.to_tensor(1.0)), D.Normal(paddle.to_tensor(1.0), paddle.to_tensor(2.0)))))
''',
    'recompute': r'''
# activation checkpointing: paddle.distributed.fleet.utils.recompute around blocks with dropout
# (preserve_rng_state), use_reentrant False/True; DataParallel on one process; gradients equal to plain
import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.distributed.fleet.utils import recompute

paddle.seed(99)
np.random.seed(99)

class Block(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)
        self.drop = nn.Dropout(0.3)
    def forward(self, x):
        return x + self.drop(F.gelu(self.fc(x)))

class Net(nn.Layer):
    def __init__(self, use_rc, reentrant=True):
        super().__init__()
        self.blocks = nn.LayerList([Block() for _ in range(3)])
        self.head = nn.Linear(8, 1)
        self.use_rc, self.reentrant = use_rc, reentrant
    def forward(self, x):
        for b in self.blocks:
            x = recompute(b, x, use_reentrant=self.reentrant) if self.use_rc else b(x)
        return self.head(x)

xs = np.random.randn(12, 8).astype("float32")
res = {}
for tag, rc, re_ in (("plain", False, True), ("rc", True, True), ("rc_nonre", True, False)):
    paddle.seed(1)
    net = Net(rc, re_)
    opt = paddle.optimizer.SGD(0.05, parameters=net.parameters())
    x = paddle.to_tensor(xs)
    x.stop_gradient = False
    losses = []
    for step in range(4):
        paddle.seed(100 + step)
        loss = net(x).pow(2).mean()
        loss.backward()
        gx = float(x.grad.abs().sum())
        opt.step(); opt.clear_grad(); x.clear_grad()
        losses.append("%.6e/%.6e" % (float(loss), gx))
    print(tag, losses)
''',
    'transformer_s2s': r'''
# nn.Transformer encoder-decoder on a copy task with src/tgt/memory masks, custom RNN cell through
# nn.RNN and nn.BiRNN with sequence_length, greedy decoding with the full model
import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

paddle.seed(55)
np.random.seed(55)
V, D, T, B = 9, 16, 5, 8
BOS = 0
src = np.random.randint(1, V, [B, T]).astype("int64")
tgt_in = np.concatenate([np.zeros([B, 1], "int64"), src[:, :-1]], 1)

class S2S(nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, D)
        self.pos = self.create_parameter([1, 16, D], default_initializer=nn.initializer.Normal(0, 0.02))
        self.tf = nn.Transformer(D, nhead=2, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=32,
                                 dropout=0.0, normalize_before=False, activation="relu")
        self.out = nn.Linear(D, V)
    def forward(self, s, t):
        tm = self.tf.generate_square_subsequent_mask(t.shape[1])
        pad = (s == -1).astype("float32").unsqueeze([1, 2]) * -1e9
        h = self.tf(self.emb(s) + self.pos[:, :s.shape[1]], self.emb(t) + self.pos[:, :t.shape[1]],
                    src_mask=pad, tgt_mask=tm, memory_mask=pad)
        return self.out(h)

m = S2S()
opt = paddle.optimizer.AdamW(0.005, parameters=m.parameters())
S, TI, TO = paddle.to_tensor(src), paddle.to_tensor(tgt_in), paddle.to_tensor(src)
for step in range(10):
    logits = m(S, TI)
    loss = F.cross_entropy(logits, TO.unsqueeze(-1))
    loss.backward()
    opt.step(); opt.clear_grad()
    if step % 3 == 0:
        print(step, "%.6e" % float(loss), logits.shape)
m.eval()
with paddle.no_grad():
    ys = paddle.full([2, 1], BOS, "int64")
    for _ in range(T):
        nxt = m(S[:2], ys)[:, -1].argmax(-1, keepdim=True)
        ys = paddle.concat([ys, nxt], axis=1)
print("greedy", ys.numpy().tolist())

class MinGRU(nn.RNNCellBase):
    def __init__(self, i, h):
        super().__init__()
        self.z = nn.Linear(i + h, h)
        self.c = nn.Linear(i, h)
        self.hidden = h
        self.input_size, self.hidden_size = i, h
    @property
    def state_shape(self):
        return (self.hidden,)
    def forward(self, x, state):
        z = F.sigmoid(self.z(paddle.concat([x, state], -1)))
        h = (1 - z) * state + z * paddle.tanh(self.c(x))
        return h, h

paddle.seed(6)
rnn = nn.RNN(MinGRU(4, 6))
bi = nn.BiRNN(MinGRU(4, 6), MinGRU(4, 6))
x = paddle.randn([3, 5, 4])
lens = paddle.to_tensor([5, 2, 3])
o, h = rnn(x, sequence_length=lens)
print("rnn", o.shape, h.shape, "%.6e" % float(o.abs().sum()), "%.6e" % float(h.abs().sum()))
print("padded zero", float(o[1, 2:].abs().sum()))
o2, (hf, hb) = bi(x, sequence_length=lens)
print("birnn", o2.shape, hf.shape, "%.6e %.6e" % (float(o2.abs().sum()), float(hb.abs().sum())))
o3, h3 = rnn(x, initial_states=paddle.ones([3, 6]))
print("init", "%.6e" % float(o3.abs().sum()))
(o.sum() + o2.sum()).backward()
print("grads", "%.6e" % float(rnn.cell.z.weight.grad.abs().sum()), "%.6e" % float(bi.cell_bw.c.weight.grad.abs().sum()))
gru = nn.GRU(4, 6, direction="bidirect", num_layers=2)
og, hg = gru(x, sequence_length=lens)
print("gru", og.shape, hg.shape, "%.6e" % float(og.abs().sum()), float(og[1, 2:].abs().sum()))
lstm = nn.LSTM(4, 6, time_major=True, proj_size=3)
ol, (hl, cl) = lstm(x.transpose([1, 0, 2]))
print("lstm proj", ol.shape, hl.shape, cl.shape, "%.6e" % float(ol.abs().sum()))
''',
    'static_step': r'''
# to_static: a decorated forward with control flow on tensors (if / for over a tensor bound), a decorated
# loss function, full_graph=False fallback, InputSpec with None batch; training a to_static Layer with
# BatchNorm and Dropout; to_static on a Layer method; comparing eager and static outputs
import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.static import InputSpec

paddle.seed(8)
np.random.seed(8)

class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.bn = nn.BatchNorm1D(8)
        self.fc2 = nn.Linear(8, 2)
        self.drop = nn.Dropout(0.2)
    @paddle.jit.to_static(input_spec=[InputSpec([None, 4], "float32")])
    def forward(self, x):
        h = F.relu(self.bn(self.fc1(x)))
        if h.mean() > 0.3:
            h = h * 0.5
        else:
            h = h + 0.1
        i = paddle.to_tensor(0)
        while i < 2:
            h = paddle.tanh(h) + h
            i += 1
        return self.fc2(self.drop(h))

@paddle.jit.to_static
def loss_fn(logits, label, w):
    ce = F.cross_entropy(logits, label, reduction="none")
    return (ce * w).sum() / w.sum()

net = Net()
opt = paddle.optimizer.Momentum(0.05, parameters=net.parameters())
xs = np.random.randn(24, 4).astype("float32")
ys = (xs[:, 0] > xs[:, 1]).astype("int64")[:, None]
ws = np.random.rand(24, 1).astype("float32")
for ep in range(3):
    for b in range(0, 24, 8):
        x, y, w = (paddle.to_tensor(a[b:b + 8]) for a in (xs, ys, ws))
        loss = loss_fn(net(x), y, w)
        loss.backward()
        opt.step()
        opt.clear_grad()
    print("ep", ep, "%.6e" % float(loss), loss.shape, "%.6e" % float(net.bn._mean.abs().sum()))
net.eval()
out = net(paddle.to_tensor(xs[:5]))
print("eval", out.shape, "%.6e" % float(out.abs().sum()))
out = net(paddle.to_tensor(xs[:3]))
print("eval 3", out.shape, "%.6e" % float(out.abs().sum()))

# a function with a Python-level loop over a tensor's first dimension and a tensor-valued break
@paddle.jit.to_static
def cumulative(x):
    acc = paddle.zeros_like(x[0])
    for row in x:
        acc = acc + row
        if acc.sum() > 5.0:
            break
    return acc
print("cumulative", cumulative(paddle.to_tensor([[1.0, 2.0], [3.0, 1.0], [4.0, 4.0]])).numpy().tolist())
print("cumulative2", cumulative(paddle.to_tensor([[0.1, 0.2], [0.3, 0.1]])).numpy().tolist())

# gradients through to_static with a parameter used twice and stop_gradient inputs
lin = nn.Linear(3, 3)
def twice(t):
    return lin(lin(t)).sum()
st = paddle.jit.to_static(twice, full_graph=True)
t = paddle.ones([2, 3])
v = st(t)
v.backward()
print("twice", "%.6e" % float(v), "%.6e" % float(lin.weight.grad.abs().sum()), t.grad)
''',
    'static_program': r'''
# static graph, round 2: nn layers (Embedding, BatchNorm1D, LayerNorm) in a Program, an LR scheduler stepped
# from Python, gradient clipping and weight decay in a static optimizer, static.save / static.load /
# load_program_state / set_program_state, while_loop + cond + switch_case inside a program
import os, tempfile
import numpy as np
import paddle
import paddle.static as static
import paddle.nn.functional as F

paddle.enable_static()
paddle.seed(2)
main, start = static.Program(), static.Program()
main.random_seed = start.random_seed = 7
with static.program_guard(main, start):
    ids = static.data("ids", [None, 4], "int64")
    lab = static.data("lab", [None, 1], "int64")
    emb = paddle.nn.Embedding(20, 8)(ids)
    h = paddle.mean(emb, axis=1)
    h = static.nn.fc(h, 16, activation="tanh")
    h = paddle.nn.BatchNorm1D(16, momentum=0.8)(h)
    h = paddle.nn.LayerNorm(16)(h)
    h = F.dropout(h, 0.1)
    logits = static.nn.fc(h, 3)
    loss = F.cross_entropy(logits, lab).mean()
    acc = paddle.metric.accuracy(F.softmax(logits), lab)

    sched = paddle.optimizer.lr.PiecewiseDecay([3, 6], [0.1, 0.05, 0.01])
    opt = paddle.optimizer.Momentum(sched, momentum=0.9, weight_decay=paddle.regularizer.L2Decay(1e-3),
                                    grad_clip=paddle.nn.ClipGradByGlobalNorm(1.0))
    opt.minimize(loss)

exe = static.Executor(paddle.CPUPlace())
exe.run(start)
r = np.random.RandomState(4)
I = r.randint(0, 20, (48, 4)).astype("int64")
Y = (I.sum(1, keepdims=True) % 3).astype("int64")
for it in range(8):
    b = slice((it % 6) * 8, (it % 6) * 8 + 8)
    l, a = exe.run(main, feed={"ids": I[b], "lab": Y[b]}, fetch_list=[loss, acc])
    sched.step()
    print(it, "%.6e" % float(l), "%.4f" % float(a), "lr", sched.get_lr())
tl, ta = exe.run(main, feed={"ids": I, "lab": Y}, fetch_list=[loss, acc])
print("test", "%.6e" % float(tl), "%.4f" % float(ta))
tl2, = exe.run(main, feed={"ids": I, "lab": Y}, fetch_list=[loss])
print("restored", "%.6e" % float(tl2))
d = tempfile.mkdtemp()
static.save(main, os.path.join(d, "ck"))
print(sorted(os.listdir(d)))
for it in range(2):
    exe.run(main, feed={"ids": I[:8], "lab": Y[:8]}, fetch_list=[loss])
static.load(main, os.path.join(d, "ck"), exe)
tl3, = exe.run(main, feed={"ids": I, "lab": Y}, fetch_list=[loss])
print("reloaded", "%.6e" % float(tl3))
state = static.load_program_state(os.path.join(d, "ck"))
print("state", len(state), sorted(state)[:3])
static.set_program_state(main, state)
tl4, = exe.run(main, feed={"ids": I, "lab": Y}, fetch_list=[loss])
print("set state", "%.6e" % float(tl4))

# control flow in the program
p2, s2 = static.Program(), static.Program()
with static.program_guard(p2, s2):
    x = static.data("x", [3], "float32")
    i = paddle.full([1], 0, "int64")
    n = paddle.full([1], 4, "int64")
    def body(i, acc):
        return i + 1, acc * 1.5 + 1.0
    _, out = static.nn.while_loop(lambda i, acc: i < n, body, [i, x])
    y = static.nn.cond(out.sum() > 20, lambda: out - 10.0, lambda: out * 2.0)
    z = static.nn.switch_case(paddle.full([1], 1, "int64"), {0: lambda: y * 0, 1: lambda: y + 100.0}, default=lambda: y)
for v in ([1.0, 2.0, 3.0], [0.0, 0.1, 0.0]):
    o, yy, zz = exe.run(p2, feed={"x": np.array(v, "float32")}, fetch_list=[out, y, z])
    print("flow", np.round(o, 4).tolist(), np.round(yy, 4).tolist(), np.round(zz, 4).tolist())
''',
    'layer_reprs': r'''
# what print(layer) shows: the extra_repr of layers built with non-default arguments, containers, a model
import paddle, paddle.nn as nn
import numpy as np
paddle.seed(1)
layers = [
 nn.Conv2D(3, 8, 3, stride=2, padding=1, dilation=1, groups=1, bias_attr=False, data_format="NHWC"),
 nn.Conv1D(2, 4, 5, padding=2, padding_mode="reflect"),
 nn.Conv3DTranspose(2, 4, 3, output_padding=0, stride=1),
 nn.Conv2DTranspose(4, 2, (2, 3), stride=2, output_padding=1),
 nn.MaxPool2D(3, 2, 1, ceil_mode=True), nn.AvgPool1D(2, exclusive=False), nn.AdaptiveAvgPool2D((2, 3)),
 nn.AdaptiveMaxPool1D(4, return_mask=True), nn.LPPool2D(2, 3) if hasattr(nn, "LPPool2D") else nn.Identity(),
 nn.BatchNorm2D(5, momentum=0.8, epsilon=1e-3), nn.LayerNorm([4, 5], epsilon=1e-6), nn.GroupNorm(2, 4),
 nn.InstanceNorm1D(3), nn.SyncBatchNorm(4), nn.LocalResponseNorm(3), nn.RMSNorm(6) if hasattr(nn, "RMSNorm") else nn.Identity(),
 nn.Embedding(10, 4, padding_idx=0, sparse=True), nn.Linear(3, 4, name="fc"), nn.Bilinear(2, 3, 4),
 nn.Dropout(0.3, axis=1, mode="downscale_in_infer"), nn.Dropout2D(0.2), nn.AlphaDropout(0.1), nn.FeatureAlphaDropout(0.2) if hasattr(nn, "FeatureAlphaDropout") else nn.Identity(),
 nn.LeakyReLU(0.1), nn.ELU(0.5), nn.GELU(approximate=True), nn.Hardtanh(-2, 2), nn.PReLU(3, 0.1), nn.RReLU(0.1, 0.2),
 nn.Softmax(axis=1), nn.LogSoftmax(0), nn.Softplus(2, 10), nn.Hardshrink(0.3), nn.Softshrink(0.2), nn.ThresholdedReLU(0.5),
 nn.Maxout(2), nn.CELU(0.3), nn.Swish(), nn.Mish(), nn.SELU(), nn.Silu(), nn.Tanhshrink(), nn.Hardswish(), nn.Hardsigmoid(),
 nn.GLU(axis=0) if hasattr(nn, "GLU") else nn.Identity(),
 nn.Flatten(1, 2), nn.Unflatten(1, [2, 3]), nn.Pad2D([1, 1, 2, 2], mode="reflect"), nn.ZeroPad2D(2), nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True),
 nn.UpsamplingNearest2D(size=[4, 4]), nn.PixelShuffle(2), nn.PixelUnshuffle(2), nn.ChannelShuffle(2), nn.Fold([4, 4], 2), nn.Unfold(2, strides=2),
 nn.LSTM(4, 8, num_layers=2, direction="bidirect", dropout=0.1), nn.GRU(3, 5, time_major=True), nn.SimpleRNN(3, 4, activation="relu"),
 nn.LSTMCell(3, 4), nn.GRUCell(3, 4), nn.SimpleRNNCell(3, 4, activation="relu"),
 nn.MultiHeadAttention(8, 2, dropout=0.1), nn.TransformerEncoderLayer(8, 2, 16),
 nn.CrossEntropyLoss(ignore_index=1, label_smoothing=0.1), nn.MSELoss("sum"), nn.CTCLoss(), nn.KLDivLoss("batchmean", log_target=True),
 nn.CosineSimilarity(axis=0, eps=1e-6), nn.PairwiseDistance(p=1.0, keepdim=True), nn.Identity(),
 nn.SpectralNorm([3, 4]) if hasattr(nn, "SpectralNorm") else nn.Identity(),
]
for l in layers:
    try:
        print(repr(l))
    except Exception as e:
        print(type(l).__name__, "raised", type(e).__name__)
seq = nn.Sequential(("a", nn.Linear(2, 3)), ("b", nn.ReLU()))
print(seq)
print(nn.LayerList([nn.Linear(1, 1), nn.Sequential(nn.Tanh())]))
print(nn.LayerDict({"x": nn.ReLU(), "y": nn.Conv2D(1, 1, 1)}))
print(nn.ParameterList([paddle.create_parameter([2], "float32")]))
print(paddle.vision.models.LeNet())
''',
    'summary': r'''
# paddle.summary: nested outputs (LSTM states), several inputs with dtypes, input= a tensor, an RNN layer
import numpy as np
import paddle
import paddle.nn as nn
paddle.seed(0)
class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(3, 8, 3, padding=1, groups=1)
        self.dw = nn.Conv2D(8, 8, 3, groups=8)
        self.bn = nn.BatchNorm2D(8)
        self.pool = nn.AdaptiveAvgPool2D(1)
        self.up = nn.Upsample(scale_factor=2)
        self.fc = nn.Linear(8, 4)
        self.act = nn.ReLU6()
        self.lstm = nn.LSTM(4, 6)
        self.emb = nn.Embedding(5, 4)
        self.ln = nn.LayerNorm(4)
        self.drop = nn.Dropout()
    def forward(self, x):
        h = self.act(self.bn(self.dw(self.conv(x))))
        h = self.pool(self.up(h)).flatten(1)
        h = self.drop(self.ln(self.fc(h)))
        o, _ = self.lstm(h.unsqueeze(1))
        return o
net = Net()
print(paddle.summary(net, (2, 3, 16, 16)))
class Two(nn.Layer):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(3, 4); self.b = nn.Conv1D(2, 3, 3)
    def forward(self, x, y):
        return self.a(x), self.b(y).mean()
print(paddle.summary(Two(), [(1, 3), (1, 2, 7)], dtypes=["float32", "float32"]))
def cnt(m, x, y):
    m.total_ops += 100
print(paddle.summary(nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.ReLU(), nn.Linear(2, 3))), input=paddle.ones([4, 2])))
print(paddle.summary(nn.LSTM(3, 4, 2), (2, 5, 3)))
''',
}

GROUPS = {
    'round5': ['tied_lm', 'freeze', 'multi_out', 'pylayer', 'moe', 'flow', 'recompute', 'transformer_s2s', 'static_step', 'static_program', 'layer_reprs', 'summary'],
}


@pytest.mark.parametrize("group", list(GROUPS))
def test_scripts_print_paddles_numbers(group: str, tmp_path) -> None:
    check_scripts(SCRIPTS, GROUPS[group], tmp_path, TIMEOUT)


# ---- a checkpoint moves between frameworks mid-training -------------------------------------

_XS = np.random.RandomState(0).randn(16, 5).astype("float32")
_YS = np.random.RandomState(1).randn(16, 1).astype("float32")

_OPTIMIZERS = {
    "adamw": lambda fw, s, p: fw.optimizer.AdamW(s, parameters=p, weight_decay=0.1, amsgrad=True,
                                                 grad_clip=fw.nn.ClipGradByGlobalNorm(1.0)),
    "momentum": lambda fw, s, p: fw.optimizer.Momentum(s, momentum=0.9, parameters=p, use_nesterov=True,
                                                       weight_decay=fw.regularizer.L2Decay(0.01)),
    "lamb": lambda fw, s, p: fw.optimizer.Lamb(s, parameters=p, lamb_weight_decay=0.02),
}


def _session(fw, opt_name: str, load_from: str | None, save_to: str | None) -> list[float]:
    """Build a BatchNorm MLP with ``opt_name`` under a LinearWarmup(CosineAnnealing) schedule, in a
    fresh name space (as a new process would have); either train 3 steps and save model and
    optimizer to ``save_to``, or load them from ``load_from``; then return the next 3 losses."""
    with fw.utils.unique_name.guard():
        fw.seed(3)
        nn = fw.nn
        net = nn.Sequential(nn.Linear(5, 8, bias_attr=False), nn.BatchNorm1D(8), nn.Tanh(), nn.Linear(8, 1))
        sched = fw.optimizer.lr.LinearWarmup(fw.optimizer.lr.CosineAnnealingDecay(0.05, T_max=6), 2, 0.0, 0.05)
        opt = _OPTIMIZERS[opt_name](fw, sched, net.parameters())

        def steps(k: int) -> list[float]:
            out = []
            for _ in range(k):
                loss = nn.functional.mse_loss(net(fw.to_tensor(_XS)), fw.to_tensor(_YS))
                loss.backward()
                opt.step()
                opt.clear_grad()
                sched.step()
                out.append(float(loss))
            return out

        if load_from:
            net.set_state_dict(fw.load(load_from + ".pdparams"))
            opt.set_state_dict(fw.load(load_from + ".pdopt"))
        else:
            steps(3)
            fw.save(net.state_dict(), save_to + ".pdparams")
            fw.save(opt.state_dict(), save_to + ".pdopt")
        return steps(3)


@pytest.mark.parametrize("opt_name", list(_OPTIMIZERS))
def test_checkpoint_resumes_in_the_other_framework(opt_name: str, tmp_path) -> None:
    """A model + optimizer (+ LR scheduler) checkpoint that one framework writes after 3 steps
    resumes in the other: the next 3 losses are the writer's own, in both directions."""
    ref = paddle_ref()
    for writer, reader in ((ref, pagaie), (pagaie, ref)):
        path = str(tmp_path / f"{writer.__name__}_{opt_name}")
        expected = _session(writer, opt_name, None, path)
        resumed = _session(reader, opt_name, path, None)
        np.testing.assert_allclose(resumed, expected, rtol=2e-5, err_msg=f"{writer.__name__} -> {reader.__name__}")


# ---- differences found this round (xfail until the owning files change) ---------------------

def _backward_outcome(fw, make) -> str:
    x = fw.to_tensor([0.5, -1.0, 2.0], stop_gradient=False)
    try:
        make(fw, x * 1.0).sum().backward()
    except RuntimeError:
        return "RuntimeError"
    return "ok " + str(np.round(x.grad.numpy(), 5).tolist())


def test_inplace_write_after_an_inplace_op_that_saved_its_result() -> None:
    """``h.tanh_(); h.scale_(2.0)``: tanh_'s backward saved h, so Paddle's backward raises
    RuntimeError (the version check), on the first call as on every later one."""
    def make(fw, h):
        h.tanh_()
        return h.scale_(2.0)
    ref = paddle_ref()
    theirs = _backward_outcome(ref, make)
    assert theirs == "RuntimeError"
    assert [_backward_outcome(pagaie, make) for _ in range(2)] == [theirs, theirs]


@pytest.mark.xfail(reason="needs pagaie/_ops/nn_activation.py change (relu saves its output)", strict=False)
def test_inplace_write_into_a_relu_output_breaks_its_backward() -> None:
    """Paddle's relu backward reads relu's output: writing into that output in place makes the
    backward raise RuntimeError (as tanh / sigmoid / exp do in both frameworks)."""
    def make(fw, h):
        y = fw.nn.functional.relu(h)
        y[0] = 1.0
        return y
    assert _backward_outcome(pagaie, make) == _backward_outcome(paddle_ref(), make) == "RuntimeError"

