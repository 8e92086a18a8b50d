# SPDX-License-Identifier: GPL-2.0-or-later
# bench/bench.mk - the bench's entry points, tools and tests; included by
# the Makefile.
#
#   make bench            every campaign that feeds bench/RESULTS.md
#                         (bench/ovc-bench all; about 5.5 hours)
#   make bench-CAMPAIGN   one campaign or tool: bench/ovc-bench CAMPAIGN
#                         $(ARGS) (make bench-rsoca ARGS=flash; the list:
#                         bench/ovc-bench --help)
#   make bench-tools      build/bench/{ovc-caps,ovc-merge,ovc-bound,ovc-jget}
#   make check-bench      unit tests (merge, bound), the script tests
#                         (bench/tests/test_*.sh) + the short smoke campaign

BENCH_BUILD = $(BUILD)/bench
BENCH_PKG_CFLAGS := $(shell pkg-config --cflags check jansson libcap 2>/dev/null)
BENCH_PKG_LIBS := $(shell pkg-config --libs check jansson libcap 2>/dev/null)
BENCH_CFLAGS = -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter \
	-Wshadow -Wstrict-prototypes -Ibench/tools $(BENCH_PKG_CFLAGS)
BENCH_LIB_SRC = bench/tools/merge.c bench/tools/bound.c
BENCH_LIB_HDR = bench/tools/merge.h bench/tools/bound.h
BENCH_TOOLS = $(BENCH_BUILD)/ovc-caps $(BENCH_BUILD)/ovc-merge \
	$(BENCH_BUILD)/ovc-bound $(BENCH_BUILD)/ovc-jget
BENCH_TESTS = $(BENCH_BUILD)/bench_tests

.PHONY: bench bench-tools check-bench check-bench-unit check-bench-smoke

# the campaigns need the module, the tools and the simulator built
bench: all bench-tools sim
	./bench/ovc-bench all

# any other bench-NAME (explicit targets below win over this rule)
bench-%: all bench-tools sim
	./bench/ovc-bench $* $(ARGS)

bench-tools: $(BENCH_TOOLS)

$(BENCH_BUILD):
	mkdir -p $@

$(BENCH_BUILD)/ovc-caps: bench/tools/caps.c | $(BENCH_BUILD)
	$(CC) $(BENCH_CFLAGS) -o $@ $< $(BENCH_PKG_LIBS)

$(BENCH_BUILD)/ovc-merge: bench/tools/merge_main.c $(BENCH_LIB_SRC) \
		$(BENCH_LIB_HDR) | $(BENCH_BUILD)
	$(CC) $(BENCH_CFLAGS) -o $@ bench/tools/merge_main.c $(BENCH_LIB_SRC) \
		$(BENCH_PKG_LIBS) -lm

$(BENCH_BUILD)/ovc-bound: bench/tools/bound_main.c bench/tools/bound.c \
		bench/tools/bound.h | $(BENCH_BUILD)
	$(CC) $(BENCH_CFLAGS) -o $@ bench/tools/bound_main.c bench/tools/bound.c -lm

$(BENCH_BUILD)/ovc-jget: bench/tools/jget.c | $(BENCH_BUILD)
	$(CC) $(BENCH_CFLAGS) -o $@ $< $(BENCH_PKG_LIBS)

$(BENCH_TESTS): bench/tests/test_bench.c $(BENCH_LIB_SRC) $(BENCH_LIB_HDR) \
		| $(BENCH_BUILD)
	$(CC) $(BENCH_CFLAGS) -o $@ bench/tests/test_bench.c $(BENCH_LIB_SRC) \
		$(BENCH_PKG_LIBS) -lm

check-bench: check-bench-unit check-bench-smoke

# the C unit tests, then the shell scripts on fabricated runs (no root, no
# load: the sweep's table and plot, the kernel stage's split, the ES table)
BENCH_SCRIPT_TESTS = $(wildcard bench/tests/test_*.sh)
check-bench-unit: $(BENCH_TESTS) bench-tools
	$(BENCH_TESTS)
	@set -e; for t in $(BENCH_SCRIPT_TESTS); do echo "./$$t"; ./$$t; done

check-bench-smoke: bench-tools
	./bench/tests/smoke.sh

# What ovc's fast path costs per call below capacity (bench/RESULTS.md,
# "What loading ovc costs"): scan + admission sequence + timestamp ioctl.
$(BENCH_BUILD)/admission_bench: bench/microbench/admission_bench.c \
		bench/microbench/uac_sdp.h $(LIB) \
		| $(BENCH_BUILD)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -Iinclude \
		-o $@ $< $(LIB) -lm

# What the raw SIP scanner and the 503 built from the raw request cost,
# for bench/microbench/scan-cost.sh (make bench-scan, tests/fuzz/fuzz.mk,
# runs the same source built there)
# (docs/algorithms.md, "Stateless rejection"): ns per message.
$(BENCH_BUILD)/scan_bench: bench/microbench/scan_bench.c \
		bench/microbench/uac_sdp.h $(LIB) | $(BENCH_BUILD)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -Iinclude \
		-o $@ $< $(LIB) -lm


.PHONY: bench-admission
bench-admission: $(BENCH_BUILD)/admission_bench
	$(BENCH_BUILD)/admission_bench

# What the kernel stage's filter costs per datagram (bench/RESULTS.md,
# "Late calls"; docs/algorithms.md, "The kernel stage").
$(BENCH_BUILD)/kstage_bench: bench/microbench/kstage_bench.c \
		bench/microbench/uac_sdp.h $(KSTAGE_OBJ) | $(BENCH_BUILD)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -Iinclude \
		-Ikstage -o $@ $< $(KSTAGE_OBJ)

.PHONY: bench-kstage
bench-kstage: $(BENCH_BUILD)/kstage_bench
	$(BENCH_BUILD)/kstage_bench

# What smart forwarding's send-queue read costs (bench/RESULTS.md, "SIP
# over TCP"): one sock_diag lookup by four-tuple, against SIOCOUTQ.
$(BENCH_BUILD)/sendq_bench: bench/microbench/sendq_bench.c \
		modules/ovc/ovc_tcpdiag.c modules/ovc/ovc_tcpdiag.h | $(BENCH_BUILD)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter \
		-Imodules/ovc -o $@ $< modules/ovc/ovc_tcpdiag.c

.PHONY: bench-sendq
bench-sendq: $(BENCH_BUILD)/sendq_bench
	$(BENCH_BUILD)/sendq_bench
