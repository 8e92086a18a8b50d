#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# with-load-lock.sh CMD [ARGS...]: runs CMD holding the machine-wide load
# lock (scripts/load/load-lock.sh), e.g. a testbed up/run/down sequence.
set -euo pipefail
. "$(dirname "$0")/load-lock.sh"
exec "$@"
