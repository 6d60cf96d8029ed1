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

# Test files are spread over two pytest worker processes (each file whole on one worker, in
# its own order): the machines have two cores. TEST_WORKERS=0 runs everything in this process.
TEST_WORKERS ?= 2

test: install-test
	$(PYTHON) -m pytest -n $(TEST_WORKERS) --dist loadfile

bench: install-test
	$(PYTHON) bench/op_overhead.py

coverage: install
	$(PYTHON) ../shared/paddle_api/coverage.py --target pagaie
