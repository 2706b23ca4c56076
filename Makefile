# uvmsim build.  `make` builds build/uvmsim; see README for the rest.
BUILD    ?= build
CC       = gcc
PREFIX   ?= /usr/local
OPT      ?= -O2
EXTRA_CFLAGS  ?=
EXTRA_LDFLAGS ?=
# The Debian interpreter: scripts/debian-packages.txt installs h5py and pandas
# for it, not for a python3 that a version manager puts first on PATH.
PYTHON   ?= /usr/bin/python3

# The one package list: scripts/debian-packages.txt (groups build, test, scripts).
DEB_PKGS := $(shell sh scripts/packages.sh build test scripts 2>/dev/null)

# Dependencies through pkg-config; Debian ships HDF5 as hdf5-serial.
HDF5_PC := $(shell pkg-config --exists hdf5-serial 2>/dev/null && echo hdf5-serial || \
             (pkg-config --exists hdf5 2>/dev/null && echo hdf5))
MISSING := $(shell pkg-config --exists yaml-0.1 2>/dev/null || echo yaml-0.1) \
           $(shell pkg-config --exists liblzma 2>/dev/null || echo liblzma) \
           $(if $(HDF5_PC),,hdf5-serial)
CHECK_MISSING := $(shell pkg-config --exists check 2>/dev/null || echo check)
ifeq ($(MAKECMDGOALS),help)
else ifneq ($(strip $(MISSING)),)
$(error missing $(strip $(MISSING)); install with: apt-get install -y --no-install-recommends $(DEB_PKGS))
endif

DEP_CFLAGS := $(shell pkg-config --cflags yaml-0.1 liblzma $(HDF5_PC) 2>/dev/null)
DEP_LIBS   := $(shell pkg-config --libs yaml-0.1 liblzma $(HDF5_PC) 2>/dev/null)
CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)

# Every shared function and table is declared in its room's header
# (-Wmissing-variable-declarations: clang, gcc >= 14; probed).
DECL_WARN := -Wmissing-prototypes $(shell $(CC) -Werror -Wmissing-variable-declarations \
               -x c -c /dev/null -o /dev/null 2>/dev/null && echo -Wmissing-variable-declarations)
CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(OPT) -g -Wall -Wextra -Werror $(DECL_WARN) \
          -Isim -I. $(DEP_CFLAGS) $(EXTRA_CFLAGS)
LDLIBS := $(DEP_LIBS) -lm $(EXTRA_LDFLAGS)

LIB_SRC  := $(sort $(filter-out sim/main.c sim/cli/main.c,$(shell find sim workloads -name '*.c')))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)

MAKEFLAGS += --no-print-directory

.PHONY: all test check test-bins check-asan bench install docs clean help fuzz test-fresh validation fast-validation
all: $(BUILD)/uvmsim

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libuvmsim.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/uvmsim: $(BUILD)/obj/sim/cli/main.o $(BUILD)/libuvmsim.a
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libuvmsim.a
	@mkdir -p $(dir $@)
	$(if $(CHECK_MISSING),$(error missing check; install with: apt-get install -y --no-install-recommends $(DEB_PKGS)))
	$(CC) $(CFLAGS) $(CHECK_CFLAGS) -MMD -MP -Itests/unit $< $(BUILD)/libuvmsim.a -o $@ $(CHECK_LIBS) $(LDLIBS)

# Unit suites (Check) and end-to-end cases; one closing summary line.  The
# binaries build in parallel: with no -j from the user, one job per core
# (a -j given, e.g. make -j2 test, is the sub-make's through the jobserver).
NPROC := $(shell nproc 2>/dev/null || echo 2)
test check:
	@$(MAKE) $(if $(findstring -j,$(MAKEFLAGS)),,-j$(NPROC)) test-bins
	@sh tests/run.sh $(BUILD)

test-bins: $(BUILD)/uvmsim $(TEST_BIN) $(BUILD)/tests/fuzz_replay
	@:

check-asan:
	$(MAKE) BUILD=build-asan OPT=-O1 \
	  EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  EXTRA_LDFLAGS="-fsanitize=address,undefined" test

bench: $(BUILD)/uvmsim
	@BENCH_MODEL=cycle sh scripts/bench.sh $(BUILD)/uvmsim
	@BENCH_MODEL=fast sh scripts/bench.sh $(BUILD)/uvmsim

# docs/validation.md's generated sections (counts, claim tables) from
# validation/claims.yaml and the committed validation/results/ (issue 39):
# no simulation; tests/e2e/validation.sh checks the document matches.
validation:
	@$(PYTHON) scripts/validation/validation_doc.py docs/validation.md

# docs/fast-validation.md from the committed runs of the fast model's
# validation set (issue 41; scripts/validate_fast.sh makes the runs): no
# simulation; tests/e2e/fast_validation.sh checks the document matches.
fast-validation:
	@$(PYTHON) scripts/validation/fast_full.py report validation/fast/full.points.csv.gz > docs/fast-validation.md

docs: $(BUILD)/uvmsim
	$(BUILD)/uvmsim config doc > docs/config.md
	$(BUILD)/uvmsim workloads > docs/workloads.md

install: $(BUILD)/uvmsim
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/uvmsim/configs
	install -m 755 $(BUILD)/uvmsim $(DESTDIR)$(PREFIX)/bin/uvmsim
	install -m 644 configs/*.yaml $(DESTDIR)$(PREFIX)/share/uvmsim/configs/

clean:
	rm -rf build build-asan build-fuzz

help:
	@echo "make | make test | make check-asan | make bench | make docs | make install PREFIX=..."
	@echo "make validation   (docs/validation.md's claim counts and tables from validation/claims.yaml + validation/results/)"
	@echo "make fast-validation   (docs/fast-validation.md from validation/fast/full.points.csv.gz: the fast model against cycle)"
	@echo "make fuzz [FUZZ_SECONDS=60] [FUZZ_TARGETS='config nvbit ...']   (clang, libFuzzer)"
	@echo "make test-fresh   (root: the README's quick start on a bare Debian root, scripts/test_fresh.sh)"
	@echo "Debian packages (scripts/debian-packages.txt): apt-get install -y --no-install-recommends $(DEB_PKGS)"

# ---- fuzzing (tests/fuzz, docs/robustness.md) ----
# The regression replayer: the fuzz entry points, built like the tests.
$(BUILD)/tests/fuzz_replay: tests/fuzz/replay.c tests/fuzz/targets.c tests/fuzz/targets.h $(BUILD)/libuvmsim.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/fuzz tests/fuzz/replay.c tests/fuzz/targets.c $(BUILD)/libuvmsim.a -o $@ $(LDLIBS)

# `make fuzz`: every target under libFuzzer with ASan+UBSan for FUZZ_SECONDS
# each (clang; Debian: clang libclang-rt-14-dev).  Crashes are copied to
# tests/fuzz/regressions/TARGET/ and fail the run.
FUZZ_TARGETS ?= config sets nvbit bintrace pagetrace dramtrace mtx edgelist accelsim step traceopts report \
                sweepfile sweepdir
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
fuzz:
	$(MAKE) BUILD=build-fuzz CC=$(FUZZ_CC) OPT=-O1 \
	  EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" EXTRA_LDFLAGS="$(FUZZ_SAN)" \
	  build-fuzz/libuvmsim.a build-fuzz/uvmsim
	@for t in $(FUZZ_TARGETS); do \
	  echo "$(FUZZ_CC) fuzz_$$t"; \
	  $(FUZZ_CC) $(CFLAGS) -O1 -fsanitize=fuzzer $(FUZZ_SAN) -Itests/fuzz -DFUZZ_TARGET="\"$$t\"" \
	    tests/fuzz/libfuzzer.c tests/fuzz/targets.c build-fuzz/libuvmsim.a \
	    -o build-fuzz/fuzz_$$t $(LDLIBS) || exit 1; \
	done
	@case " $(FUZZ_TARGETS) " in *" report "*) \
	  sh tests/fuzz/report_seeds.sh build-fuzz/uvmsim build-fuzz/seeds/report || exit 1;; esac
	sh tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

-include $(LIB_OBJ:.o=.d) $(BUILD)/obj/sim/cli/main.d $(TEST_BIN:=.d)

# The sweep runner against a real single-node Slurm: as root, installs
# slurm-wlm and munge when missing and starts (then stops) its own daemons.
.PHONY: test-slurm
test-slurm: $(BUILD)/uvmsim
	@sh scripts/slurm_test.sh $(BUILD)

# The README's two quick-start commands on a debootstrapped bare Debian
# (root; about 15-40 minutes, docs/setup.md).  Not in .ci/run: see there.
test-fresh:
	@sh scripts/test_fresh.sh
