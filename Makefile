# powersched: the only place that strings the steps together.
#
#   make deps     install the Debian packages the project needs (as root)
#   make kernel   build/kernel/{vanilla,powersched}/bzImage from linux-source-6.12
#   make guest    build/guest/initramfs.cpio.gz (busybox, trace-cmd, workloads)
#   make test     every test of the project; ends with "N passed, N failed"
#   make report   the experiment: boots the kernels and writes build/report/
#   make clean    remove build/ (the unpacked kernel trees included)

SHELL := /bin/bash
BUILD := $(CURDIR)/build

# Debian packages, grouped by the step that needs them.
DEB_KERNEL := linux-source-6.12 gcc make flex bison bc libelf-dev libssl-dev \
	cpio xz-utils git perl
DEB_GUEST := qemu-system-x86 busybox-static trace-cmd rt-tests
DEB_TOOLS := libtraceevent-dev libtracefs-dev libtracecmd-dev pkg-config \
	gnuplot-nox jq
DEB_ALL := $(DEB_KERNEL) $(DEB_GUEST) $(DEB_TOOLS)

GUEST_INITRAMFS := $(BUILD)/guest/initramfs.cpio.gz

.PHONY: all deps kernel guest test report clean help

all: kernel guest

help:
	@sed -n '3,9p' Makefile | sed 's/^# //'

# Installs only what is missing, so a machine that has everything never
# touches apt.  Needs root (CI runs as root).
deps:
	@missing=$$(for p in $(DEB_ALL); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
		echo "make deps: installing" $$missing; \
		if [ "$$(id -u)" != 0 ]; then echo "make deps: error: need root to install packages: $$missing" >&2; exit 1; fi; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	else \
		echo "make deps: all $(words $(DEB_ALL)) Debian packages present"; \
	fi

kernel: deps
	@kernel/build all

$(GUEST_INITRAMFS): qemu/mkinitramfs qemu/guest-init | deps
	@qemu/mkinitramfs $@

guest: deps $(GUEST_INITRAMFS)

test: deps kernel guest
	@tests/run

# At this stage the report boots the powersched kernel on the server
# topology and records a scheduler trace; the experiment matrix comes later.
report: deps kernel guest
	@rm -rf $(BUILD)/report && mkdir -p $(BUILD)/report
	@qemu/run --kernel powersched --topology server --out $(BUILD)/report/server-idle \
		-- trace-cmd record -q -e sched:sched_switch -e sched:sched_migrate_task \
		   -o trace.dat sleep 5
	@echo "make report: trace in build/report/server-idle/trace.dat"

clean:
	rm -rf $(BUILD)
