# SPDX-License-Identifier: GPL-2.0-or-later
# kstage/bpf.mk - the kernel stage's socket filter, compiled with
# clang -target bpf and turned by kstage/bpf_embed.c into a header of
# instructions the module loads through bpf() (no libbpf). Included by
# the Makefile. When clang cannot build BPF, the header says why instead
# and the module is built without the stage (it logs that reason and
# behaves as before).

BPF_CLANG ?= clang
BPF_MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
BPF_CFLAGS = -target bpf -O2 -g -Wall -Iinclude \
	$(if $(BPF_MULTIARCH),-I/usr/include/$(BPF_MULTIARCH))
BPF_SRC = kstage/ovc_kstage.bpf.c
BPF_DEPS = $(BPF_SRC) include/ovc/kstage_abi.h include/ovc/kstage_scan.h \
	include/ovc/kstage_seen.h include/ovc/fairsk.h
BPF_OBJ = $(BUILD)/mod/ovc_kstage.bpf.o
BPF_PROG_H = $(BUILD)/mod/ovc_kstage_prog.h
BPF_EMBED = $(BUILD)/bpf_embed
BPF_MAPS = ovc_ks_share ovc_ks_stats ovc_ks_work ovc_ks_admitted ovc_ks_seen \
	ovc_ks_fair
KSTAGE_OBJ = $(BUILD)/mod/ovc_kstage_bpf.o

$(BPF_EMBED): kstage/bpf_embed.c | $(BUILD)/mod
	$(CC) -std=gnu11 -O2 $(WARN) -o $@ $<

# the program, or the reason the module goes without it
$(BPF_PROG_H): $(BPF_DEPS) $(BPF_EMBED) | $(BUILD)/mod
	@rm -f $@.tmp $(BPF_OBJ)
	@if $(BPF_CLANG) $(BPF_CFLAGS) -c $(BPF_SRC) -o $(BPF_OBJ) \
			2>$(BUILD)/mod/ovc_kstage.bpf.err \
		&& $(BPF_EMBED) $(BPF_OBJ) socket $@.tmp ovc_ks $(BPF_MAPS); then \
		echo "  BPF  $(BPF_SRC) -> $@"; \
	else \
		why=$$(head -c 160 $(BUILD)/mod/ovc_kstage.bpf.err | head -n1 \
			| tr -d '"\\'); \
		echo "ovc: building WITHOUT the kernel stage: $(BPF_CLANG) -target bpf failed: $$why" >&2; \
		printf '#define OVC_KS_NO_PROG "built without the kernel stage (%s)"\n' \
			"$(BPF_CLANG) -target bpf failed: $$why" >$@.tmp; \
	fi
	@mv $@.tmp $@

$(KSTAGE_OBJ): kstage/ovc_kstage_bpf.c kstage/ovc_kstage_bpf.h \
		$(BPF_PROG_H) include/ovc/kstage_abi.h include/ovc/kstage_scan.h \
		| $(BUILD)/mod
	$(CC) -std=gnu11 -O2 -g -fPIC $(WARN) -Iinclude -I$(BUILD)/mod \
		$(EXTRA_CFLAGS) -c $< -o $@
