"""Whole Paddle scripts, end to end, against real Paddle 3.3.1.

Each script is written once against ``paddle`` in the style of Paddle's tutorials (synthetic,
seeded data instead of downloads) and run twice in subprocesses: with real Paddle, and with
pagaie through ``pagaie run`` (``import paddle`` gives pagaie). pagaie's CPU random streams are
Paddle's, so the printed numbers must agree: exactly, or to 1e-5 where float reductions add in
another order. Scripts of a group share one interpreter per framework (to pay the import once);
the runner gives each a fresh unique-name space, and each seeds itself.
"""
from __future__ import annotations

import importlib.util
import os
import re
import signal
import subprocess
import sys

import pytest

RTOL, ATOL = 1e-5, 1e-6
TIMEOUT = 90  # seconds per script group and framework; a group takes 5-15 s

SCRIPTS = {
    'lenet_model': r'''
# LeNet on synthetic MNIST-like data with paddle.Model (fit/evaluate/predict, save/load)
import os, tempfile
import numpy as np
import paddle
from paddle.io import Dataset
from paddle.metric import Accuracy

paddle.seed(2024)
np.random.seed(2024)

class RandomDataset(Dataset):
    def __init__(self, n, seed):
        rng = np.random.RandomState(seed)
        self.x = rng.rand(n, 1, 28, 28).astype("float32")
        self.y = rng.randint(0, 10, size=(n, 1)).astype("int64")
    def __getitem__(self, i):
        return self.x[i], self.y[i]
    def __len__(self):
        return len(self.x)

net = paddle.vision.models.LeNet(num_classes=10)
model = paddle.Model(net, inputs=[paddle.static.InputSpec([None, 1, 28, 28], "float32", "image")],
                     labels=[paddle.static.InputSpec([None, 1], "int64", "label")])
opt = paddle.optimizer.Adam(learning_rate=0.001, parameters=model.parameters())
model.prepare(opt, paddle.nn.CrossEntropyLoss(), Accuracy(topk=(1, 2)))

class Rec(paddle.callbacks.Callback):
    def on_train_batch_end(self, step, logs=None):
        if step % 3 == 0:
            print("batch", step, "loss %.6e" % logs["loss"][0], "acc", ["%.6f" % a for a in (logs["acc_top1"], logs["acc_top2"])])
    def on_epoch_end(self, epoch, logs=None):
        print("epoch", epoch, "loss %.6e" % logs["loss"][0])

train, val = RandomDataset(96, 1), RandomDataset(32, 2)
model.fit(train, val, epochs=3, batch_size=16, shuffle=True, verbose=0, callbacks=[Rec()])
res = model.evaluate(val, batch_size=16, verbose=0)
print("eval", {k: (["%.6e" % x for x in v] if isinstance(v, list) else "%.6f" % v) for k, v in res.items()})
pred = model.predict(val, batch_size=16, stack_outputs=True, verbose=0)
print("pred", len(pred), pred[0].shape, "%.6e" % float(np.abs(pred[0]).sum()))
d = tempfile.mkdtemp()
model.save(os.path.join(d, "lenet"))
net2 = paddle.vision.models.LeNet(num_classes=10)
m2 = paddle.Model(net2)
m2.prepare(paddle.optimizer.Adam(learning_rate=0.001, parameters=m2.parameters()), paddle.nn.CrossEntropyLoss())
m2.load(os.path.join(d, "lenet"))
x = paddle.to_tensor(val.x[:4])
print("reload diff", float((net(x) - net2(x)).abs().max()))
out = m2.predict_batch([val.x[:4]])
print("predict_batch %.6e" % float(np.abs(out[0]).sum()))
print(sorted(os.listdir(d)))
''',
    'hapi_callbacks': r'''
# paddle.Model with verbose logging, EarlyStopping, ModelCheckpoint, LRScheduler, ReduceLROnPlateau, summary
import os, tempfile
import numpy as np
import paddle
import paddle.nn as nn
from paddle.static import InputSpec

paddle.seed(31)
np.random.seed(31)

class DS(paddle.io.Dataset):
    def __init__(self, n, s):
        r = np.random.RandomState(s)
        self.x = r.rand(n, 10).astype("float32")
        self.y = (self.x[:, :3].sum(1) > 1.5).astype("int64")[:, None]
    def __getitem__(self, i):
        return self.x[i], self.y[i]
    def __len__(self):
        return len(self.x)

net = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Dropout(0.1), nn.Linear(20, 2))
model = paddle.Model(net, InputSpec([None, 10], "float32", "x"), InputSpec([None, 1], "int64", "y"))
info = model.summary()
print("summary", info)
sched = paddle.optimizer.lr.ExponentialDecay(0.05, gamma=0.8)
model.prepare(paddle.optimizer.Momentum(sched, parameters=model.parameters()), nn.CrossEntropyLoss(),
              [paddle.metric.Accuracy(topk=(1, 2))])
d = tempfile.mkdtemp()
cbs = [paddle.callbacks.EarlyStopping("loss", mode="min", patience=1, min_delta=0.5, verbose=1, save_best_model=False),
       paddle.callbacks.LRScheduler(by_step=False, by_epoch=True)]
model.fit(DS(60, 1), DS(20, 2), batch_size=16, epochs=4, eval_freq=1, log_freq=2, verbose=2, shuffle=True,
          save_dir=d, save_freq=2, callbacks=cbs)
print(sorted(os.listdir(d)))
print("lr", "%.6e" % model._optimizer.get_lr())
model2 = paddle.Model(nn.Sequential(nn.Linear(10, 2)))
opt2 = paddle.optimizer.SGD(0.5, parameters=model2.parameters())
model2.prepare(opt2, nn.CrossEntropyLoss(), paddle.metric.Accuracy())
model2.fit(DS(48, 3), DS(16, 4), batch_size=16, epochs=3, verbose=1, num_workers=0,
           callbacks=[paddle.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=0, verbose=1)])
print("lr2", opt2.get_lr())
r = model2.evaluate(DS(16, 4), batch_size=8, verbose=1)
print({k: ["%.6e" % x for x in v] if isinstance(v, list) else "%.6f" % v for k, v in r.items()})
''',
    'hapi_multi_input': r'''
# paddle.Model details: multi-input network, num_iters, accumulate_grad_batches, train_batch/eval_batch,
# save(training=False) inference export, load(skip_mismatch, reset_optimizer), predict with several outputs
import os, tempfile
import numpy as np
import paddle
import paddle.nn as nn
from paddle.static import InputSpec

paddle.seed(123)
np.random.seed(123)

class TwoIn(nn.Layer):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 8)
        self.b = nn.Linear(3, 8)
        self.head = nn.Linear(8, 3)
    def forward(self, x1, x2):
        h = paddle.tanh(self.a(x1) + self.b(x2))
        return self.head(h), h.mean(axis=1, keepdim=True)

class DS(paddle.io.Dataset):
    def __init__(self, n):
        r = np.random.RandomState(n)
        self.a, self.b = r.rand(n, 4).astype("float32"), r.rand(n, 3).astype("float32")
        self.y = r.randint(0, 3, (n, 1)).astype("int64")
    def __getitem__(self, i):
        return self.a[i], self.b[i], self.y[i]
    def __len__(self):
        return len(self.y)

def loss_fn(logits, aux, label):
    return nn.functional.cross_entropy(logits, label) + 0.1 * aux.mean()

class Acc(paddle.metric.Accuracy):
    def compute(self, logits, aux, label):
        return super().compute(logits, label)

inputs = [InputSpec([None, 4], "float32", "x1"), InputSpec([None, 3], "float32", "x2")]
labels = [InputSpec([None, 1], "int64", "label")]
model = paddle.Model(TwoIn(), inputs, labels)
model.prepare(paddle.optimizer.Adam(0.01, parameters=model.parameters()), loss_fn, Acc())
hist = []
class Log(paddle.callbacks.Callback):
    def on_train_batch_end(self, step, logs=None):
        hist.append("%.6e" % logs["loss"][0])
    def on_eval_end(self, logs=None):
        # (only this model's keys: Paddle's logs dict is a mutable default shared by every Model)
        print("eval_end", {k: logs[k] for k in ("acc", "step", "batch_size")}, "%.6e" % logs["loss"][0])
model.fit(DS(40), DS(12), batch_size=8, epochs=3, verbose=0, num_iters=7, accumulate_grad_batches=2,
          callbacks=[Log()])
print("hist", hist)
d = DS(6)
out = model.train_batch([d.a, d.b], [d.y])
print("train_batch", ["%.6e" % float(np.asarray(v).ravel()[0]) for v in out[0]] if isinstance(out, tuple) else out)
out = model.eval_batch([d.a, d.b], [d.y])
print("eval_batch", out)
preds = model.predict(DS(10), batch_size=4, verbose=0)
print("predict", len(preds), [len(p) for p in preds], [p[0].shape for p in preds])
tmp = tempfile.mkdtemp()
model.save(os.path.join(tmp, "ckpt"))
model.save(os.path.join(tmp, "infer", "m"), training=False)
print(sorted(os.listdir(tmp)), sorted(os.listdir(os.path.join(tmp, "infer"))))
m2 = paddle.Model(TwoIn(), inputs, labels)
m2.prepare(paddle.optimizer.Adam(0.01, parameters=m2.parameters()), loss_fn)
m2.load(os.path.join(tmp, "ckpt"), reset_optimizer=True)
o1 = model.predict_batch([d.a, d.b])
o2 = m2.predict_batch([d.a, d.b])
print("loaded", [float(np.abs(a - b).max()) for a, b in zip(o1, o2)])
loaded = paddle.jit.load(os.path.join(tmp, "infer", "m"))
o3 = loaded(paddle.to_tensor(d.a), paddle.to_tensor(d.b))
print("jit", float(np.abs(o3[0].numpy() - o1[0]).max()) < 1e-6)
print("params", [p.name for p in model.parameters()][:3], len(model.network.state_dict()))
''',
    'summary_fit_loader': r'''
import numpy as np
import paddle
import paddle.nn as nn

paddle.seed(2)

class MultiIn(nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(20, 8)
        self.lstm = nn.LSTM(8, 6)
        self.conv = nn.Conv2D(3, 4, 3, stride=2)
        self.bn = nn.BatchNorm2D(4)
        self.fc = nn.Linear(6 + 4, 2)
    def forward(self, ids, img):
        _, (h, _) = self.lstm(self.emb(ids))
        c = paddle.mean(self.bn(self.conv(img)), axis=[2, 3])
        return self.fc(paddle.concat([h[-1], c], axis=1))

info = paddle.summary(MultiIn(), [(2, 5), (2, 3, 9, 9)], dtypes=["int64", "float32"])
print(info)
lenet = paddle.vision.models.LeNet()
print(paddle.summary(lenet, (1, 1, 28, 28)))

class DS(paddle.io.Dataset):
    def __getitem__(self, i):
        r = np.random.RandomState(i)
        return r.rand(1, 28, 28).astype("float32"), np.array([i % 10], "int64")
    def __len__(self):
        return 20
np.random.seed(2)
model = paddle.Model(lenet)
model.prepare(paddle.optimizer.Adam(0.001, parameters=lenet.parameters()), nn.CrossEntropyLoss(),
              paddle.metric.Accuracy())
loader = paddle.io.DataLoader(DS(), batch_size=6, shuffle=True, drop_last=True)
model.fit(loader, loader, epochs=3, eval_freq=2, verbose=1, save_freq=2)
print(model.evaluate(paddle.io.DataLoader(DS(), batch_size=5), verbose=0))
''',
    'custom_loop': r'''
# custom training loop: DataLoader shuffle/drop_last, Momentum + weight decay, grad clip, LR schedulers
import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

paddle.seed(7)
np.random.seed(7)
X = paddle.rand([50, 8])
W = paddle.randn([8, 3])
Y = paddle.argmax(X @ W + 0.1 * paddle.randn([50, 3]), axis=1)

class DS(paddle.io.Dataset):
    def __getitem__(self, i):
        return X[i], Y[i]
    def __len__(self):
        return 50

class MLP(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.drop = nn.Dropout(0.2)
        self.fc2 = nn.Linear(16, 3)
    def forward(self, x):
        return self.fc2(self.drop(F.relu(self.fc1(x))))

net = MLP()
sched = paddle.optimizer.lr.PiecewiseDecay(boundaries=[6, 12], values=[0.1, 0.05, 0.01])
opt = paddle.optimizer.Momentum(learning_rate=sched, momentum=0.9, parameters=net.parameters(),
                                weight_decay=paddle.regularizer.L2Decay(1e-3),
                                grad_clip=nn.ClipGradByGlobalNorm(1.0))
loader = paddle.io.DataLoader(DS(), batch_size=8, shuffle=True, drop_last=True)
for epoch in range(3):
    net.train()
    for step, (xb, yb) in enumerate(loader):
        loss = F.cross_entropy(net(xb), yb)
        loss.backward()
        opt.step()
        opt.clear_grad()
        sched.step()
        print(epoch, step, "%.8e" % float(loss), "lr", opt.get_lr(), yb.numpy().tolist()[:4])
    net.eval()
    with paddle.no_grad():
        acc = (net(X).argmax(1) == Y).astype("float32").mean()
    print("epoch", epoch, "acc %.6f" % float(acc))

# Adam + CosineAnnealing per epoch + ClipGradByNorm + L1Decay
net2 = MLP()
cos = paddle.optimizer.lr.CosineAnnealingDecay(learning_rate=0.01, T_max=3)
opt2 = paddle.optimizer.AdamW(learning_rate=cos, parameters=net2.parameters(), weight_decay=0.01,
                              grad_clip=nn.ClipGradByNorm(0.5))
loader2 = paddle.io.DataLoader(DS(), batch_size=16, shuffle=True, drop_last=False)
for epoch in range(3):
    for xb, yb in loader2:
        loss = F.cross_entropy(net2(xb), yb)
        loss.backward()
        opt2.step()
        opt2.clear_grad()
    cos.step()
    print("adamw", epoch, "%.8e" % float(loss), "%.8e" % cos.get_lr(), xb.shape)
print("w", ["%.8e" % v for v in net2.fc2.weight.numpy().ravel()[:6]])
''',
    'text_rnn_tagger': r'''
# text: Embedding + LSTM/GRU classifier; BiGRU tagger with ViterbiDecoder
import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
from paddle.text import ViterbiDecoder, viterbi_decode
# text classifier: Embedding + LSTM/GRU + dropout, padded batches with sequence lengths

paddle.seed(11)
np.random.seed(11)
rng = np.random.RandomState(11)
VOCAB, N, T = 50, 40, 12
lens = rng.randint(3, T + 1, size=N)
ids = np.zeros((N, T), "int64")
for i, l in enumerate(lens):
    ids[i, :l] = rng.randint(1, VOCAB, size=l)
labels = (ids.sum(1) % 2).astype("int64")

class TextDS(paddle.io.Dataset):
    def __getitem__(self, i):
        return ids[i], np.int64(lens[i]), labels[i]
    def __len__(self):
        return N

class RNNClassifier(nn.Layer):
    def __init__(self, cell="lstm"):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 16, padding_idx=0)
        if cell == "lstm":
            self.rnn = nn.LSTM(16, 24, num_layers=2, direction="bidirect", dropout=0.1)
        else:
            self.rnn = nn.GRU(16, 24, num_layers=1)
        self.cell = cell
        self.drop = nn.Dropout(0.3)
        self.fc = nn.Linear(48 if cell == "lstm" else 24, 2)
    def forward(self, x, seq_len):
        e = self.drop(self.emb(x))
        out, state = self.rnn(e, sequence_length=seq_len)
        h = state[0] if self.cell == "lstm" else state
        if self.cell == "lstm":
            feat = paddle.concat([h[-2], h[-1]], axis=-1)
        else:
            feat = h[-1]
        return self.fc(self.drop(feat)), out

for cell in ("lstm", "gru"):
    model = RNNClassifier(cell)
    opt = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    loader = paddle.io.DataLoader(TextDS(), batch_size=10, shuffle=True)
    for epoch in range(2):
        model.train()
        for step, (x, l, y) in enumerate(loader):
            logits, out = model(x, l)
            loss = nn.functional.cross_entropy(logits, y)
            loss.backward()
            opt.step()
            opt.clear_grad()
            print(cell, epoch, step, "%.7e" % float(loss), out.shape, "%.7e" % float(out.abs().sum()))
    model.eval()
    logits, out = model(paddle.to_tensor(ids[:5]), paddle.to_tensor(lens[:5]))
    print(cell, "eval", ["%.7e" % v for v in logits.numpy().ravel()])
    print(cell, "padded tail zero:", float(out[0, int(lens[0]):].abs().sum()) if lens[0] < T else "full")
sd = model.state_dict()
print(sorted(sd.keys()))
# sequence tagging: Embedding + BiGRU + Linear emissions, token-level loss with mask, ViterbiDecoder

paddle.seed(8)
np.random.seed(8)
N, T, V, K = 12, 7, 20, 4
lens = paddle.randint(2, T + 1, [N])
tokens = paddle.randint(1, V, [N, T])
tags = (tokens % K).astype("int64")
mask = paddle.arange(T).unsqueeze(0) < lens.unsqueeze(1)

class Tagger(nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 12)
        self.gru = nn.GRU(12, 10, direction="bidirectional", time_major=False)
        self.out = nn.Linear(20, K)
        self.trans = self.create_parameter([K, K], default_initializer=nn.initializer.Uniform(-0.1, 0.1))
        self.decoder = ViterbiDecoder(self.trans, include_bos_eos_tag=False)
    def forward(self, x, l):
        h, _ = self.gru(self.emb(x), sequence_length=l)
        return self.out(h)

net = Tagger()
opt = paddle.optimizer.Adagrad(0.1, parameters=net.parameters())
for it in range(5):
    em = net(tokens, lens)
    tok_loss = F.cross_entropy(em, tags.unsqueeze(-1), reduction="none").squeeze(-1)
    loss = (tok_loss * mask.astype("float32")).sum() / mask.astype("float32").sum()
    loss.backward()
    opt.step()
    opt.clear_grad()
    print(it, "%.8e" % float(loss))
net.eval()
em = net(tokens, lens)
scores, path = net.decoder(em, lens)
print("viterbi", ["%.5e" % v for v in scores.numpy()], path.shape)
print("paths", path.numpy()[:3].tolist())
s2, p2 = viterbi_decode(em, paddle.rand([K + 2, K + 2]) if False else net.trans, lens, include_bos_eos_tag=True)
print("bos", ["%.5e" % v for v in s2.numpy()[:4]], p2.numpy()[0].tolist())
pred = paddle.argmax(em, -1)
acc = ((pred == tags).astype("float32") * mask.astype("float32")).sum() / mask.astype("float32").sum()
print("token acc %.6f" % float(acc))
''',
    'transformer': r'''
# small Transformer encoder classifier with masks, LayerNorm, positional embedding, warmup scheduler
import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F

paddle.seed(3)
VOCAB, T, N = 30, 10, 32
tok = paddle.randint(1, VOCAB, [N, T])
lens = paddle.randint(4, T + 1, [N])
mask_np = np.arange(T)[None, :] < lens.numpy()[:, None]
tok = paddle.where(paddle.to_tensor(mask_np), tok, paddle.zeros_like(tok))
y = (tok.sum(1) % 3).astype("int64")

class Enc(nn.Layer):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, 32)
        self.pos = nn.Embedding(T, 32)
        layer = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.1, activation="gelu", normalize_before=True)
        self.enc = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(32))
        self.fc = nn.Linear(32, 3)
    def forward(self, x, m):
        h = self.emb(x) + self.pos(paddle.arange(T).unsqueeze(0))
        attn = (1.0 - m.astype("float32").unsqueeze(1).unsqueeze(1)) * -1e9
        h = self.enc(h, src_mask=attn)
        mf = m.astype("float32").unsqueeze(-1)
        return self.fc((h * mf).sum(1) / mf.sum(1))

net = Enc()
sched = paddle.optimizer.lr.LinearWarmup(paddle.optimizer.lr.NoamDecay(32, 4, learning_rate=1.0), warmup_steps=3,
                                         start_lr=0.0, end_lr=0.002)
opt = paddle.optimizer.AdamW(learning_rate=sched, parameters=net.parameters(), weight_decay=0.01,
                             grad_clip=nn.ClipGradByGlobalNorm(1.0))
m = paddle.to_tensor(mask_np)
for it in range(8):
    idx = paddle.randperm(N)[:8]
    logits = net(tok[idx], m[idx])
    loss = F.cross_entropy(logits, y[idx], label_smoothing=0.1)
    loss.backward()
    opt.step()
    opt.clear_grad()
    sched.step()
    print(it, "%.7e" % float(loss), "%.7e" % sched.last_lr, idx.numpy().tolist()[:3])
net.eval()
out = net(tok[:4], m[:4])
print("eval", ["%.3f" % v for v in out.numpy().ravel()])  # 20 float32 steps: the last digits vary with the CPU
mha = nn.MultiHeadAttention(32, 4, need_weights=True)
q = paddle.rand([2, 5, 32])
o, w = mha(q, q, q)
print("mha", "%.7e" % float(o.sum()), w.shape, "%.7e" % float(w.sum()))
tr = nn.Transformer(16, 2, 1, 1, 32, dropout=0.0)
src, tgt = paddle.rand([2, 6, 16]), paddle.rand([2, 4, 16])
print("transformer", "%.7e" % float(tr(src, tgt, tgt_mask=tr.generate_square_subsequent_mask(4)).abs().sum()))
''',
    'resnet_bn': r'''
# ResNet-ish CNN with BatchNorm on synthetic CIFAR-like images, vision transforms, train/eval
import random
import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
import paddle.vision.transforms as T

paddle.seed(5)
np.random.seed(5)
random.seed(5)
imgs = (np.random.rand(24, 32, 32, 3) * 255).astype("uint8")
labels = np.random.randint(0, 4, size=(24,)).astype("int64")

transform = T.Compose([T.RandomCrop(28, padding=2), T.RandomHorizontalFlip(0.5), T.ToTensor(),
                       T.Normalize(mean=[0.5, 0.5, 0.5], std=[0.25, 0.25, 0.25])])

class CifarLike(paddle.io.Dataset):
    def __init__(self, tf):
        self.tf = tf
    def __getitem__(self, i):
        return self.tf(imgs[i]), labels[i]
    def __len__(self):
        return len(imgs)

class Block(nn.Layer):
    def __init__(self, cin, cout, stride):
        super().__init__()
        self.c1 = nn.Conv2D(cin, cout, 3, stride, 1, bias_attr=False)
        self.b1 = nn.BatchNorm2D(cout)
        self.c2 = nn.Conv2D(cout, cout, 3, 1, 1, bias_attr=False)
        self.b2 = nn.BatchNorm2D(cout)
        self.short = nn.Sequential(nn.Conv2D(cin, cout, 1, stride, bias_attr=False), nn.BatchNorm2D(cout)) \
            if stride != 1 or cin != cout else nn.Identity()
    def forward(self, x):
        return F.relu(self.b2(self.c2(F.relu(self.b1(self.c1(x))))) + self.short(x))

class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2D(3, 8, 3, padding=1), nn.BatchNorm(8, act="relu"))
        self.l1 = Block(8, 8, 1)
        self.l2 = Block(8, 16, 2)
        self.pool = nn.AdaptiveAvgPool2D(1)
        self.fc = nn.Linear(16, 4)
    def forward(self, x):
        x = self.l2(self.l1(self.stem(x)))
        return self.fc(paddle.flatten(self.pool(x), 1))

net = Net()
opt = paddle.optimizer.Momentum(0.05, momentum=0.9, parameters=net.parameters(), use_nesterov=True,
                                weight_decay=5e-4)
sched = paddle.optimizer.lr.StepDecay(0.05, step_size=1, gamma=0.5)
opt = paddle.optimizer.SGD(learning_rate=sched, parameters=net.parameters())
loader = paddle.io.DataLoader(CifarLike(transform), batch_size=8, shuffle=True)
for epoch in range(2):
    net.train()
    for step, (x, y) in enumerate(loader):
        if step == 0:
            print("batch", x.shape, x.dtype, "%.7e" % float(x.sum()), y.numpy().tolist())
        loss = F.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        opt.clear_grad()
        print(epoch, step, "%.7e" % float(loss))
    sched.step()
    print("bn stats", "%.7e" % float(net.l1.b1._mean.sum()), "%.7e" % float(net.l1.b1._variance.sum()))
net.eval()
ev = CifarLike(T.Compose([T.CenterCrop(28), T.ToTensor(), T.Normalize([0.5] * 3, [0.25] * 3)]))
x = paddle.stack([ev[i][0] for i in range(6)])
print("eval", ["%.6e" % v for v in net(x).numpy().ravel()[:8]])
print("buffers", sorted(n for n, _ in net.named_buffers())[:4])
m = paddle.metric.Accuracy()
correct = m.compute(net(x), paddle.to_tensor(labels[:6]).unsqueeze(1))
m.update(correct)
print("acc", m.accumulate(), m.name())
''',
    'vision_pipeline': r'''
# image pipeline: ImageFolder/DatasetFolder on generated PNGs, random transforms (PIL, numpy, tensor), DataLoader
import os, random, tempfile
import numpy as np
from PIL import Image
import paddle
import paddle.vision.transforms as T
import paddle.vision.transforms.functional as TF
from paddle.vision.datasets import DatasetFolder, ImageFolder

random.seed(3)
np.random.seed(3)
paddle.seed(3)
root = tempfile.mkdtemp()
for c in ("cat", "dog"):
    os.makedirs(os.path.join(root, c))
    for i in range(3):
        arr = (np.random.rand(20, 24, 3) * 255).astype("uint8")
        Image.fromarray(arr).save(os.path.join(root, c, f"{i}.png"))

aug = T.Compose([T.RandomResizedCrop(16, scale=(0.5, 1.0)), T.RandomHorizontalFlip(), T.RandomVerticalFlip(0.3),
                 T.ColorJitter(0.3, 0.3, 0.3, 0.1), T.RandomRotation(15), T.ToTensor(),
                 T.Normalize([0.5, 0.5, 0.5], [0.5, 0.5, 0.5]), T.RandomErasing(prob=0.5)])
ds = DatasetFolder(root, transform=aug)
print(ds.classes, ds.class_to_idx, len(ds), [os.path.relpath(p, root) for p, _ in ds.samples][:3])
loader = paddle.io.DataLoader(ds, batch_size=3, shuffle=True)
for x, y in loader:
    print("batch", x.shape, y.numpy().tolist(), "%.6e" % float(x.sum()), "%.6e" % float(x.abs().max()))

imf = ImageFolder(root, transform=T.Compose([T.Resize((12, 10)), T.Grayscale(3), T.ToTensor()]))
print("imagefolder", len(imf), imf[0][0].shape, "%.6e" % float(imf[4][0].mean()))

img = Image.open(os.path.join(root, "dog", "1.png"))
arr = np.asarray(img)
for name, t in [("pad", T.Pad((1, 2), padding_mode="reflect")), ("center", T.CenterCrop(10)),
                ("resize", T.Resize(8)), ("brightness", T.BrightnessTransform(0.4)),
                ("contrast", T.ContrastTransform(0.4)), ("saturation", T.SaturationTransform(0.4)),
                ("hue", T.HueTransform(0.2)), ("affine", T.RandomAffine(10, translate=(0.1, 0.1), scale=(0.9, 1.1), shear=5)),
                ("perspective", T.RandomPerspective(0.7, 0.3)), ("crop", T.RandomCrop(14, pad_if_needed=True))]:
    random.seed(1); np.random.seed(1)
    a = np.asarray(t(img)).astype("float64")
    random.seed(1); np.random.seed(1)
    b = np.asarray(t(arr)).astype("float64")
    print(name, a.shape, "%.6e" % a.sum(), b.shape, "%.6e" % b.sum())
xt = paddle.to_tensor(arr.transpose(2, 0, 1).astype("float32") / 255)
random.seed(2)
print("tensor ops", "%.6e" % float(TF.adjust_brightness(xt, 1.3).sum()), "%.6e" % float(TF.rotate(xt, 30).sum()),
      "%.6e" % float(TF.resize(xt, [10, 11]).sum()), "%.6e" % float(T.RandomCrop(12)(xt).sum()),
      "%.6e" % float(TF.erase(xt, 1, 2, 4, 5, 0.0).sum()), "%.6e" % float(TF.to_grayscale(xt).sum()))
print("to_tensor", TF.to_tensor(img).dtype, TF.to_tensor(arr, data_format="HWC").shape)
''',
    'vision_models': r'''
# paddle.vision.models: eval forward of fresh models, then one training step each
import numpy as np
import paddle
import paddle.nn.functional as F
from paddle.vision import models

paddle.seed(0)
x = paddle.rand([4, 3, 64, 64])
y = paddle.to_tensor([1, 3, 0, 2])
for name, ctor in [("resnet18", lambda: models.resnet18(num_classes=5)),
                   ("mobilenet_v2", lambda: models.mobilenet_v2(scale=0.25, num_classes=5)),
                   ("mobilenet_v3_small", lambda: models.mobilenet_v3_small(scale=0.35, num_classes=5)),
                   ("squeezenet", lambda: models.squeezenet1_1(num_classes=5)),
                   ("shufflenet", lambda: models.shufflenet_v2_x0_25(num_classes=5))]:
    net = ctor()
    n_params = sum(int(np.prod(p.shape)) for p in net.parameters())
    net.eval()
    with paddle.no_grad():
        out = net(x)
    net.train()
    opt = paddle.optimizer.Momentum(0.01, parameters=net.parameters())
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    opt.clear_grad()
    print(name, n_params, ["%.5e" % v for v in out.numpy().ravel()[:4]], "%.6e" % float(loss))
''',
    'data_metrics': r'''
# paddle.io: TensorDataset, random_split, Subset, samplers, workers, IterableDataset; paddle.metric
import numpy as np
import paddle
from paddle.io import (BatchSampler, ChainDataset, ComposeDataset, DataLoader, Dataset, DistributedBatchSampler,
                       IterableDataset, RandomSampler, SequenceSampler, Subset, TensorDataset,
                       WeightedRandomSampler, get_worker_info, random_split)

paddle.seed(99)
np.random.seed(99)
xs = paddle.arange(40, dtype="float32").reshape([20, 2])
ys = paddle.arange(20, dtype="int64")
ds = TensorDataset([xs, ys])
a, b = random_split(ds, [15, 5])
print("split", a.indices if hasattr(a, "indices") else None, list(b.indices))
print("randsampler", list(RandomSampler(range(10))))
print("replacement", list(RandomSampler(range(10), replacement=True, num_samples=6)))
print("weighted", list(WeightedRandomSampler(np.array([0.1, 0.5, 0.2, 0.2]), 8, replacement=True)))
print("batch", list(BatchSampler(SequenceSampler(range(7)), batch_size=3, drop_last=False)))
dbs = DistributedBatchSampler(ds, batch_size=4, num_replicas=2, rank=1, shuffle=True)
dbs.set_epoch(3)
print("dist", list(dbs))
for xb, yb in DataLoader(Subset(ds, [3, 1, 4, 1, 5]), batch_size=2):
    print("subset", xb.numpy().tolist(), yb.numpy().tolist(), xb.dtype, yb.dtype)

class Numbers(Dataset):
    def __getitem__(self, i):
        return {"x": np.full([2], i, "float32"), "r": np.random.rand(1).astype("float32")}
    def __len__(self):
        return 8
loader = DataLoader(Numbers(), batch_size=4, shuffle=True, num_workers=2)
for ep in range(2):
    for batch in loader:
        print("workers", ep, batch["x"][:, 0].numpy().tolist(), batch["r"].shape)

class Stream(IterableDataset):
    def __iter__(self):
        info = get_worker_info()
        wid = 0 if info is None else info.id
        for i in range(wid, 6, 1 if info is None else info.num_workers):
            yield np.array([i], "int64")
print("iterable", [b.numpy().ravel().tolist() for b in DataLoader(Stream(), batch_size=2)])
print("chain", [int(v[0]) for v in ChainDataset([Stream(), Stream()])][:8])
comp = ComposeDataset([TensorDataset([xs]), TensorDataset([ys])])
print("compose", len(comp), [np.asarray(t).tolist() for t in comp[2]])
def collate(batch):
    return paddle.stack([paddle.to_tensor(v[1]) for v in batch]).sum()
print("collate", [int(t) for t in DataLoader(ds, batch_size=5, collate_fn=collate)])

# metrics
pred = paddle.rand([12, 1])
lab = paddle.randint(0, 2, [12, 1])
for M in (paddle.metric.Precision(), paddle.metric.Recall()):
    M.update(pred.numpy(), lab.numpy())
    print(M.name(), "%.8f" % M.accumulate())
auc = paddle.metric.Auc(num_thresholds=255)
auc.update(paddle.concat([1 - pred, pred], axis=1).numpy(), lab.numpy())
auc.update(paddle.concat([1 - pred, pred], axis=1)[:5], lab[:5])
print(auc.name(), "%.8f" % auc.accumulate())
auc.reset()
print("reset", auc.accumulate())
acc = paddle.metric.Accuracy(topk=(1, 3))
logits = paddle.randn([12, 5])
labels = paddle.randint(0, 5, [12, 1])
c = acc.compute(logits, labels)
print("acc", acc.update(c), acc.accumulate(), acc.name())
print("fn", float(paddle.metric.accuracy(logits, labels, k=2)))
''',
    'data_workers': r'''
# DataLoader workers: per-worker numpy / paddle seeding, worker_init_fn, IterableDataset split, persistent epochs
import numpy as np
import paddle
from paddle.io import DataLoader, Dataset, IterableDataset, get_worker_info

paddle.seed(55)
np.random.seed(55)
class Noisy(Dataset):
    def __getitem__(self, i):
        return np.array([i], "int64"), np.random.rand(2).astype("float32"), paddle.rand([1]).numpy()
    def __len__(self):
        return 8
for workers in (0, 2):
    loader = DataLoader(Noisy(), batch_size=2, shuffle=True, num_workers=workers, drop_last=False)
    for ep in range(2):
        for idx, r, pr in loader:
            print(workers, ep, idx.numpy().ravel().tolist(), ["%.7f" % v for v in r.numpy().ravel()],
                  ["%.7f" % v for v in pr.numpy().ravel()])
def init_fn(wid):
    np.random.seed(100 + wid)
loader = DataLoader(Noisy(), batch_size=4, num_workers=2, worker_init_fn=init_fn)
for idx, r, pr in loader:
    print("init_fn", idx.numpy().ravel().tolist(), ["%.7f" % v for v in r.numpy().ravel()])
class Split(IterableDataset):
    def __iter__(self):
        info = get_worker_info()
        lo, hi = (0, 10) if info is None else (info.id * 5, info.id * 5 + 5)
        for i in range(lo, hi):
            yield np.array([i, i * i], "int64")
print("iterable", sorted(v for b in DataLoader(Split(), batch_size=3, num_workers=2) for v in b.numpy()[:, 1].tolist()))
''',
    'local_datasets': r'''
# built-in datasets read from local files (no download): MNIST, FashionMNIST, Cifar10/100, UCIHousing, Imdb
import gzip, io, os, pickle, struct, tarfile, tempfile
import numpy as np
import paddle
import paddle.vision.transforms as T
from paddle.text.datasets import UCIHousing, Imdb
from paddle.vision.datasets import MNIST, FashionMNIST, Cifar10, Cifar100

rng = np.random.RandomState(0)
d = tempfile.mkdtemp()
imgs = rng.randint(0, 256, (100, 28, 28)).astype("uint8")
labs = rng.randint(0, 10, 100).astype("uint8")
with gzip.open(os.path.join(d, "img.gz"), "wb") as f:
    f.write(struct.pack(">IIII", 2051, 100, 28, 28) + imgs.tobytes())
with gzip.open(os.path.join(d, "lab.gz"), "wb") as f:
    f.write(struct.pack(">II", 2049, 100) + labs.tobytes())
for cls in (MNIST, FashionMNIST):
    for backend in ("pil", "cv2") if cls is MNIST else ("pil",):
        ds = cls(image_path=os.path.join(d, "img.gz"), label_path=os.path.join(d, "lab.gz"), mode="train",
                 download=False, backend=backend if backend == "pil" else None)
        im, lb = ds[3]
        print(cls.__name__, backend, len(ds), type(im).__name__, np.asarray(im).shape, np.asarray(im).dtype,
              int(np.asarray(im).sum()), lb, np.asarray(lb).dtype)
ds = MNIST(image_path=os.path.join(d, "img.gz"), label_path=os.path.join(d, "lab.gz"), download=False,
           transform=T.Compose([T.ToTensor(), T.Normalize([127.5], [127.5], data_format="CHW")]))
x, y = ds[0]
print("mnist tf", type(x).__name__, x.shape, x.dtype, "%.6e" % float(x.sum()), y)
x, y = next(iter(paddle.io.DataLoader(ds, batch_size=4)))
print("loader", x.shape, y.shape, y.dtype, y.numpy().ravel().tolist())

def add(tar, name, obj):
    raw = pickle.dumps(obj, protocol=2)
    info = tarfile.TarInfo(name)
    info.size = len(raw)
    tar.addfile(info, io.BytesIO(raw))
with tarfile.open(os.path.join(d, "c10.tar.gz"), "w:gz") as tar:
    for b in ("data_batch_1", "test_batch"):
        add(tar, "cifar-10-batches-py/" + b, {b"data": rng.randint(0, 256, (6, 3072)).astype("uint8"),
                                               b"labels": rng.randint(0, 10, 6).tolist()})
with tarfile.open(os.path.join(d, "c100.tar.gz"), "w:gz") as tar:
    for b in ("train", "test"):
        add(tar, "cifar-100-python/" + b, {b"data": rng.randint(0, 256, (5, 3072)).astype("uint8"),
                                            b"fine_labels": rng.randint(0, 100, 5).tolist()})
for cls, f in ((Cifar10, "c10.tar.gz"), (Cifar100, "c100.tar.gz")):
    for mode in ("train", "test"):
        ds = cls(data_file=os.path.join(d, f), mode=mode, download=False)
        im, lb = ds[1]
        print(cls.__name__, mode, len(ds), type(im).__name__, np.asarray(im).shape, int(np.asarray(im).sum()),
              lb, np.asarray(lb).dtype)
ds = Cifar10(data_file=os.path.join(d, "c10.tar.gz"), download=False, transform=T.ToTensor())
print("cifar tf", ds[0][0].shape, "%.6e" % float(ds[0][0].sum()))

np.savetxt(os.path.join(d, "housing.data"), rng.rand(20, 14) * 10, fmt="%.4f")
for mode in ("train", "test"):
    h = UCIHousing(data_file=os.path.join(d, "housing.data"), mode=mode, download=False)
    f, t = h[0]
    print("uci", mode, len(h), f.shape, f.dtype, ["%.6f" % v for v in f[:4]], t, t.dtype)

with tarfile.open(os.path.join(d, "imdb.tar.gz"), "w:gz") as tar:
    texts = {"train/pos/0.txt": b"A great movie, great acting!", "train/neg/0.txt": b"Bad plot. bad, BAD movie.",
             "train/pos/1.txt": b"I loved it; the movie was great<br />fun", "test/pos/0.txt": b"great fun",
             "test/neg/0.txt": b"boring and bad"}
    for name, raw in texts.items():
        info = tarfile.TarInfo("aclImdb/" + name)
        info.size = len(raw)
        tar.addfile(info, io.BytesIO(raw))
imdb = Imdb(data_file=os.path.join(d, "imdb.tar.gz"), mode="train", cutoff=1, download=False)
print("imdb", len(imdb), sorted(imdb.word_idx.items(), key=repr)[:8], [(list(a), b.tolist()) for a, b in (imdb[i] for i in range(len(imdb)))])
''',
    'jit_to_static': r'''
# to_static + jit.save + jit.load + fine-tune the loaded layer
import os, tempfile
import numpy as np
import paddle
import paddle.nn as nn
from paddle.static import InputSpec

paddle.seed(21)

class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(6, 12)
        self.fc2 = nn.Linear(12, 2)
    def forward(self, x):
        h = nn.functional.tanh(self.fc1(x))
        if paddle.mean(h) > 0:
            h = h * 2.0
        return self.fc2(h)

x = paddle.rand([16, 6])
y = paddle.rand([16, 2])
net = Net()
snet = paddle.jit.to_static(net, input_spec=[InputSpec([None, 6], "float32", "x")], full_graph=True)
opt = paddle.optimizer.Adam(0.01, parameters=snet.parameters())
for i in range(5):
    loss = nn.functional.mse_loss(snet(x), y)
    loss.backward()
    opt.step()
    opt.clear_grad()
    print("train", i, "%.8e" % float(loss))
d = tempfile.mkdtemp()
path = os.path.join(d, "net")
paddle.jit.save(snet, path)
print(sorted(f for f in os.listdir(d)))
loaded = paddle.jit.load(path)
print("same", float((loaded(x) - snet(x)).abs().max()) < 1e-6)
loaded.train()
opt2 = paddle.optimizer.SGD(0.1, parameters=loaded.parameters())
for i in range(3):
    loss = nn.functional.mse_loss(loaded(x), y)
    loss.backward()
    opt2.step()
    opt2.clear_grad()
    print("finetune", i, "%.8e" % float(loss))

@paddle.jit.to_static
def f(a, b):
    c = a * b + paddle.sin(a)
    for _ in range(3):
        c = c + 1.0
    return c.sum()
a = paddle.rand([4])
print("fn", "%.8e" % float(f(a, paddle.ones([4]))))
''',
    'amp_grads_gan': r'''
# AMP O1/O2 bfloat16 on CPU; paddle.grad double backward (gradient penalty); GAN two-optimizer loop
import numpy as np
import paddle
import paddle.nn as nn
import paddle.nn.functional as F
# AMP O1 / O2 with bfloat16 on CPU, GradScaler

paddle.seed(9)
net = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 4))
opt = paddle.optimizer.SGD(0.05, parameters=net.parameters())
scaler = paddle.amp.GradScaler(init_loss_scaling=1024)
x = paddle.rand([16, 8])
y = paddle.randint(0, 4, [16])
for it in range(4):
    with paddle.amp.auto_cast(level="O1", dtype="bfloat16"):
        out = net(x)
        loss = nn.functional.cross_entropy(out, y)
    print(it, out.dtype, loss.dtype, "%.6e" % float(loss.astype("float32")))
    scaled = scaler.scale(loss)
    scaled.backward()
    scaler.step(opt)
    scaler.update()
    opt.clear_grad()
print("scale", scaler.get_init_loss_scaling(), scaler.is_enable(), scaler.is_use_dynamic_loss_scaling())
print("w", ["%.6e" % v for v in net[0].weight.numpy().ravel()[:5]])
with paddle.amp.auto_cast(dtype="bfloat16"):
    a = paddle.matmul(x, x.T)
    b = paddle.exp(x)
    c = a.sum() + 1
print(a.dtype, b.dtype, c.dtype)
net2 = nn.Sequential(nn.Linear(8, 8), nn.LayerNorm(8))
net2 = paddle.amp.decorate(net2, level="O2", dtype="bfloat16")
print([p.dtype for p in net2.parameters()])
with paddle.amp.auto_cast(level="O2", dtype="bfloat16"):
    o = net2(x)
print(o.dtype, "%.4e" % float(o.astype("float32").abs().sum()))
# paddle.grad with create_graph: WGAN-GP style gradient penalty, Hessian-vector product

paddle.seed(13)
D = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 16), nn.Softplus(), nn.Linear(16, 1))
opt = paddle.optimizer.Adam(0.001, beta1=0.5, beta2=0.9, parameters=D.parameters())
for it in range(4):
    real = paddle.randn([8, 4]) + 1.0
    fake = paddle.randn([8, 4])
    alpha = paddle.rand([8, 1])
    inter = alpha * real + (1 - alpha) * fake
    inter.stop_gradient = False
    out = D(inter)
    g, = paddle.grad(out, inter, grad_outputs=paddle.ones_like(out), create_graph=True, retain_graph=True)
    gp = ((g.norm(2, axis=1) - 1) ** 2).mean()
    loss = D(fake).mean() - D(real).mean() + 10 * gp
    loss.backward()
    opt.step()
    opt.clear_grad()
    print(it, "%.8e" % float(loss), "%.8e" % float(gp), g.stop_gradient)
x = paddle.rand([3])
x.stop_gradient = False
v = paddle.to_tensor([1.0, 0.5, -1.0])
f = (x ** 3).sum() + (x[0] * x[1]) * paddle.sin(x[2])
g, = paddle.grad(f, x, create_graph=True)
hv, = paddle.grad((g * v).sum(), x)
print("hvp", ["%.8e" % t for t in hv.numpy()])
y = paddle.tanh(x)
g1, = paddle.grad(y.sum(), x, create_graph=True)
g2, = paddle.grad(g1.sum(), x, create_graph=True)
g3, = paddle.grad(g2.sum(), x)
print("3rd", ["%.8e" % t for t in g3.numpy()])
# GAN-style loop: generator + discriminator with two optimizers, detach, BCEWithLogits, LeakyReLU

paddle.seed(17)
G = nn.Sequential(nn.Linear(4, 16, bias_attr=False), nn.BatchNorm1D(16), nn.LeakyReLU(0.2), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Dropout(0.25), nn.Linear(16, 1))
optG = paddle.optimizer.Adam(2e-3, beta1=0.5, parameters=G.parameters())
optD = paddle.optimizer.RMSProp(1e-3, parameters=D.parameters(), momentum=0.1)
bce = nn.BCEWithLogitsLoss()
for it in range(6):
    real = paddle.normal(mean=2.0, std=0.5, shape=[16, 2])
    z = paddle.randn([16, 4])
    fake = G(z)
    d_loss = bce(D(real), paddle.ones([16, 1])) + bce(D(fake.detach()), paddle.zeros([16, 1]))
    optD.clear_grad()
    d_loss.backward()
    optD.step()
    g_loss = bce(D(fake), paddle.ones([16, 1]))
    optG.clear_grad()
    g_loss.backward()
    optG.step()
    print(it, "%.8e" % float(d_loss), "%.8e" % float(g_loss))
G.eval()
s = G(paddle.randn([5, 4]))
print("samples", ["%.6e" % v for v in s.numpy().ravel()])
print("bn", "%.7e" % float(G[1]._mean.sum()), "%.7e" % float(G[1]._variance.sum()))
print(optD.state_dict().keys().__len__(), sorted(optG.state_dict().keys())[:3])
''',
    'static_executor': r'''
# static graph: Program with random_seed, Executor training loop, fetch, inference model save/load
import os, tempfile
import numpy as np
import paddle
import paddle.static as static

paddle.enable_static()
main, startup = static.Program(), static.Program()
main.random_seed = 42
startup.random_seed = 42
with static.program_guard(main, startup):
    x = static.data("x", [None, 5], "float32")
    y = static.data("y", [None, 1], "int64")
    h = static.nn.fc(x, 16, activation="relu")
    h = paddle.nn.functional.dropout(h, 0.2)
    logits = static.nn.fc(h, 3)
    loss = paddle.mean(paddle.nn.functional.cross_entropy(logits, y))
    acc = paddle.metric.accuracy(paddle.nn.functional.softmax(logits), y)
    opt = paddle.optimizer.Adam(learning_rate=0.01)
    opt.minimize(loss)

exe = static.Executor(paddle.CPUPlace())
exe.run(startup)
rng = np.random.RandomState(0)
X = rng.rand(64, 5).astype("float32")
Y = (X.sum(1, keepdims=True) * 2).astype("int64") % 3
for it in range(6):
    xb, yb = X[it * 8:(it + 1) * 8], Y[it * 8:(it + 1) * 8]
    l, a = exe.run(main, feed={"x": xb, "y": yb}, fetch_list=[loss, acc])
    print(it, "%.8e" % float(l), "%.6f" % float(a))
d = tempfile.mkdtemp()
static.save_inference_model(os.path.join(d, "m"), [x], [logits], exe, program=main)
print(sorted(os.listdir(d)))
prog, feeds, fetches = static.load_inference_model(os.path.join(d, "m"), exe)
out, = exe.run(prog, feed={feeds[0]: X[:3]}, fetch_list=fetches)
print("infer", feeds, np.asarray(out).shape)
out2, = exe.run(prog, feed={feeds[0]: X[:3]}, fetch_list=fetches)
print("deterministic", np.array_equal(out, out2))

# second program: linear regression with SGD, fetch a parameter by name from the scope
paddle.seed(1)
p2, s2 = static.Program(), static.Program()
with static.program_guard(p2, s2):
    xs = static.data("xs", [None, 3], "float32")
    ys = static.data("ys", [None, 1], "float32")
    pred = static.nn.fc(xs, 1, weight_attr=paddle.ParamAttr("lin_w"), bias_attr=paddle.ParamAttr("lin_b"))
    mse = paddle.nn.functional.mse_loss(pred, ys)
    paddle.optimizer.SGD(0.1).minimize(mse)
exe.run(s2)
Xr = rng.rand(32, 3).astype("float32")
Yr = Xr @ np.array([[1.0], [-2.0], [0.5]], "float32") + 0.3
for it in range(5):
    m, = exe.run(p2, feed={"xs": Xr, "ys": Yr}, fetch_list=[mse])
    print("sgd", it, "%.8e" % float(m))
w = static.global_scope().find_var("lin_w").get_tensor()
print("lin_w", ["%.6e" % v for v in np.array(w).ravel()])
''',
    'static_layers': r'''
# to_static training with BatchNorm + dropout; static Program of nn layers, paddle.static.gradients, Momentum
import numpy as np
import paddle
import paddle.nn as nn
import paddle.static as static

paddle.seed(12)
class Net(nn.Layer):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2D(1, 4, 3, padding=1, bias_attr=False)
        self.bn = nn.BatchNorm2D(4)
        self.drop = nn.Dropout(0.3)
        self.fc = nn.Linear(4 * 4 * 4, 3)
    def forward(self, x):
        h = nn.functional.max_pool2d(nn.functional.relu(self.bn(self.conv(x))), 2)
        return self.fc(self.drop(paddle.flatten(h, 1)))
net = paddle.jit.to_static(Net())
opt = paddle.optimizer.Adam(0.01, parameters=net.parameters())
x = paddle.rand([6, 1, 8, 8])
y = paddle.randint(0, 3, [6])
for i in range(4):
    loss = nn.functional.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    opt.clear_grad()
    print("to_static dropout", i, "%.7e" % float(loss))
net.eval()
print("eval", ["%.6e" % v for v in net(x).numpy().ravel()[:6]])

paddle.enable_static()
main, start = static.Program(), static.Program()
main.random_seed = start.random_seed = 3
with static.program_guard(main, start):
    img = static.data("img", [None, 1, 8, 8], "float32")
    lab = static.data("lab", [None, 1], "int64")
    img.stop_gradient = False
    c = paddle.nn.functional.relu(nn.Conv2D(1, 4, 3, padding=1)(img))
    b = nn.BatchNorm2D(4)(c)
    p = paddle.nn.functional.avg_pool2d(b, 2)
    logits = static.nn.fc(paddle.flatten(p, 1), 3)
    loss = paddle.nn.functional.cross_entropy(logits, lab).mean()
    g = static.gradients([loss], [img])[0]
    paddle.optimizer.Momentum(0.05, momentum=0.9).minimize(loss)
exe = static.Executor()
exe.run(start)
X = np.random.RandomState(1).rand(6, 1, 8, 8).astype("float32")
Y = np.random.RandomState(2).randint(0, 3, (6, 1)).astype("int64")
for i in range(4):
    l, gv = exe.run(main, feed={"img": X, "lab": Y}, fetch_list=[loss, g])
    print("static", i, "%.7e" % float(l), "%.6e" % float(np.abs(gv).sum()))
''',
    'hapi_static': r'''
# paddle.Model in static-graph mode (StaticGraphAdapter): fit / evaluate / predict / save
import os, tempfile
import numpy as np
import paddle
import paddle.nn as nn
from paddle.static import InputSpec

paddle.enable_static()
paddle.seed(4)
np.random.seed(4)

class DS(paddle.io.Dataset):
    def __init__(self, n, s):
        r = np.random.RandomState(s)
        self.x = r.rand(n, 6).astype("float32")
        self.y = (self.x.sum(1) > 3).astype("int64")[:, None]
    def __getitem__(self, i):
        return self.x[i], self.y[i]
    def __len__(self):
        return len(self.x)

net = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2))
model = paddle.Model(net, [InputSpec([None, 6], "float32", "x")], [InputSpec([None, 1], "int64", "y")])
model.prepare(paddle.optimizer.SGD(0.2, parameters=model.parameters()), nn.CrossEntropyLoss(),
              paddle.metric.Accuracy())
class Log(paddle.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        print("epoch", epoch, "%.6e" % float(np.asarray(logs["loss"]).ravel()[0]), "%.6f" % logs["acc"])
model.fit(DS(32, 1), batch_size=8, epochs=3, verbose=0, shuffle=False, callbacks=[Log()])
r = model.evaluate(DS(16, 2), batch_size=8, verbose=0)
print("eval", "%.6e" % float(np.asarray(r["loss"]).ravel()[0]), "%.6f" % r["acc"])
d = DS(4, 3)
print("train_batch", model.train_batch([d.x], [d.y]))
print("eval_batch", model.eval_batch([d.x], [d.y]))
d = tempfile.mkdtemp()
model.save(os.path.join(d, "s"))
print(sorted(os.listdir(d)))
print(paddle.in_dynamic_mode())
# a second static Model re-runs the whole startup program in Paddle (re-drawing every parameter),
# so this one is built from fixed values
init = lambda *shape: paddle.ParamAttr(initializer=nn.initializer.Assign(
    np.linspace(-1, 1, int(np.prod(shape))).reshape(shape).astype("float32")))
m2 = paddle.Model(nn.Sequential(nn.Linear(6, 4, init(6, 4), init(4)), nn.Tanh(), nn.Linear(4, 2, init(4, 2), init(2))),
                  [InputSpec([None, 6], "float32", "x")], [InputSpec([None, 1], "int64", "y")])
sch = paddle.optimizer.lr.StepDecay(0.1, step_size=2, gamma=0.5)
m2.prepare(paddle.optimizer.Momentum(sch, momentum=0.9, parameters=m2.parameters()), nn.CrossEntropyLoss(),
           paddle.metric.Accuracy(topk=(1, 2)))
m2.fit(DS(24, 5), DS(8, 6), batch_size=8, epochs=2, verbose=2, log_freq=1, shuffle=True)
print("lr", m2._optimizer.get_lr())
m2.save(os.path.join(d, "m2"))
import pickle
print({k: v.shape for k, v in pickle.load(open(os.path.join(d, "m2.pdopt"), "rb")).items()})
try:
    paddle.Model(net)
except TypeError as e:
    print("TypeError", e)
''',
}

GROUPS = {
    'hapi': ['lenet_model', 'hapi_callbacks', 'hapi_multi_input', 'summary_fit_loader'],
    'models': ['custom_loop', 'text_rnn_tagger', 'transformer'],
    'vision': ['resnet_bn', 'vision_pipeline', 'vision_models'],
    'data': ['data_metrics', 'data_workers', 'local_datasets'],
    'graphs': ['jit_to_static', 'amp_grads_gan'],
    'static': ['static_executor', 'static_layers'],
    'hapi_static': ['hapi_static'],
}

RUNNER = r'''
import os, runpy, sys
import paddle
for path in sys.argv[1:]:
    print("#### " + os.path.basename(path)[:-3], flush=True)
    paddle.utils.unique_name.switch()
    try:
        runpy.run_path(path, run_name="__main__")
    except Exception as exc:
        print("#### raised " + type(exc).__name__)
    if not paddle.in_dynamic_mode():
        paddle.disable_static()
    sys.stdout.flush()
'''

_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def _normalise(text: str) -> list[str]:
    """Drop what legitimately differs between runs: timings and temporary folders."""
    text = re.sub(r"\d+(?:ms|us|s)/step", "T/step", text)
    return re.sub(r"/tmp/tmp\w+", "TMP", text).splitlines()


def _sections(text: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    lines: list[str] = []
    for line in _normalise(text):
        if line.startswith("#### ") and not line.startswith("#### raised"):
            lines = out.setdefault(line[5:], [])
        else:
            lines.append(line)
    return out


def _same_line(ours: str, theirs: str) -> bool:
    """Equal text around the numbers, and numbers equal within RTOL/ATOL."""
    if ours == theirs:
        return True
    if _NUMBER.sub("#", ours) != _NUMBER.sub("#", theirs):
        return False
    return all(abs(float(a) - float(b)) <= ATOL + RTOL * abs(float(b))
               for a, b in zip(_NUMBER.findall(ours), _NUMBER.findall(theirs)))


def _start(cmd: list[str], cwd: str, env: dict) -> subprocess.Popen:
    # a session of its own, so that a timeout also ends the script's DataLoader workers
    return subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)


def _finish(proc: subprocess.Popen, timeout: float) -> tuple[str, str, bool]:
    """(stdout, stderr, timed_out) of a script process."""
    try:
        out, err = proc.communicate(timeout=timeout)
        return out, err, False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return out, err, True


def check_scripts(scripts: dict[str, str], names: list[str], tmp_path, timeout: float) -> None:
    """Run the scripts ``names`` (sources in ``scripts``) under real Paddle and under pagaie,
    both at once, and assert that every line each prints is Paddle's (numbers within
    RTOL/ATOL) and that each runs to its end under Paddle."""
    if importlib.util.find_spec("paddle") is None:
        pytest.skip("real paddlepaddle is not installed")
    paths = []
    for name in names:
        path = tmp_path / f"{name}.py"
        path.write_text(scripts[name])
        paths.append(str(path))
    runner = tmp_path / "runner.py"
    runner.write_text(RUNNER)
    env = dict(os.environ, OMP_NUM_THREADS="1", CUDA_VISIBLE_DEVICES="", PYTHONWARNINGS="ignore")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # both frameworks at once: each process is mostly one core's work
    theirs_p = _start([sys.executable, str(runner), *paths], str(tmp_path), env)
    ours_p = _start([sys.executable, "-m", "pagaie", "run", str(runner), *paths], root, env)
    theirs_out, theirs_err, theirs_hung = _finish(theirs_p, timeout)
    ours_out, ours_err, ours_hung = _finish(ours_p, timeout)
    assert not ours_hung, f"pagaie ran past {timeout} s; it printed:\n{ours_out[-3000:]}"
    if theirs_hung:  # real Paddle's multi-process DataLoader now and then never returns
        pytest.skip(f"real Paddle ran past {timeout} s")
    assert theirs_p.returncode == 0, f"real Paddle failed:\n{theirs_err[-3000:]}"
    assert ours_p.returncode == 0, f"pagaie failed:\n{ours_err[-3000:]}"
    theirs, ours = _sections(theirs_out), _sections(ours_out)
    assert list(theirs) == names, f"real Paddle's runner printed {list(theirs)}"
    for name in names:
        a, b = ours.get(name, []), theirs[name]
        assert b, f"{name}: real Paddle printed nothing"
        # every script must run to its end under Paddle: a raise would hide the rest of it
        assert not any(line.startswith("#### raised") for line in b), f"{name}: real Paddle raised: {b[-3:]}"
        for i in range(max(len(a), len(b))):
            x = a[i] if i < len(a) else "<missing>"
            y = b[i] if i < len(b) else "<missing>"
            assert _same_line(x, y), (f"{name}, line {i + 1}:\n  pagaie: {x}\n  Paddle: {y}\n"
                                      f"pagaie's stderr:\n{ours_err[-2000:]}")


@pytest.mark.parametrize("group", list(GROUPS))
def test_scripts_print_paddles_numbers(group: str, tmp_path) -> None:
    check_scripts(SCRIPTS, GROUPS[group], tmp_path, TIMEOUT)


def test_line_comparison_can_fail() -> None:
    assert _same_line("loss 1.0000001e+00 [1, 2]", "loss 1.0000000e+00 [1, 2]")
    assert not _same_line("loss 1.0001e+00", "loss 1.0000e+00")
    assert not _same_line("acc 0.5 [1, 2]", "acc 0.5 [1, 3]")
    assert not _same_line("float32", "float64")
    assert _sections("#### a\nx 1ms/step\n#### b\n#### raised ValueError\n") == {
        "a": ["x T/step"], "b": ["#### raised ValueError"]}
