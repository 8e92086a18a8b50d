#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Every Kamailio configuration example in the docs passes `kamailio -c`
# against the installed Kamailio and the module as built:
#   scripts/docs/check-cfg-examples.sh [FILE.md|FILE.xml ...]
# (default: README.md, the module's DocBook reference
# modules/ovc/doc/ovc_admin.xml, docs/*.md). A block (in Markdown a fenced
# block, in DocBook a <programlisting>, whose text is a CDATA section) is
# a configuration example when it holds a loadmodule, a modparam or a
# route block; a block may hold several, each after a "# --- name ---"
# line. A complete one (#!KAMAILIO, or loadmodule and request_route and
# nothing elided) is checked
# as it stands; a fragment is checked inside a small proxy that loads the
# modules the docs' examples use, after its "..." lines (elisions) are
# dropped and, when it has no request_route, with one that calls
# ovc_admit(). A block fenced as ```cfg-6.0 (DocBook: a programlisting
# with role="cfg-6.0") needs Kamailio 6.0 or later
# (e.g. dispatcher's ds_oc_set_attrs()): it is checked against such a
# Kamailio and counted as skipped against an older one (make check-k60
# checks them in its Debian 13 root). Prints each failing block with
# Kamailio's error and the closing count; exits 1 when any fails.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
kam=${KAMAILIO:-kamailio}
mod_dir="$top/modules/ovc"
[ -f "$mod_dir/ovc.so" ] || { echo "check-cfg-examples: build the module first" >&2; exit 1; }
kmods=$("$kam" -I 2>/dev/null | sed -n 's/^ *Default paths to modules: *//p' | cut -d: -f1)
[ -n "$kmods" ] || { echo "check-cfg-examples: no Kamailio module path from $kam -I" >&2; exit 1; }
mpath="$kmods:$mod_dir"
# the Kamailio's major version: blocks marked cfg-6.0 need 6 or later
kmajor=$("$kam" -V 2>/dev/null | sed -n 's/^version: kamailio \([0-9]*\)\..*/\1/p')
if [ $# -eq 0 ]; then
	set -- "$top/README.md" "$top/modules/ovc/doc/ovc_admin.xml" "$top"/docs/*.md
fi
work=$(mktemp -d /tmp/ovc-cfg-examples.XXXXXX)
trap 'rm -rf "$work"' EXIT

# the modules a fragment may use without loading them itself
header() {
	cat <<'EOF'
#!KAMAILIO
listen=udp:127.0.0.1:5060
loadmodule "tm.so"
loadmodule "tmx.so"
loadmodule "sl.so"
loadmodule "rr.so"
loadmodule "pv.so"
loadmodule "maxfwd.so"
loadmodule "siputils.so"
loadmodule "textops.so"
loadmodule "xlog.so"
loadmodule "ctl.so"
loadmodule "kex.so"
loadmodule "ovc.so"
EOF
}

# an elided part of an example: "..." alone on its line, or before a
# comment
elision='^[[:space:]]*\.\.\.[[:space:]]*(#.*)?$'
n=0
bad=0
skipped=0
for md in "$@"; do
	rel=${md#"$top"/}
	# each fenced block without a language or marked cfg/kamailio/cfg-6.0
	# (DocBook: each programlisting without a role or with role cfg-6.0),
	# as block-N files with its first line number (a "v6" in the name of
	# those marked cfg-6.0)
	rm -f "$work"/block-*
	awk -v dir="$work" -v xml="$([ "${md%.xml}" != "$md" ] && echo 1)" '
		xml && !inb && /<programlisting[ >]/ {
			role = ""
			if(match($0, /role="[^"]*"/))
				role = substr($0, RSTART + 6, RLENGTH - 7)
			if(role != "" && role != "cfg-6.0")
				next
			v6 = role == "cfg-6.0" ? "v6" : ""
			inb = 1; k++; started = 0
			f = sprintf("%s/block-%04d%s-%d", dir, k, v6, NR + 1)
			printf "" >f
			next
		}
		xml && inb && /\]\]><\/programlisting>/ {
			line = $0; sub(/\]\]><\/programlisting>.*/, "", line)
			if(line != "") print line >>f
			close(f); inb = 0; started = 0; next
		}
		xml && inb && /^<!\[CDATA\[$/ { next }
		xml && !inb { next }
		!xml && /^```/ {
			if(infence) {
				if(inb) close(f)
				infence = 0; inb = 0; next
			}
			infence = 1
			lang = substr($0, 4); gsub(/[ \t]/, "", lang)
			if(lang == "" || lang == "cfg" || lang == "kamailio" ||
				lang == "cfg-6.0") {
				v6 = lang == "cfg-6.0" ? "v6" : ""
				inb = 1; k++
				f = sprintf("%s/block-%04d%s-%d", dir, k, v6, NR + 1)
				printf "" >f
			}
			next
		}
		# "# --- name ---" starts another configuration in the same block
		inb && /^# --- / && started {
			close(f); k++; f = sprintf("%s/block-%04d%s-%d", dir, k, v6, NR)
			printf "" >f
		}
		inb { print >>f; started = 1 }
		!inb { started = 0 }' "$md"
	for b in "$work"/block-*; do
		[ -f "$b" ] || continue
		grep -qE '^[[:space:]]*(loadmodule|modparam\(|(request_|reply_|onreply_|failure_|branch_|event_)?route(\[| *\{))' "$b" ||
			continue
		line=${b##*-}
		case "$b" in
		*v6-*)
			if [ "${kmajor:-0}" -lt 6 ]; then
				skipped=$((skipped + 1))
				[ -z "${VERBOSE:-}" ] || echo "skip $rel:$line (cfg-6.0)"
				continue
			fi
			;;
		esac
		cfg="$work/check.cfg"
		if grep -q '^#!KAMAILIO' "$b" || { grep -q '^[[:space:]]*loadmodule' "$b" &&
			grep -q 'request_route' "$b" && ! grep -qE "$elision" "$b"; }; then
			cp "$b" "$cfg"
		else
			{
				header
				# a fragment's own loadmodules of the header's modules go
				grep -v -E "$elision" "$b" |
					grep -v -E '^[[:space:]]*loadmodule "(tm|tmx|sl|rr|pv|maxfwd|siputils|textops|xlog|ctl|kex|ovc)\.so"'
				grep -q 'request_route' "$b" ||
					printf 'request_route {\n\tovc_admit();\n}\n'
			} >"$cfg"
		fi
		n=$((n + 1))
		[ -z "${VERBOSE:-}" ] || echo "check $rel:$line"
		if ! out=$("$kam" -c -f "$cfg" -L "$mpath" 2>&1); then
			bad=$((bad + 1))
			echo "FAIL $rel:$line: kamailio -c refuses this example:"
			echo "$out" | grep -E 'ERROR|CRITICAL' | sed 's/^/    /' | head -5
		fi
	done
done
echo "check-cfg-examples: $n examples, $bad refused" \
	"$([ "$skipped" -eq 0 ] || echo "($skipped marked cfg-6.0 skipped: Kamailio ${kmajor:-?} here)")"
[ "$bad" -eq 0 ]
