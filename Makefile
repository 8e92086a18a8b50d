# SPDX-License-Identifier: GPL-2.0-or-later
# ovc - build, test and benchmark entry points. See README.md.

KSRC ?= .deps/kamailio/src
BUILD ?= build
CC ?= gcc

WARN = -Wall -Wextra -Wno-unused-parameter -Wshadow -Wstrict-prototypes
# EXTRA_CFLAGS, EXTRA_LDFLAGS: added to the library's and the module's
# (the Debian package's hardening flags, make deb)
LIB_CFLAGS = -std=gnu11 -O2 -g -fPIC $(WARN) -Iinclude $(EXTRA_CFLAGS)
SAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined

# The installed Kamailio's defines (scripts/build/kam-defs.sh): the module's
# embedded version and flags strings must equal the server's
# (../shared/BUILD-NOTES.md), so they are derived from the server itself
# (kamailio -V, -I: KAMAILIO, default kamailio from PATH) and the source
# tree KSRC (its config.mak when configured, else its Makefile.defs).
# Evaluated when a module object is compiled, after $(K_DEFS_FILE) is made.
KAMAILIO ?= kamailio
K_BIN := $(shell command -v $(KAMAILIO) 2>/dev/null)
K_DEFS_FILE = $(BUILD)/kam-defs
K_DEFS = $(shell cat $(K_DEFS_FILE) 2>/dev/null)
MOD_CFLAGS = -std=gnu11 -O2 -g -fPIC -DPIC -pthread -m64 \
	-Wall -Wno-unused-parameter -Iinclude -I$(KSRC) $(K_DEFS) \
	$(EXTRA_CFLAGS)

LIB_SRC = $(wildcard src/*.c)
LIB_OBJ = $(LIB_SRC:src/%.c=$(BUILD)/lib/%.o)
LIB_SAN_OBJ = $(LIB_SRC:src/%.c=$(BUILD)/lib-san/%.o)
LIB = $(BUILD)/libovc.a
LIB_SAN = $(BUILD)/libovc-san.a

MOD_SRC = $(wildcard modules/ovc/*.c)
MOD_OBJ = $(MOD_SRC:modules/ovc/%.c=$(BUILD)/mod/%.o)
MOD = modules/ovc/ovc.so

# the unit tests also link the kernel stage's loader (with the program it
# loads, BPF_PROG_H)
UNIT_SRC = $(wildcard tests/unit/*.c) kstage/ovc_kstage_bpf.c
UNIT_DEPS = kstage/ovc_kstage_bpf.h
UNIT = $(BUILD)/tests/unit_tests
UNIT_SAN = $(BUILD)/tests/unit_tests_san
CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null || echo -lcheck -lsubunit -lm -lrt -lpthread)

.PHONY: all lib module deps deps-build check check-unit check-asan check-integration \
	check-cfg-examples check-tree \
	check-all check-docs check-scripts docs readme demo clean format \
	install uninstall deb check-k60 check-k60-all check-k60-build check-ds64 \
	check-k61 check-k61-all check-k58-build check-k58 \
	print-version headline

all: lib module

deps:
	@./scripts/setup/deps.sh
# a production host: only what building and installing the module needs
deps-build:
	@./scripts/setup/deps.sh build

lib: $(LIB)
module: $(MOD)

# the kernel stage's socket filter and its loader (KSTAGE_OBJ)
include kstage/bpf.mk

$(BUILD)/lib/%.o: src/%.c $(wildcard include/ovc/*.h include/ovc/*.def src/*.h) | $(BUILD)/lib
	$(CC) $(LIB_CFLAGS) -c $< -o $@
$(BUILD)/lib-san/%.o: src/%.c $(wildcard include/ovc/*.h include/ovc/*.def src/*.h) | $(BUILD)/lib-san
	$(CC) $(LIB_CFLAGS) $(SAN_FLAGS) -c $< -o $@
$(LIB): $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^
$(LIB_SAN): $(LIB_SAN_OBJ)
	rm -f $@ && ar rcs $@ $^

$(KSRC)/core/sr_module.h:
	@echo "Kamailio headers missing in $(KSRC): run 'make deps' first" >&2
	@exit 1

$(K_DEFS_FILE): scripts/build/kam-defs.sh scripts/build/kam-flags.sh \
		$(KSRC)/core/sr_module.h \
		$(K_BIN) \
		$(wildcard $(KSRC)/config.mak) | $(BUILD)/mod
	./scripts/build/kam-defs.sh $(KSRC) $(KAMAILIO) >$@.tmp && mv $@.tmp $@
$(BUILD)/mod/%.o: modules/ovc/%.c $(wildcard modules/ovc/*.h) \
		modules/ovc/ovc_stats.def $(wildcard include/ovc/*.def) \
		$(wildcard include/ovc/*.h) $(K_DEFS_FILE) | $(BUILD)/mod
	$(CC) $(MOD_CFLAGS) -Ikstage -c $< -o $@
$(MOD): $(MOD_OBJ) $(KSTAGE_OBJ) $(LIB)
	$(CC) -shared -pthread $(EXTRA_LDFLAGS) -o $@ $(MOD_OBJ) $(KSTAGE_OBJ) \
		$(LIB) -lm
	KAMAILIO=$(KAMAILIO) ./scripts/build/check-abi.sh $@

UNIT_INC = -Itests/unit -Imodules/ovc -Ikstage -I$(BUILD)/mod
$(UNIT): $(UNIT_SRC) $(UNIT_DEPS) $(BPF_PROG_H) $(LIB) | $(BUILD)/tests
	$(CC) $(LIB_CFLAGS) $(UNIT_INC) -o $@ $(UNIT_SRC) $(LIB) $(CHECK_LIBS) -lm
$(UNIT_SAN): $(UNIT_SRC) $(UNIT_DEPS) $(BPF_PROG_H) $(LIB_SAN) | $(BUILD)/tests
	$(CC) $(LIB_CFLAGS) $(SAN_FLAGS) $(UNIT_INC) -o $@ $(UNIT_SRC) \
		$(LIB_SAN) $(CHECK_LIBS) -lm

$(BUILD)/lib $(BUILD)/lib-san $(BUILD)/mod $(BUILD)/tests:
	mkdir -p $@

# The README's two commands. Each first makes sure the machine has what
# the project needs (idempotent), then builds and runs in a fresh make so
# that pkg-config answers for the packages just installed.
check:
	@./scripts/setup/deps.sh
	@$(MAKE) --no-print-directory check-all

# The checks that load no proxy run two at a time (the machine's two
# cores; each target's output kept together); the testbed smoke and the
# integration tests, which measure under load, run after them, one at a
# time. Kamailio 6.0's root and build (check-k60-build) is one of the
# former; its tests (check-k60, which finds the tree built) come last.
CHECK_NO_LOAD = check-unit check-asan check-fuzz check-docs \
	check-cfg-examples check-scripts check-sim check-bench-unit \
	check-k60-build

check-all:
	@$(MAKE) --no-print-directory -j2 --output-sync=target $(CHECK_NO_LOAD)
	@$(MAKE) --no-print-directory check-bench-smoke check-integration \
		check-k60

check-unit: $(UNIT)
	$(UNIT)

check-asan: $(UNIT_SAN)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $(UNIT_SAN)

$(BUILD)/params_doc: scripts/docs/params_doc.c $(LIB) | $(BUILD)/tests
	$(CC) $(LIB_CFLAGS) -o $@ $< $(LIB) -lm

$(BUILD)/csv_doc: scripts/docs/csv_doc.c $(LIB) | $(BUILD)/tests
	$(CC) $(LIB_CFLAGS) -o $@ $< $(LIB) -lm

# the module's reference is DocBook in Kamailio's layout
# (modules/ovc/doc/ovc.xml, ovc_admin.xml); make docs refreshes its
# generated tables and the plain-text README made from it, make readme
# the README alone (xsltproc, docbook-xsl and w3m: scripts/docs/gen-readme.sh),
# make check-docs fails when either drifts
docs: $(BUILD)/params_doc $(BUILD)/csv_doc
	./scripts/docs/check-docs.sh --update

readme:
	./scripts/docs/gen-readme.sh

check-docs: $(BUILD)/params_doc $(BUILD)/csv_doc
	./scripts/docs/check-docs.sh
	./scripts/docs/check-headline.sh

# The README's headline measured again with the module as built: the
# testbed's proxy calibrated, no control against ovc's defaults at 1-16x,
# three runs per point (bench/campaigns/headline.sh; about 25 minutes holding the
# machine-wide load lock), bench/results/headline/headline.csv written
# and README.md's headline table and plot regenerated from it.
headline: all bench-tools
	./bench/campaigns/headline.sh
check-scripts: $(BUILD)/params_doc $(BUILD)/csv_doc $(BUILD)/bench/ovc-jget

# the shell helpers on fake trees (no root, no load: scripts/load/cgroup.sh,
# the capacity probe's search, kam-tree.sh's layout, the headline's chain
# and the docs' checks); the bench's own script tests are in
# check-bench-unit (bench/bench.mk)
check-scripts:
	./tests/scripts/test_cgroup.sh
	./tests/scripts/test_headline.sh
	./tests/scripts/test_probe.sh
	./tests/scripts/test_sipp_stat.sh
	./tests/scripts/test_kam_tree_layout.sh
	./tests/scripts/test_check_docs.sh
	./tests/scripts/test_modparams.sh

# INTEGRATION_RUN=true: builds what the tests need without running them
# (tests/versions/debroot.sh)
INTEGRATION_RUN ?= ./tests/integration/run.sh
check-integration: all
	$(INTEGRATION_RUN)

# Kamailio 6.0 (Debian 13's package) in a trixie root made with mmdebstrap
# (tests/versions/debroot.sh, cached in /var/cache/ovc/trixie): the module
# built against it and loaded (check-k60-build), then t_bad_modparam and
# t_probe_variants (an overload test, 20 s) in the root (check-k60), or t_ds64 (a stock 6.0
# dispatcher-64 edge in front of an ovc core: check-ds64), or every
# integration test (check-k60-all)
check-ds64:
	./tests/versions/debroot.sh trixie t_ds64.sh
check-k60:
	./tests/versions/debroot.sh trixie quick
check-k60-all:
	./tests/versions/debroot.sh trixie all
check-k60-build:
	./tests/versions/debroot.sh trixie build

# Kamailio 6.1 (Debian sid's package) in a sid root, as check-k60 (not
# part of check): sid lists the package's source but does not serve it,
# so KAM_SRC= Kamailio's git repository (its tag of that release, else the
# newest 6.1.N) or a 6.1 release tarball gives the headers
# (tests/versions/debroot.sh). Kamailio 5.8, compile only (no server of
# it here): every module file against the newest 5.8.N of KAM_SRC
# (tests/versions/headers.sh).
KAM_SRC ?=
check-k61:
	KAM_SRC="$(KAM_SRC)" ./tests/versions/debroot.sh sid quick
check-k61-all:
	KAM_SRC="$(KAM_SRC)" ./tests/versions/debroot.sh sid all
check-k58-build:
	KAM_SRC="$(KAM_SRC)" ./tests/versions/headers.sh 5.8
# Kamailio 5.8 built from KAM_SRC with its own Makefile
# (scripts/build/kam-tree.sh), ovc loaded into it, and the quick tests against
# it (tests/versions/srctree.sh): about 2 minutes of build, not in check
check-k58:
	KAM_SRC="$(KAM_SRC)" ./tests/versions/srctree.sh 5.8 quick

demo:
	@./scripts/setup/deps.sh
	@$(MAKE) --no-print-directory all bench-tools
	./bench/campaigns/demo.sh

# make install [DESTDIR=/stage] [PREFIX=/usr]: the module into the
# directory the installed Kamailio loads modules from (kamailio -I: Debian's
# /usr/lib/x86_64-linux-gnu/kamailio/modules), so that loadmodule "ovc.so"
# finds it by name; PREFIX replaces that directory's prefix (then add the
# new directory to Kamailio's mpath). The module's README beside Kamailio's
# (share/doc/kamailio/modules/README.ovc), the example configurations in
# share/doc/kamailio/examples/ovc/.
K_MODPATH = $(shell $(KAMAILIO) -I 2>/dev/null | \
	sed -n 's/^ *Default paths to modules: *//p' | cut -d: -f1)
K_MODPATH_RE = ^(.*)/(lib[^/]*(/[^/]+)?)/kamailio/modules/?$$
K_MODPATH_PART = $(shell echo '$(K_MODPATH)' | \
	sed -nE 's@$(K_MODPATH_RE)@\$(1)@p')
PREFIX ?= $(or $(call K_MODPATH_PART,1),/usr/local)
LIBDIR ?= $(or $(call K_MODPATH_PART,2),lib64)
MODDIR ?= $(PREFIX)/$(LIBDIR)/kamailio/modules
DOCDIR ?= $(PREFIX)/share/doc/kamailio
EXAMPLES = configs/ovc-proxy.cfg configs/kamailio-ovc-cpuquota.conf \
	configs/kamailio-ovc-kstage.conf configs/ovc-prom.cfg \
	configs/grafana-ovc.json
INSTALLED = $(MODDIR)/ovc.so $(DOCDIR)/modules/README.ovc \
	$(DOCDIR)/modules/README.ovc-algorithms \
	$(EXAMPLES:configs/%=$(DOCDIR)/examples/ovc/%)

install: $(MOD)
	install -d $(DESTDIR)$(MODDIR) $(DESTDIR)$(DOCDIR)/modules \
		$(DESTDIR)$(DOCDIR)/examples/ovc
	install -m 0644 $(MOD) $(DESTDIR)$(MODDIR)/ovc.so
	install -m 0644 modules/ovc/README \
		$(DESTDIR)$(DOCDIR)/modules/README.ovc
	install -m 0644 docs/algorithms.md \
		$(DESTDIR)$(DOCDIR)/modules/README.ovc-algorithms
	install -m 0644 $(EXAMPLES) $(DESTDIR)$(DOCDIR)/examples/ovc/

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	rmdir $(DESTDIR)$(DOCDIR)/examples/ovc 2>/dev/null || true

# make deb: the Debian binary package kamailio-ovc-modules in build/deb/,
# for the installed kamailio package and strictly dependent on its version
OVC_VERSION = 0.1.0
deb:
	@./pkg/mkdeb.sh
print-version:
	@echo $(OVC_VERSION)

format:
	clang-format -i $(LIB_SRC) $(MOD_SRC) include/ovc/*.h modules/ovc/*.h

clean:
	rm -rf $(BUILD) $(MOD)

# the reference's modparams table, from the module's one list of them
$(BUILD)/modparams_doc: scripts/docs/modparams_doc.c $(LIB) \
		modules/ovc/ovc_modparams.h modules/ovc/ovc_modparams.def \
		modules/ovc/ovc_rxq.h | $(BUILD)/tests
	$(CC) $(LIB_CFLAGS) -Imodules/ovc -o $@ $< $(LIB) -lm
docs check-docs check-scripts: $(BUILD)/modparams_doc
# the reference's statistics table, from the module's one list of them
$(BUILD)/stats_doc: scripts/docs/stats_doc.c modules/ovc/ovc_stats.def \
		| $(BUILD)/tests
	$(CC) $(LIB_CFLAGS) -Imodules/ovc -o $@ $<
docs check-docs check-scripts: $(BUILD)/stats_doc
$(MOD_OBJ): modules/ovc/ovc_modparams.def

# Testbed/campaign tools and the simulator bring their own fragments.
-include bench/bench.mk
-include bench/sim/sim.mk
-include tests/fuzz/fuzz.mk

# what the SIP scanner reads, for the differential test against Kamailio
$(BUILD)/scan_fields: tests/tools/scan_fields.c $(LIB) | $(BUILD)/tests
	$(CC) $(LIB_CFLAGS) -o $@ $< $(LIB) -lm
check-integration: $(BUILD)/scan_fields

# a sender that tells what the proxy did with each request it sends, for
# the integration tests that probe ovc as an attacker would
$(BUILD)/sip_probe: tests/tools/sip_probe.c | $(BUILD)/tests
	$(CC) $(LIB_CFLAGS) -o $@ $<
check-integration: $(BUILD)/sip_probe

# ovc as src/modules/ovc of a Kamailio source tree (default: the newest
# 6.1 source package of Debian's archive; KTREE_SRC= a tree or tarball),
# built with Kamailio's own Makefile and CMake, then loaded by that tree's
# kamailio -c (scripts/build/kam-tree.sh). Minutes (the first run builds the
# tree's core twice), so not part of check.
check-tree:
	./scripts/build/kam-tree.sh both

# every Kamailio configuration example in the docs passes kamailio -c
check-cfg-examples: $(MOD)
	./scripts/docs/check-cfg-examples.sh
