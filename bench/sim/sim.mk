# SPDX-License-Identifier: GPL-2.0-or-later
# ovc-sim: discrete-event SIP server simulator and Extremum Seeking tuner
# driving libovc (bench/sim/README.md). Included by the top Makefile.

SIM_DIR = bench/sim
SIM_BUILD = $(BUILD)/sim
SIM_CFLAGS = -std=gnu11 -O2 -Wall -Wextra -Iinclude
SIM_LIBS = -lm
SIM_CORE_SRC = $(filter-out $(SIM_DIR)/main.c $(SIM_DIR)/tune_main.c, \
	$(wildcard $(SIM_DIR)/*.c))
SIM_CORE_OBJ = $(SIM_CORE_SRC:$(SIM_DIR)/%.c=$(SIM_BUILD)/%.o)
SIM_HDR = $(wildcard $(SIM_DIR)/*.h) $(wildcard include/ovc/*.h)
SIM_BIN = $(SIM_BUILD)/ovc-sim
SIM_TUNE = $(SIM_BUILD)/ovc-es-tune
SIM_TEST_SRC = $(wildcard bench/tests/sim/*.c)
SIM_TEST = $(SIM_BUILD)/check_sim
SIM_CHECK_LIBS = $(shell pkg-config --libs check 2>/dev/null || \
	echo -lcheck -lsubunit -lm -lrt -lpthread)

.PHONY: sim check-sim

sim: $(SIM_BIN) $(SIM_TUNE)

$(SIM_BUILD):
	mkdir -p $@

$(SIM_BUILD)/%.o: $(SIM_DIR)/%.c $(SIM_HDR) | $(SIM_BUILD)
	$(CC) $(SIM_CFLAGS) -c $< -o $@

$(SIM_BIN): $(SIM_BUILD)/main.o $(SIM_CORE_OBJ) $(LIB)
	$(CC) $(SIM_CFLAGS) -o $@ $^ $(SIM_LIBS)

$(SIM_TUNE): $(SIM_BUILD)/tune_main.o $(SIM_CORE_OBJ) $(LIB)
	$(CC) $(SIM_CFLAGS) -o $@ $^ $(SIM_LIBS)

$(SIM_TEST): $(SIM_TEST_SRC) $(SIM_CORE_OBJ) $(LIB) $(SIM_HDR)
	$(CC) $(SIM_CFLAGS) -I$(SIM_DIR) -o $@ $(SIM_TEST_SRC) \
		$(SIM_CORE_OBJ) $(LIB) $(SIM_CHECK_LIBS) -lm

check-sim: $(SIM_TEST)
	bench/tests/sim/layers.sh
	$(SIM_TEST)
