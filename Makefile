# Set-up, build and checks.  Every target creates/reuses the virtual environment .venv,
# installs the package with its extras and builds the Cython extensions in place.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.nardy_fast-installed
SHARED ?= ../shared

.PHONY: all build test test-fast test-debug demo bench data clean lint mutate-quick docs \
	typecheck wheel wheel-check browser

all: build

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml setup.py | $(PY)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q "setuptools>=77" wheel "Cython>=3.0" "numpy>=1.25"
	$(PY) -m pip install -q --no-build-isolation -e ".[test,docs]"
	touch $(STAMP)

build: $(STAMP)
	$(PY) setup.py -q build_ext --inplace

test: build lint
	$(PY) -m pytest -q

# The layers (docs/contributors.md, "Layout"): a back-import fails here (import-linter's layers contract).
lint: build
	$(VENV)/bin/lint-imports

# A quicker judge of a change: every test module but the tests marked slow
# (@pytest.mark.slow); under a minute on an idle machine.  `make test` runs everything.
test-fast: build
	$(PY) -m pytest -q -m "not slow"

# A dozen mutants of the modules changed since the merge base with main, each against the
# tests that import its module (tools/mutation.py --quick): a few minutes.
mutate-quick: build
	nice -n 10 $(PY) tools/mutation.py --quick 12 --budget 300 --timeout 240 $(if $(BASE),--base $(BASE))

# Headless Chromium for the analysis page's browser test (installed with apt-get only when
# no Chromium is found; the test is skipped without one, and fails without one under CI=true).
browser:
	.ci/install-browser

demo: build
	$(PY) -m nardy_fast.app.demo

bench: build
	$(PY) benchmarks/bench_movegen.py
	$(PY) benchmarks/bench_bearoff.py
	$(PY) benchmarks/bench_rollout.py
	$(PY) benchmarks/bench_cube.py --builds 6 --rollout

# Refresh the test data copies and the rule book (docs/RULES.md) from the shared folder
# beside the checkout.
data:
	cp $(SHARED)/vectors/README.md $(SHARED)/vectors/movegen_public.jsonl tests/data/vectors/
	cp $(SHARED)/reference/README.md $(SHARED)/reference/README-twosided.md $(SHARED)/reference/gnubg_onesided_sample.csv \
		$(SHARED)/reference/gnubg_twosided_6x6_sample.csv tests/data/reference/
	cp $(SHARED)/RULES.md docs/RULES.md

clean:
	rm -rf build dist docs/_build docs/generated docs/notebooks nardy_fast/*/*.so \
		nardy_fast/*/_*.c nardy_fast/*/*.html

# The documentation site (docs/, Sphinx; warnings are errors) into docs/_build/html.  The
# notebooks and the guide's {code-cell} examples are executed during the build
# (NARDY_FAST_DOCS_EXECUTE=off: rendered as they are), their kernels drawing with the
# inline backend so that the figures reach the pages; then docs/check_site.py checks the
# built pages (a figure per drawing cell, the examples' outputs, no warning on a page) and
# tests/frontends/test_docs_site.py looks at them in headless Chromium (no code cut at 1280 pixels;
# skipped without a Chromium, failed under CI: make browser installs one).
# The kernels read build/ipython's profile, which logs their errors only: a kernel on
# the loopback warns at start that its TCP is not encrypted, noise in every build.
docs: build
	mkdir -p build/ipython/profile_default
	echo "c.IPKernelApp.log_level = 'ERROR'" > build/ipython/profile_default/ipython_kernel_config.py
	IPYTHONDIR=$(CURDIR)/build/ipython MPLBACKEND=module://matplotlib_inline.backend_inline \
		$(VENV)/bin/sphinx-build -W --keep-going -q -b html docs docs/_build/html
	$(PY) docs/check_site.py docs/_build/html
	$(PY) -m pytest -q -p no:cacheprovider tests/frontends/test_docs_site.py

# mypy over the public API (the package's exports, the .pyi stubs) and the docs' examples.
typecheck: build
	$(PY) -m mypy
	$(PY) .ci/doc_examples.py build/doc_examples
	$(PY) -m mypy --config-file pyproject.toml build/doc_examples/*.py

# The sdist and the wheel into dist/ (python -m build: the sdist, then the wheel from it).
wheel: build
	rm -rf dist
	$(PY) -m build --no-isolation --outdir dist .

# The wheel installed into a fresh environment with no compiler (CC=false) and no Cython,
# then the smoke test; a Cython consumer is built against the installed headers after.
wheel-check: wheel
	.ci/wheel-check dist

# The core tests once more against a debug build (-O0 -g, Cython bounds checks on), in a
# separate build folder copy so the optimised in-place build is left alone.
test-debug: build
	rm -rf build/debug && mkdir -p build/debug
	cp -r nardy_fast tests setup.py pyproject.toml build/debug/
	find build/debug/nardy_fast \( -name '*.so' -o -name '_*.c' \) -delete
	cd build/debug && NARDY_FAST_DEBUG=1 ../../$(PY) setup.py -q build_ext --inplace
	cd build/debug && ../../$(PY) -m pytest -q -p no:cacheprovider tests/core/test_movegen.py tests/core/test_position.py tests/tables/test_bearoff.py tests/tables/test_race.py tests/engine/play/test_rollout.py tests/tables/test_cuberace.py tests/training/test_supervised.py
