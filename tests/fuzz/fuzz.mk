# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuzz/fuzz.mk - fuzzing of the raw SIP scanner and of RFC 7339's Via
# parameters, microbenchmark of the scanner; included by the Makefile.
#
#   make fuzz-sipscan   libFuzzer + ASan/UBSan, FUZZ_TIME seconds (60) over
#                       a corpus seeded from RFC 4475 and tests/fuzz/seeds
#   make fuzz-oc7339    the same for src/oc7339.c, seeded from RFC 7339's
#                       examples (tests/fuzz/seeds-oc7339), tests/fuzz/seeds
#                       and RFC 4475
#   make check-fuzz     part of make check: for each target every seed once
#                       (regression), then FUZZ_CHECK_TIME seconds (20) of
#                       exploration of the scanner and FUZZ_OC_CHECK_TIME
#                       (10) of oc7339
#   make bench-scan     ns per scan and per scan + reply (-O2, no sanitizer)

FUZZ_BUILD = $(BUILD)/fuzz
FUZZ_CC ?= clang
FUZZ_TIME ?= 60
FUZZ_MAX_LEN ?= 20000
RFC4475_DIR ?= tests/data/rfc4475
FUZZ_CFLAGS = -std=gnu11 -g -O1 -Iinclude -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
SCAN_SRC = src/sipscan.c src/sipreply.c
SCAN_HDR = include/ovc/sipscan.h include/ovc/types.h

.PHONY: fuzz-sipscan fuzz-sipscan-seeds fuzz-oc7339 fuzz-oc7339-seeds \
	check-fuzz check-fuzz-sipscan check-fuzz-oc7339 bench-scan
FUZZ_CHECK_TIME ?= 20
FUZZ_OC_CHECK_TIME ?= 10
OC_SRC = src/oc7339.c src/octoken.c
OC_HDR = include/ovc/oc7339.h include/ovc/octoken.h include/ovc/types.h $(wildcard src/*.h)
OC_LOG = $(FUZZ_BUILD)/check-fuzz-oc7339.log
FUZZ_NO_CC = { echo "$(FUZZ_CC) missing: apt-get install -y clang" >&2; \
	exit 1; }

$(FUZZ_BUILD) $(FUZZ_BUILD)/seeds-sipscan $(FUZZ_BUILD)/corpus-sipscan \
		$(FUZZ_BUILD)/seeds-oc7339 $(FUZZ_BUILD)/corpus-oc7339:
	mkdir -p $@

$(FUZZ_BUILD)/fuzz_sipscan: tests/fuzz/fuzz_sipscan.c $(SCAN_SRC) \
		$(SCAN_HDR) | $(FUZZ_BUILD)
	@command -v $(FUZZ_CC) >/dev/null || \
		{ echo "$(FUZZ_CC) missing: apt-get install -y clang" >&2; exit 1; }
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ tests/fuzz/fuzz_sipscan.c $(SCAN_SRC)

# seeds: every RFC 4475 file as stored and with lone LF turned into CRLF,
# plus the hand-written requests of tests/fuzz/seeds
fuzz-sipscan-seeds: | $(FUZZ_BUILD)/seeds-sipscan
	cp tests/fuzz/seeds/*.sip $(FUZZ_BUILD)/seeds-sipscan/
	@if [ -d $(RFC4475_DIR) ]; then \
		for f in $(RFC4475_DIR)/*.dat; do \
			b=$$(basename $$f .dat); \
			cp $$f $(FUZZ_BUILD)/seeds-sipscan/$$b.lf; \
			perl -pe 's/(?<!\r)\n/\r\n/g' $$f \
				> $(FUZZ_BUILD)/seeds-sipscan/$$b.crlf; \
		done; \
	else echo "NOTICE: $(RFC4475_DIR) absent, RFC 4475 seeds skipped"; fi

fuzz-sipscan: $(FUZZ_BUILD)/fuzz_sipscan fuzz-sipscan-seeds \
		| $(FUZZ_BUILD)/corpus-sipscan
	$(FUZZ_BUILD)/fuzz_sipscan -max_total_time=$(FUZZ_TIME) \
		-max_len=$(FUZZ_MAX_LEN) -dict=tests/fuzz/sip.dict \
		-artifact_prefix=$(FUZZ_BUILD)/ -print_final_stats=1 \
		$(FUZZ_BUILD)/corpus-sipscan $(FUZZ_BUILD)/seeds-sipscan

check-fuzz: check-fuzz-sipscan check-fuzz-oc7339

check-fuzz-sipscan: $(FUZZ_BUILD)/fuzz_sipscan fuzz-sipscan-seeds \
		| $(FUZZ_BUILD)/corpus-sipscan
	@$(FUZZ_BUILD)/fuzz_sipscan -runs=0 -max_len=$(FUZZ_MAX_LEN) \
		$(FUZZ_BUILD)/seeds-sipscan >$(FUZZ_BUILD)/check-fuzz.log 2>&1 || \
		{ tail -40 $(FUZZ_BUILD)/check-fuzz.log; exit 1; }
	@$(FUZZ_BUILD)/fuzz_sipscan -max_total_time=$(FUZZ_CHECK_TIME) \
		-max_len=$(FUZZ_MAX_LEN) -dict=tests/fuzz/sip.dict \
		-artifact_prefix=$(FUZZ_BUILD)/ -print_final_stats=1 \
		$(FUZZ_BUILD)/corpus-sipscan $(FUZZ_BUILD)/seeds-sipscan \
		>>$(FUZZ_BUILD)/check-fuzz.log 2>&1 || \
		{ tail -40 $(FUZZ_BUILD)/check-fuzz.log; exit 1; }
	@grep -E "^stat::number_of_executed_units|Done [0-9]+ runs" \
		$(FUZZ_BUILD)/check-fuzz.log | tail -2
	@echo "check-fuzz: no crash and no failed check over the seeds and $(FUZZ_CHECK_TIME) s of exploration"

# RFC 7339's Via parameters (tests/fuzz/fuzz_oc7339.c): the same two steps
$(FUZZ_BUILD)/fuzz_oc7339: tests/fuzz/fuzz_oc7339.c $(OC_SRC) $(OC_HDR) \
		| $(FUZZ_BUILD)
	@command -v $(FUZZ_CC) >/dev/null || $(FUZZ_NO_CC)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ tests/fuzz/fuzz_oc7339.c $(OC_SRC)

# seeds: RFC 7339's examples, the scanner's hand-written requests and
# every RFC 4475 file as stored (the top Via of any message is read)
fuzz-oc7339-seeds: | $(FUZZ_BUILD)/seeds-oc7339
	cp tests/fuzz/seeds-oc7339/*.sip tests/fuzz/seeds/*.sip \
		$(FUZZ_BUILD)/seeds-oc7339/
	@if [ -d $(RFC4475_DIR) ]; then \
		cp $(RFC4475_DIR)/*.dat $(FUZZ_BUILD)/seeds-oc7339/; \
	else echo "NOTICE: $(RFC4475_DIR) absent, RFC 4475 seeds skipped"; fi

fuzz-oc7339: $(FUZZ_BUILD)/fuzz_oc7339 fuzz-oc7339-seeds \
		| $(FUZZ_BUILD)/corpus-oc7339
	$(FUZZ_BUILD)/fuzz_oc7339 -max_total_time=$(FUZZ_TIME) \
		-max_len=$(FUZZ_MAX_LEN) -dict=tests/fuzz/oc7339.dict \
		-artifact_prefix=$(FUZZ_BUILD)/oc7339- -print_final_stats=1 \
		$(FUZZ_BUILD)/corpus-oc7339 $(FUZZ_BUILD)/seeds-oc7339

check-fuzz-oc7339: $(FUZZ_BUILD)/fuzz_oc7339 fuzz-oc7339-seeds \
		| $(FUZZ_BUILD)/corpus-oc7339
	@$(FUZZ_BUILD)/fuzz_oc7339 -runs=0 -max_len=$(FUZZ_MAX_LEN) \
		$(FUZZ_BUILD)/seeds-oc7339 >$(OC_LOG) 2>&1 || \
		{ tail -40 $(OC_LOG); exit 1; }
	@$(FUZZ_BUILD)/fuzz_oc7339 -max_total_time=$(FUZZ_OC_CHECK_TIME) \
		-max_len=$(FUZZ_MAX_LEN) -dict=tests/fuzz/oc7339.dict \
		-artifact_prefix=$(FUZZ_BUILD)/oc7339- -print_final_stats=1 \
		$(FUZZ_BUILD)/corpus-oc7339 $(FUZZ_BUILD)/seeds-oc7339 \
		>>$(OC_LOG) 2>&1 || { tail -40 $(OC_LOG); exit 1; }
	@grep -E "^stat::number_of_executed_units|Done [0-9]+ runs" \
		$(OC_LOG) | tail -2
	@echo "check-fuzz: oc7339: no crash and no failed check over the" \
		"seeds and $(FUZZ_OC_CHECK_TIME) s of exploration"

$(FUZZ_BUILD)/scan_bench: bench/microbench/scan_bench.c bench/microbench/uac_sdp.h $(SCAN_SRC) \
		$(SCAN_HDR) | $(FUZZ_BUILD)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Iinclude -o $@ \
		bench/microbench/scan_bench.c $(SCAN_SRC)

bench-scan: $(FUZZ_BUILD)/scan_bench
	$(FUZZ_BUILD)/scan_bench
