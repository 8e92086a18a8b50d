# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced, never run: serialises load runs (integration tests, testbed
# campaigns) of every checkout on this machine. Two at once would share
# the 2 cores (and the testbed's names and /run state) and measure each
# other. Nested scripts inherit OVC_LOAD_LOCKED and do not lock again.
if [ -z "${OVC_LOAD_LOCKED:-}" ] && command -v flock >/dev/null; then
	exec 9>>/tmp/ovc-load.lock
	if ! flock -w 3600 9; then
		echo "another ovc load run held /tmp/ovc-load.lock for 1 h" >&2
		exit 1
	fi
	export OVC_LOAD_LOCKED=1
fi
