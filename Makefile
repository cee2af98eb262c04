# relaykit: `make demo` installs and runs the main job; `make test` installs and runs the tests.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# llama.cpp's native build (-march=native) turns on AMX wherever the CPU reports it; on machines that report AMX
# without the kernel granting its tile state (seen on VMs here) the embedded model dies with SIGSEGV at its first
# token (ldtilecfg in ggml_backend_amx_mul_mat). A portable AVX2 build runs everywhere; set CMAKE_ARGS to override.
export CMAKE_ARGS ?= -DGGML_NATIVE=OFF

.PHONY: install compile demo test lint typecheck bench clean

$(STAMP): pyproject.toml setup.py
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[all,envs,dev,integrations]'
	# bfcl-eval's pinned dependencies clash with ours; its data and tool backends need none of them
	$(PY) -m pip install -q --no-deps 'bfcl-eval==2026.3.23'
	$(PY) -m pip install -q 'setuptools>=77'  # `make compile` runs setup.py in the venv (pip built in isolation)
	$(MAKE) compile
	touch $(STAMP)

install: $(STAMP)

# the hand-off reader and writer as C extension modules (mypyc, in place beside their source; about 5 minutes on
# 2 cores) and the semantic cache index's search (plain C, seconds); without a C compiler, or if it fails, they
# stay pure Python (relaykit.handoff.native, relaykit.models.cache.kernel)
compile:
	RELAYKIT_COMPILE=1 $(PY) setup.py -q build_ext --inplace 2>&1 | grep -v -e 'warning: Treating generator' -e '^$$' || true

demo: install
	$(VENV)/bin/relaykit bench relay --methods passthrough,extract-rules,prune,truncate,tfidf --booker reader,model --model-goals 1

test: install
	$(VENV)/bin/python -m pytest -q

lint: install
	$(VENV)/bin/ruff check src tests setup.py
	$(VENV)/bin/lint-imports

typecheck: install
	$(VENV)/bin/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build
	find src -name '*.so' -delete
