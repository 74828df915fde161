# Set-up, build and checks.  Every target creates/reuses the virtual environment .venv,
# installs the package with its extras and builds the Cython extensions in place.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.nardy_fast-installed
SHARED ?= ../shared

.PHONY: all build test demo bench data clean

all: build

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml setup.py | $(PY)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q "setuptools>=64" wheel "Cython>=3.0" "numpy>=1.25"
	$(PY) -m pip install -q --no-build-isolation -e ".[test]"
	touch $(STAMP)

build: $(STAMP)
	$(PY) setup.py -q build_ext --inplace

test: build
	$(PY) -m pytest -q

demo: build
	$(PY) -m nardy_fast.demo

bench: build
	$(PY) benchmarks/bench_movegen.py
	$(PY) benchmarks/bench_bearoff.py
	$(PY) benchmarks/bench_rollout.py

# Refresh the test data copies from the shared folder beside the checkout.
data:
	cp $(SHARED)/vectors/README.md $(SHARED)/vectors/movegen_public.jsonl tests/data/vectors/
	cp $(SHARED)/reference/README.md $(SHARED)/reference/gnubg_onesided_sample.csv tests/data/reference/

clean:
	rm -rf build nardy_fast/*.so nardy_fast/_*.c nardy_fast/*.html
