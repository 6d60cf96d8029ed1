"""paddle.Model: fit / evaluate / predict / batches / save / load against real Paddle 3.3.1."""
from __future__ import annotations

import importlib
import os

import numpy as np
import pytest

import pagaie
from tests.hapi.helpers import X, Y, Loader, assert_logs_close, make_model, recorder
from tests.reference import paddle_ref


def _fit(fw, epochs=3, **kw):
    model = make_model(fw)
    rec = recorder(fw)
    model.fit(Loader(fw, X, Y), Loader(fw, X[:8], Y[:8]), epochs=epochs, verbose=0,
              callbacks=[rec], **kw)
    return model, rec


def test_fit_matches_paddle_per_epoch():
    paddle = paddle_ref()
    # Paddle's _run_one_epoch shares one default logs dict between runs (and pagaie's Model
    # one module dict), so keys of earlier tests' fits would show up in the first epoch here
    paddle.Model._run_one_epoch.__defaults__[0].clear()
    importlib.import_module("pagaie.hapi.model")._EPOCH_LOGS.clear()
    ours, our_rec = _fit(pagaie)
    theirs, their_rec = _fit(paddle)
    assert_logs_close(our_rec.train, their_rec.train)
    assert_logs_close(our_rec.eval, their_rec.eval)
    assert sorted(our_rec.train[0]) == sorted(their_rec.train[0])
    for k, v in theirs.network.state_dict().items():
        np.testing.assert_allclose(ours.network.state_dict()[k].numpy(), v.numpy(), rtol=1e-4,
                                   atol=1e-5, err_msg=k)


def test_accumulate_grad_batches_and_num_iters_match_paddle():
    paddle = paddle_ref()
    _, ours = _fit(pagaie, epochs=2, accumulate_grad_batches=4)
    _, theirs = _fit(paddle, epochs=2, accumulate_grad_batches=4)
    assert_logs_close(ours.train, theirs.train)
    _, ours = _fit(pagaie, epochs=5, num_iters=8)
    _, theirs = _fit(paddle, epochs=5, num_iters=8)
    assert len(ours.train) == len(theirs.train) == 1  # evaluation steps count too
    assert_logs_close(ours.train, theirs.train)


def test_evaluate_and_predict_match_paddle():
    paddle = paddle_ref()
    results = {}
    for fw in (pagaie, paddle):
        model = make_model(fw)
        model.fit(Loader(fw, X, Y), epochs=1, verbose=0)
        ev = model.evaluate(Loader(fw, X, Y, batch_size=5), verbose=0)
        pred = model.predict(Loader(fw, X, Y, batch_size=5), verbose=0)
        stacked = model.predict(Loader(fw, X, Y, batch_size=5), stack_outputs=True, verbose=0)
        results[fw] = ev, pred, stacked
    (ev, pred, stacked), (pev, ppred, pstacked) = results[pagaie], results[paddle]
    assert list(ev) == list(pev) == ["loss", "acc_top1", "acc_top2"]
    assert isinstance(ev["loss"], list) and len(ev["loss"]) == 1
    for k in pev:
        np.testing.assert_allclose(np.ravel(ev[k]), np.ravel(pev[k]), rtol=1e-4)
    assert len(pred) == len(ppred) == 1 and isinstance(pred[0], tuple)
    assert [a.shape for a in pred[0]] == [a.shape for a in ppred[0]]
    assert stacked[0].shape == pstacked[0].shape == (24, 3)
    np.testing.assert_allclose(stacked[0], pstacked[0], rtol=1e-4, atol=1e-5)


def test_batch_methods_return_paddles_structures():
    paddle = paddle_ref()
    x, y = X[:4], Y[:4]
    out = {}
    for fw in (pagaie, paddle):
        m = make_model(fw)
        out[fw] = (m.train_batch([x], [y]), m.eval_batch([x], [y]), m.predict_batch([x]))
        m2 = make_model(fw, metrics=False)
        out[fw] += (m2.train_batch([x], [y]), m2.eval_batch([x], [y]))
    ours, theirs = out[pagaie], out[paddle]
    (tl, tm), (el, em), pr, tl2, el2 = ours
    (ptl, ptm), (pel, pem), ppr, ptl2, pel2 = theirs
    assert isinstance(tl[0], np.ndarray) and tl[0].shape == ptl[0].shape == ()
    np.testing.assert_allclose(tl[0], ptl[0], rtol=1e-5)
    np.testing.assert_allclose(el[0], pel[0], rtol=1e-5)
    np.testing.assert_allclose(tm, ptm)
    np.testing.assert_allclose(em, pem)
    np.testing.assert_allclose(pr[0], ppr[0], rtol=1e-5, atol=1e-6)
    assert isinstance(tl2, list) and isinstance(el2, list) and len(tl2) == len(ptl2) == 1
    np.testing.assert_allclose(el2[0], pel2[0], rtol=1e-5)


def test_save_load_round_trip(tmp_path):
    with pagaie.utils.unique_name.guard():  # optimizer state is keyed by parameter names
        model = make_model(pagaie)
    model.fit(Loader(pagaie, X, Y), epochs=1, verbose=0)
    path = str(tmp_path / "ckpt")
    model.save(path)
    assert sorted(os.listdir(tmp_path)) == ["ckpt.pdopt", "ckpt.pdparams"]
    with pagaie.utils.unique_name.guard():
        fresh = make_model(pagaie, state={k: np.zeros_like(v.numpy())
                                          for k, v in model.network.state_dict().items()})
    fresh.load(path + ".pdparams")
    for k, v in model.network.state_dict().items():
        np.testing.assert_array_equal(fresh.network.state_dict()[k].numpy(), v.numpy())
    # the optimizer state came back too: one more identical step gives identical weights
    model.train_batch([X[:4]], [Y[:4]])
    fresh.train_batch([X[:4]], [Y[:4]])
    for k, v in model.network.state_dict().items():
        np.testing.assert_allclose(fresh.network.state_dict()[k].numpy(), v.numpy(), rtol=1e-6)


def test_load_real_paddle_checkpoint_and_back(tmp_path):
    paddle = paddle_ref()
    with paddle.utils.unique_name.guard(), pagaie.utils.unique_name.guard():
        theirs = make_model(paddle)
        theirs.fit(Loader(paddle, X, Y), epochs=1, verbose=0)
        theirs.save(str(tmp_path / "paddle"))
        ours = make_model(pagaie)
        ours.fit(Loader(pagaie, X[:4], Y[:4]), epochs=1, verbose=0)  # create optimizer state
        ours.load(str(tmp_path / "paddle"))
        for k, v in theirs.network.state_dict().items():
            np.testing.assert_array_equal(ours.network.state_dict()[k].numpy(), v.numpy())
        # continue training in both: same step from the same optimizer state
        a = ours.train_batch([X[:4]], [Y[:4]])[0][0]
        b = theirs.train_batch([X[:4]], [Y[:4]])[0][0]
        np.testing.assert_allclose(a, b, rtol=1e-5)
        for k, v in theirs.network.state_dict().items():
            np.testing.assert_allclose(ours.network.state_dict()[k].numpy(), v.numpy(),
                                       rtol=1e-5, atol=1e-6)
        ours.save(str(tmp_path / "ours"))
        back = make_model(paddle)
        back.load(str(tmp_path / "ours"))
        for k, v in ours.network.state_dict().items():
            np.testing.assert_array_equal(back.network.state_dict()[k].numpy(), v.numpy())


def test_load_errors_and_skip_mismatch(tmp_path):
    model = make_model(pagaie)
    with pytest.raises(AssertionError, match="Failed to load parameters"):
        model.load(str(tmp_path / "missing"))
    other = pagaie.Model(pagaie.nn.Sequential(pagaie.nn.Linear(4, 5), pagaie.nn.ReLU(),
                                              pagaie.nn.Linear(5, 3)))
    other.save(str(tmp_path / "other"))
    with pytest.raises(ValueError, match="receives a shape"):
        model.load(str(tmp_path / "other"))
    before = model.network[0].weight.numpy().copy()
    other.network[2].bias.set_value(np.ones(3, "float32"))
    other.save(str(tmp_path / "other"))
    with pytest.warns(UserWarning, match="Skip loading"):
        model.load(str(tmp_path / "other"), skip_mismatch=True)
    np.testing.assert_array_equal(model.network[0].weight.numpy(), before)  # skipped
    np.testing.assert_array_equal(model.network[2].bias.numpy(), np.ones(3))  # loaded


def test_inference_save_needs_jit():
    model = make_model(pagaie)
    model.train_batch([X[:4]], [Y[:4]])
    try:
        importlib.import_module("pagaie.jit").save
    except (ImportError, AttributeError):
        with pytest.raises(NotImplementedError, match="paddle.jit.save"):
            model.save("unused", training=False)


def test_inputs_inferred_from_first_batch():
    model = make_model(pagaie)
    assert [s.name for s in model._inputs] == ["input"] and model._inputs[0].shape == (-1,)
    model.predict_batch([X[:4]])
    assert model._inputs[0].shape == (4, 4) and model._is_shape_inferred


def test_prepare_validation_matches_paddle():
    paddle = paddle_ref()
    for cfg, kind in [("O3", ValueError), ({"level": "O5"}, ValueError),
                      ({"level": "O1", "dtype": "bfloat16"}, ValueError),
                      ({"level": "O1", "use_pure_fp16": True}, ValueError)]:
        for fw in (pagaie, paddle):
            m = fw.Model(fw.nn.Linear(2, 2))
            with pytest.raises(kind):
                m.prepare(fw.optimizer.SGD(parameters=m.parameters()), fw.nn.MSELoss(),
                          amp_configs=cfg)
    for fw in (pagaie, paddle):
        m = fw.Model(fw.nn.Linear(2, 2))
        with pytest.raises(TypeError):
            m.prepare(loss=3)
        with pytest.raises(AssertionError):
            m.prepare(metrics=[object()])


def test_amp_o1_training_runs(monkeypatch):
    monkeypatch.setitem(pagaie.amp.state.CPU_AS_GPU, "amp", True)   # AMP is a no-op on CPU otherwise
    model = pagaie.Model(pagaie.nn.Sequential(pagaie.nn.Linear(4, 8), pagaie.nn.ReLU(),
                                              pagaie.nn.Linear(8, 3)))
    model.prepare(pagaie.optimizer.SGD(0.1, parameters=model.parameters()),
                  pagaie.nn.CrossEntropyLoss(),
                  amp_configs={"level": "O1", "init_loss_scaling": 128.0,
                               "custom_black_list": ["relu"]})
    loss = model.train_batch([X[:8]], [Y[:8]])
    assert np.isfinite(loss[0]) and model._scaler is not None
    assert model._scaler.get_init_loss_scaling() == 128.0


def test_fit_with_dataset_uses_io_dataloader():
    if not hasattr(pagaie.io, "Dataset"):
        pytest.skip("pagaie.io.Dataset is not available yet")

    class DS(pagaie.io.Dataset):
        def __getitem__(self, i):
            return X[i], Y[i]

        def __len__(self):
            return len(X)

    model = make_model(pagaie)
    rec = recorder(pagaie)
    model.fit(DS(), DS(), batch_size=[4, 6], epochs=2, shuffle=False, verbose=0, callbacks=rec)
    paddle = paddle_ref()
    theirs = make_model(paddle)
    their_rec = recorder(paddle)
    theirs.fit(Loader(paddle, X, Y), Loader(paddle, X, Y, batch_size=6), epochs=2, verbose=0,
               callbacks=their_rec)
    assert_logs_close(rec.train, their_rec.train)
    assert_logs_close(rec.eval, their_rec.eval)
    out = model.predict(DS(), batch_size=10, stack_outputs=True, verbose=0)
    assert out[0].shape == (24, 3)
