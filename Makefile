# Two entry points, as the README says: `make demo` and `make test`.
PYTHON ?= python3
# A CPU build of torch; pinned here only so a fresh machine does not pull a multi-GB CUDA build.
TORCH_PIN ?= torch==2.13.0

.PHONY: install install-test demo test bench coverage

install:
	$(PYTHON) -c "import torch" 2>/dev/null || $(PYTHON) -m pip install -q "$(TORCH_PIN)"
	$(PYTHON) -m pip install -q -e .

install-test: install
	$(PYTHON) -m pip install -q -e ".[test]"

demo: install
	$(PYTHON) -m pagaie.demo

# TEST_WORKERS=2 spreads the test files over two pytest worker processes (each file whole on
# one worker): about twice as fast on two cores, but the files then meet in an order that
# changes from run to run, so the default is one process and the one order CI has checked.
TEST_WORKERS ?= 0

test: install-test
	$(PYTHON) -m pytest -n $(TEST_WORKERS) --dist loadfile

bench: install-test
	$(PYTHON) bench/op_overhead.py

coverage: install
	$(PYTHON) ../shared/paddle_api/coverage.py --target pagaie
