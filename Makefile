# powersched: the only place that strings the steps together.
#
#   make deps     install the Debian packages the project needs (as root)
#   make kernel   build/kernel/{vanilla,powersched}/bzImage from linux-source-6.12
#                 (FLAVOURS="vanilla powersched debug" adds the debug kernel)
#   make kernel-debug  build/kernel/debug/bzImage: lockdep, KASAN, UBSAN
#   make kernel-deb    the series as Debian packages for a real machine
#                 (CONFIG=FILE, default /boot/config-$(uname -r); CONFIG=tiny)
#   make guest    build/guest/initramfs.cpio.gz (busybox, trace-cmd, workloads,
#                 powersched)
#   make tools    the trace-cmd plugin (build/lib/...) and the C tools
#   make install  the plugin into ~/.local/lib/traceevent/plugins (PREFIX=...)
#   make test     every test of the project; ends with "N passed, N failed"
#   make test-slow  the tests too long for make test (packaging a kernel)
#   make bench    benchmarks that print figures (build/bench/)
#   make report   the experiment: boots the kernels and writes build/report/
#   make soak     BOOTS boots of the recording guest: hangs and their state
#   make torture  random mixes on the debug kernel (TORTURE_SECONDS per topology)
#   make clean    remove build/ (the unpacked kernel trees included)

SHELL := /bin/bash
BUILD := $(CURDIR)/build

# Debian packages, grouped by the step that needs them.
DEB_KERNEL := linux-source-6.12 gcc make flex bison bc libelf-dev libssl-dev \
	cpio xz-utils git perl patch dpkg-dev debhelper kmod rsync
DEB_GUEST := qemu-system-x86 busybox-static trace-cmd rt-tests
DEB_TOOLS := libtraceevent-dev libtracefs-dev libtracecmd-dev pkg-config \
	gnuplot-nox jq libc6-dev time
DEB_ALL := $(DEB_KERNEL) $(DEB_GUEST) $(DEB_TOOLS)
# only for make test: the single-node Slurm that tests BACKEND=slurm (a
# cluster has its own Slurm; a local make report needs none)
DEB_TEST := slurm-wlm munge

GUEST_INITRAMFS := $(BUILD)/guest/initramfs.cpio.gz
WORKLOADS := spin wave periodic
WORKLOAD_BINS := $(addprefix $(BUILD)/guest/bin/,$(WORKLOADS)) $(BUILD)/guest/bin/kick-cpus

# C tools.  Recursive variables: pkg-config runs after make deps installed
# the -dev packages.  Test builds add ASan and UBSan.
CC ?= gcc
CFLAGS ?= -O2 -g
WARN := -Wall -Wextra -Werror
SANITIZE := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
TEP_CFLAGS = $(shell pkg-config --cflags libtraceevent)
TEP_LIBS = $(shell pkg-config --libs libtraceevent)
TFS_CFLAGS = $(shell pkg-config --cflags libtracefs)
TFS_LIBS = $(shell pkg-config --libs libtracefs)
TCMD_CFLAGS = $(shell pkg-config --cflags libtracecmd)
TCMD_LIBS = $(shell pkg-config --libs libtracecmd)
# powersched record and topology: what runs on the recording machine
RECORD_SRC := analysis/record.c analysis/record-tracefs.c analysis/record-exec.c analysis/record-check.c \
	analysis/run-json.c analysis/topology-write.c analysis/energy-sample.c \
	analysis/sysroot.c analysis/json-write.c analysis/energy.c
ANALYZER_SRC := analysis/powersched.c analysis/analyze.c analysis/trace.c \
	analysis/busy.c analysis/migrations.c analysis/modes.c analysis/timeline.c \
	analysis/summary.c analysis/results.c analysis/output.c analysis/json.c analysis/compare.c \
	analysis/waiting.c analysis/tasks.c analysis/hist.c analysis/export.c analysis/pingpong.c analysis/measured.c \
	analysis/idle.c analysis/idle-summary.c \
	analysis/model.c analysis/model-fit.c analysis/json-read.c analysis/topology.c \
	$(RECORD_SRC)
ANALYZER_HDR := analysis/powersched.h analysis/analyze.h analysis/trace.h analysis/busy.h \
	analysis/fields.h analysis/output.h analysis/summary.h analysis/json.h analysis/waiting.h \
	analysis/tasks.h analysis/hist.h tracer/powersched-events.h \
	analysis/machine.h analysis/record.h analysis/energy.h analysis/json-read.h analysis/idle.h analysis/text.h
MODEL_DEF := -DMODEL_DIR='"$(CURDIR)/analysis"'
PREFIX ?= $(HOME)/.local
PLUGIN_DIR ?= $(PREFIX)/lib/traceevent/plugins

PLUGIN := $(BUILD)/lib/traceevent/plugins/plugin_powersched.so
ANALYZER := $(BUILD)/bin/powersched
NOOP_ITERATE := $(BUILD)/bin/noop-iterate
TEST_BINS := $(BUILD)/test/plugin_powersched.so $(BUILD)/test/plugin-test \
	$(BUILD)/test/powersched $(BUILD)/test/busy-test $(BUILD)/test/tables-test \
	$(BUILD)/test/mktrace

.PHONY: all deps deps-test kernel kernel-debug kernel-deb guest tools test-tools install test test-slow bench fuzz report soak torture clean help

all: kernel guest tools

help:
	@sed -n '3,19p' Makefile | sed 's/^# //'

# Installs only what is missing, so a machine that has everything never
# touches apt.  Needs root (CI runs as root).
install_debs = @missing=$$(for p in $(1); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "make $@: installing" $$missing; \
		if [ "$$(id -u)" != 0 ]; then echo "make $@: error: need root to install packages: $$missing" >&2; exit 1; fi; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	else \
		echo "make $@: all $(words $(1)) Debian packages present"; \
	fi
deps:
	$(call install_debs,$(DEB_ALL))
deps-test: deps
	$(call install_debs,$(DEB_TEST))

export FLAVOURS
kernel: deps
	@kernel/build all

kernel-debug: deps
	@kernel/build debug

# The series on a real machine's configuration, as Debian packages under
# build/deb/ (README: "A kernel for a real machine").
kernel-deb: deps
	@kernel/deb $(if $(CONFIG),--config $(CONFIG))

# The workloads run in the guest (and on the host, for their tests).
$(BUILD)/guest/bin/%: workloads/%.c workloads/common.h | deps
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) $(TFS_CFLAGS) -o $@ $< $(TFS_LIBS)

# powersched itself goes into the guest: guest-init writes topology.tsv with
# `powersched topology`, and the guests record with `powersched record`.
$(BUILD)/guest/bin/powersched: $(ANALYZER)
	@mkdir -p $(@D)
	cp $< $@

# run right after tracing starts by the recordings made with trace-cmd itself
$(BUILD)/guest/bin/kick-cpus: workloads/kick-cpus
	@mkdir -p $(@D)
	install -m 0755 $< $@

$(GUEST_INITRAMFS): qemu/mkinitramfs qemu/guest-init $(WORKLOAD_BINS) $(BUILD)/guest/bin/powersched | deps
	@qemu/mkinitramfs $@ $(BUILD)/guest/bin

guest: deps $(GUEST_INITRAMFS)

tools: deps $(PLUGIN) $(ANALYZER)

$(ANALYZER): $(ANALYZER_SRC) $(ANALYZER_HDR) | deps
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) $(MODEL_DEF) $(TCMD_CFLAGS) -o $@ $(ANALYZER_SRC) $(TCMD_LIBS) -lm

$(NOOP_ITERATE): analysis/bench/noop-iterate.c | deps
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) $(TCMD_CFLAGS) -o $@ $< $(TCMD_LIBS)

$(BUILD)/test/powersched: $(ANALYZER_SRC) $(ANALYZER_HDR) | deps
	@mkdir -p $(@D)
	$(CC) -O1 -g $(WARN) $(SANITIZE) $(MODEL_DEF) $(TCMD_CFLAGS) -o $@ $(ANALYZER_SRC) $(TCMD_LIBS) -lm

# C unit tests of single modules (TAP output; analysis/tests/40-units.t runs them)
UNIT_CFLAGS = -O1 -g $(WARN) $(SANITIZE) $(MODEL_DEF) $(TCMD_CFLAGS)
$(BUILD)/test/energy-test: analysis/tests/unit/energy-test.c analysis/tests/unit/tap.h \
		analysis/energy.c analysis/energy-sample.c analysis/sysroot.c $(ANALYZER_HDR) | deps
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) -o $@ $(filter %.c,$^) -lm
$(BUILD)/test/model-test: analysis/tests/unit/model-test.c analysis/tests/unit/tap.h \
		analysis/model.c analysis/model-fit.c analysis/energy.c analysis/json-read.c \
		$(ANALYZER_HDR) analysis/power-model.conf analysis/power-model-laptop.conf | deps
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) -o $@ $(filter %.c,$^) $(TCMD_LIBS) -lm
$(BUILD)/test/idle-test: analysis/tests/unit/idle-test.c analysis/tests/unit/tap.h \
		analysis/idle.c analysis/idle.h analysis/json-write.c | deps
	@mkdir -p $(@D)
	$(CC) $(UNIT_CFLAGS) -o $@ $(filter %.c,$^) $(TCMD_LIBS) -lm
UNIT_TESTS := $(BUILD)/test/energy-test $(BUILD)/test/model-test $(BUILD)/test/idle-test


$(BUILD)/test/busy-test: analysis/tests/busy-test.c analysis/busy.c analysis/busy.h analysis/powersched.h | deps
	@mkdir -p $(@D)
	$(CC) -O1 -g $(WARN) $(SANITIZE) -o $@ analysis/tests/busy-test.c analysis/busy.c

$(BUILD)/test/tables-test: analysis/tests/tables-test.c analysis/hist.c analysis/tasks.c analysis/hist.h analysis/tasks.h | deps
	@mkdir -p $(@D)
	$(CC) -O1 -g $(WARN) $(SANITIZE) -o $@ analysis/tests/tables-test.c analysis/hist.c analysis/tasks.c

# writes trace.dat files from a text list of records, for crafted test traces
$(BUILD)/test/mktrace: analysis/tests/mktrace.c | deps
	@mkdir -p $(@D)
	$(CC) -O1 -g $(WARN) $(SANITIZE) $(TEP_CFLAGS) -o $@ $< $(TEP_LIBS)

test-tools: deps $(TEST_BINS) $(UNIT_TESTS)

$(PLUGIN): tracer/plugin_powersched.c tracer/powersched-events.h | deps
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(WARN) -fPIC -shared $(TEP_CFLAGS) -o $@ $<

$(BUILD)/test/plugin_powersched.so: tracer/plugin_powersched.c tracer/powersched-events.h | deps
	@mkdir -p $(@D)
	$(CC) -O1 -g $(WARN) $(SANITIZE) -fPIC -shared $(TEP_CFLAGS) -o $@ $<

$(BUILD)/test/plugin-test: tracer/tests/plugin-test.c | deps
	@mkdir -p $(@D)
	$(CC) -O1 -g $(WARN) $(SANITIZE) $(TEP_CFLAGS) -o $@ $< $(TEP_LIBS) -ldl

# Bounded libFuzzer runs of the analyzer's input paths: FUZZ_TIME seconds
# each on traces (analyze, then export), topology files and run.json; any
# crash or sanitizer report fails.  libtracecmd asks malloc for whatever a
# corrupt header says (4 and 11 GB seen): as on a machine without that much
# memory, an allocation above 1 GB returns NULL (which libtracecmd handles)
# rather than stopping the fuzzer.
FUZZ_TIME ?= 60
FUZZ_CC := clang
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_SEEDS := analysis/tests/data
FUZZ_SRC = $(filter-out analysis/powersched.c,$(ANALYZER_SRC)) analysis/fuzz/cli.c
# the topology target reads its fuzzed topology.tsv beside the small mktrace
# seed: a few dozen records, so that it runs many inputs a second
FUZZ_ENV = FUZZ_TRACE_SEED=$(BUILD)/fuzz/corpus-trace/seed.dat \
	FUZZ_TOPOLOGY_SEED=$(CURDIR)/$(FUZZ_SEEDS)/pinned-vanilla/topology.tsv \
	LSAN_OPTIONS=suppressions=$(CURDIR)/analysis/tests/lsan.supp ASAN_OPTIONS=fast_unwind_on_malloc=0:allocator_may_return_null=1:max_allocation_size_mb=1024
fuzz: deps $(BUILD)/test/mktrace
	@for p in clang libclang-rt-14-dev; do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || \
		{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$p; }; done
	@mkdir -p $(BUILD)/fuzz/corpus-trace $(BUILD)/fuzz/corpus-export $(BUILD)/fuzz/corpus-topology $(BUILD)/fuzz/corpus-json
	$(FUZZ_CC) $(FUZZ_FLAGS) $(MODEL_DEF) $(TCMD_CFLAGS) -o $(BUILD)/fuzz/fuzz-trace \
		analysis/fuzz/fuzz-analyze.c $(FUZZ_SRC) $(TCMD_LIBS) -lm
	$(FUZZ_CC) $(FUZZ_FLAGS) -DFUZZ_EXPORT $(MODEL_DEF) $(TCMD_CFLAGS) -o $(BUILD)/fuzz/fuzz-export \
		analysis/fuzz/fuzz-analyze.c $(FUZZ_SRC) $(TCMD_LIBS) -lm
	$(FUZZ_CC) $(FUZZ_FLAGS) -DFUZZ_TOPOLOGY $(MODEL_DEF) $(TCMD_CFLAGS) -o $(BUILD)/fuzz/fuzz-topology \
		analysis/fuzz/fuzz-analyze.c $(FUZZ_SRC) $(TCMD_LIBS) -lm
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $(BUILD)/fuzz/fuzz-json analysis/fuzz/fuzz-json.c analysis/json.c
	@for d in $(FUZZ_SEEDS)/*/; do [ -f $$d/trace.dat ] || continue; \
	   cp $$d/trace.dat $(BUILD)/fuzz/corpus-trace/$$(basename $$d).dat; \
	   cp $$d/trace.dat $(BUILD)/fuzz/corpus-export/$$(basename $$d).dat; \
	   cp $$d/topology.tsv $(BUILD)/fuzz/corpus-topology/$$(basename $$d).tsv; \
	   [ -f $$d/run.json ] && cp $$d/run.json $(BUILD)/fuzz/corpus-json/$$(basename $$d).json; true; done
	@# a small trace with every event the analyzer reads: records, not kallsyms, to mutate
	$(BUILD)/test/mktrace --formats analysis/tests/formats --system powersched:tracer/tests/formats/v2 \
		-o $(BUILD)/fuzz/corpus-trace/seed.dat analysis/fuzz/seed-records.txt
	cp $(BUILD)/fuzz/corpus-trace/seed.dat $(BUILD)/fuzz/corpus-export/seed.dat
	cd $(BUILD)/fuzz && $(FUZZ_ENV) ./fuzz-trace -max_total_time=$(FUZZ_TIME) -close_fd_mask=3 -max_len=400000 corpus-trace
	cd $(BUILD)/fuzz && $(FUZZ_ENV) ./fuzz-export -max_total_time=$(FUZZ_TIME) -close_fd_mask=3 -max_len=400000 corpus-export
	cd $(BUILD)/fuzz && $(FUZZ_ENV) ./fuzz-topology -max_total_time=$(FUZZ_TIME) -close_fd_mask=3 corpus-topology
	cd $(BUILD)/fuzz && ./fuzz-json -max_total_time=$(FUZZ_TIME) corpus-json
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $(BUILD)/fuzz/fuzz-inputs analysis/fuzz/fuzz-inputs.c \
		analysis/energy.c analysis/json-read.c -lm
	@mkdir -p $(BUILD)/fuzz/corpus-inputs
	cp analysis/tests/data/pinned-vanilla/run.json $(BUILD)/fuzz/corpus-inputs/run.json
	printf 'zone\t0\tpackage-0\tintel-rapl:0\t1000\nsample\t1.0\t900\nsample\t2.0\t100\n' \
		>$(BUILD)/fuzz/corpus-inputs/energy.tsv
	cd $(BUILD)/fuzz && ./fuzz-inputs -max_total_time=$(FUZZ_TIME) -close_fd_mask=3 corpus-inputs
	@echo "make fuzz: no crash in $(FUZZ_TIME) s each on traces (analyze, export), topology files, run.json and energy.tsv/JSON inputs"

# trace-cmd report and KernelShark look in ~/.local/lib/traceevent/plugins
install: tools
	install -D -m 0644 $(PLUGIN) $(DESTDIR)$(PLUGIN_DIR)/plugin_powersched.so
	@echo "installed $(DESTDIR)$(PLUGIN_DIR)/plugin_powersched.so"

test: deps deps-test kernel kernel-debug guest tools test-tools
	@tests/run

# Tests too long for make test (each says what it costs): the series packaged
# for Debian from the tiny configuration, built, unpacked and booted.
test-slow: deps kernel guest tools test-tools
	@tests/run $(sort $(wildcard */tests/slow/*.t))

# Wakeup-heavy overhead of the policy against the vanilla kernel on 2 and 4
# sockets (BENCH_TOPOLOGIES), the instructions and cpus read per wakeup
# placement from 8 to 32 cpus (WAKEUP_TOPOLOGIES), what the debug kernel's
# checkers cost, lazy balance against thrashing (LAZY_TOPOLOGIES,
# LAZY_VARIANTS), and the analyzer's speed and memory.
export BENCH_TOPOLOGIES WAKEUP_TOPOLOGIES LAZY_TOPOLOGIES LAZY_VARIANTS
bench: deps kernel kernel-debug guest tools $(NOOP_ITERATE)
	@kernel/bench/hackbench
	@kernel/bench/wakeup-cost
	@kernel/bench/lazy-balance
	@kernel/bench/debug-overhead
	@analysis/bench/analyzer

# The experiment: the matrix of workloads/matrix in the guest, then the
# report of plots/report in build/report/.  RUNS, TOPOLOGY, SPIN_SECONDS,
# WAVE_JOBS and REUSE select and size the cells, JOBS runs several at once,
# BACKEND=slurm (SLURM_ARGS) runs them on a cluster (README.md).
export RUNS TOPOLOGY SPIN_SECONDS WAVE_JOBS PERIODIC_SECONDS REUSE REPEATS JOBS BACKEND SLURM_ARGS
report: deps kernel guest tools
	@rc=0; workloads/matrix || rc=$$?; plots/report || rc=$$?; \
	echo "make report: open build/report/index.html (or read build/report/report.md)"; exit $$rc

# BOOTS boots (default 100) of the recording guest, one at a time and with
# no retry: how often a guest does not finish, and each hang's state
# (QEMU monitor, sysrq stacks) under build/soak/.
BOOTS ?= 100
soak: deps kernel guest tools
	@qemu/soak $(BOOTS)

# Random mixes of workloads, affinity changes, policy switches, cpu hotplug,
# sched_feat toggles and cgroup moves on the debug kernel: TORTURE_SECONDS
# (default 600) on each of TORTURE_TOPOLOGIES; TORTURE_SEED replays a run.
TORTURE_SECONDS ?= 600
TORTURE_TOPOLOGIES ?= server,quad,big
torture: deps kernel-debug guest
	@kernel/torture --kernel debug --seconds $(TORTURE_SECONDS) --topology $(TORTURE_TOPOLOGIES) \
		$(if $(TORTURE_SEED),--seed $(TORTURE_SEED))

clean:
	rm -rf $(BUILD)
