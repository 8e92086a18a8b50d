#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/runners/tcp-sf-pair.sh: SIP over TCP between two Kamailio instances on
# loopback, the integration test tests/integration/t_tcp_sf.sh (SE with
# smart forwarding -TCP-> RE with a minimised buffer), for a closer look:
# RE_RCVBUF, RE_MSS, SLOW_US, RATE, SECS as in its header; T_KEEP=1 keeps
# the run directory (the connection every 0.2 s, both proxies' ovc.csv).
. "$(dirname "$0")/../tools/args.sh"
bench_help_if "$0" "$@"
bench_nargs 0 0 "$@"
bench_args_checked
exec "$(dirname "$0")/../../tests/integration/t_tcp_sf.sh"
