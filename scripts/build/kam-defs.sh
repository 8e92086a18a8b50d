#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# kam-defs.sh KSRC [KAMAILIO]: prints, on one line, the preprocessor
# defines a module must be compiled with to load into the installed
# Kamailio server KAMAILIO (default: kamailio from PATH), from its source
# tree KSRC (the src/ folder: Makefile.defs and core/ver_defs.h).
#
# Kamailio refuses (and exits) a module whose embedded version string
# (NAME VERSION (ARCH/OS)) or compile-flags string (built from #ifdefs in
# core/ver_defs.h) differ from the server's. So:
#  1. the defines Kamailio's build uses: C_DEFS and CC_PMUTEX_OPTS of
#     KSRC/config.mak when the tree was configured (make cfg: exactly that
#     server's build), else of KSRC/Makefile.defs evaluated for the
#     installed server's directories (Debian's setting for its package);
#  2. made to agree with the server itself: each define whose flag
#     core/ver_defs.h prints is set or cleared as the flags the server
#     checks modules against show it (scripts/build/kam-flags.sh: its own
#     modules', else kamailio -V's flags line), and NAME, VERSION, ARCH,
#     OS, VERSIONVAL, COMPILER and ADAPTIVE_WAIT_LOOPS are taken from the
#     server (kamailio -V).
# Fails when the tree's version is not the server's, unless the tree is of
# the same X.Y series and marked so (a file .series beside src/, written
# by scripts/setup/deps.sh when it took the headers from KAM_SRC). The built
# module is still checked against the server by scripts/build/check-abi.sh.
set -euo pipefail
ksrc=${1:?usage: kam-defs.sh KSRC [KAMAILIO | --tree]}
kam=${2:-kamailio}
die() { echo "kam-defs: ERROR: $*" >&2; exit 1; }
ksrc=$(cd "$ksrc" 2>/dev/null && pwd) || die "no folder $1"

[ -f "$ksrc/Makefile.defs" ] && [ -f "$ksrc/core/ver_defs.h" ] ||
	die "$ksrc is not a Kamailio src/ tree (Makefile.defs, core/ver_defs.h)"
# --tree: no server (a compile-only check against a tree of a release
# not installed here): the tree's own defines, for a default install
if [ "$kam" = --tree ]; then
	name=kamailio prefix=/usr/local libdir=lib64
	cfgdir=/usr/local/etc/kamailio/
else
	kv=$("$kam" -V 2>/dev/null) || die "$kam -V failed (kamailio installed?)"
	ki=$("$kam" -I 2>/dev/null) || die "$kam -I failed"

	# the server: "version: kamailio 5.6.3 (x86_64/linux)", its flags line,
	# its compiler and its adaptive-wait loops
	vline=$(sed -n 's/^version: *\(.*[^ ]\) *$/\1/p' <<<"$kv")
	# the flags the server compares a module's with (scripts/build/kam-flags.sh:
	# those of its own modules, which kamailio -V does not always print)
	flags=$("$(dirname "$0")/kam-flags.sh" -v "$kam")
	re='^([^ ]+) ([^ ]+) \(([^/]+)/([^)]+)\)$'
	[[ $vline =~ $re ]] || die "unexpected version line from $kam -V: '$vline'"
	name=${BASH_REMATCH[1]} ver=${BASH_REMATCH[2]}
	arch=${BASH_REMATCH[3]} os=${BASH_REMATCH[4]}
	compiler=$(sed -n 's/^compiled with *//p' <<<"$kv" | sed 's/ *$//')
	loops=$(grep -oE 'ADAPTIVE_WAIT_LOOPS[ =]*[0-9]+' <<<"$kv" |
		grep -oE '[0-9]+$' || true)
	[[ $ver =~ ^([0-9]+)\.([0-9]+)\.([0-9]+) ]] || die "version '$ver'"
	verval=$(printf '%d%03d%03d' "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" \
		"${BASH_REMATCH[3]}")
	modpath=$(sed -n 's/^ *Default paths to modules: *//p' <<<"$ki" | cut -d: -f1)
	cfgfile=$(sed -n 's/^ *Default config: *//p' <<<"$ki")
	libre='^(.*)/(lib[^/]*(/[^/]+)?)/[^/]+/modules/?$'
	prefix=/usr/local libdir=lib64
	if [[ $modpath =~ $libre ]]; then
		prefix=${BASH_REMATCH[1]} libdir=${BASH_REMATCH[2]}
	fi
	cfgdir=$(dirname "${cfgfile:-/usr/local/etc/kamailio/kamailio.cfg}")/
fi

# 1. Kamailio's own defines for this tree
mk=$(mktemp)
trap 'rm -f "$mk"' EXIT
if [ -f "$ksrc/config.mak" ]; then
	printf 'include %s/config.mak\n' "$ksrc" >"$mk"
	args=()
else
	printf 'include %s/Makefile.defs\n' "$ksrc" >"$mk"
	args=(main_makefile=1 FLAVOUR="$name" prefix="$prefix"
		cfg_target="$cfgdir" LIBDIR="$libdir")
fi
cat >>"$mk" <<'EOF'
print-defs:
	@:$(info K_DEFS $(C_DEFS) $(filter -D%,$(CC_PMUTEX_OPTS)))
EOF
# in a clean environment: a caller's make variables (DESTDIR, PREFIX,
# MAKEFLAGS of make install) would reach Makefile.defs
out=$(cd "$ksrc" && env -i PATH="$PATH" make -s --no-print-directory \
	-f "$mk" "${args[@]}" print-defs 2>/dev/null) ||
	die "evaluating $ksrc's Makefile.defs failed"
defs=$(sed -n 's/^K_DEFS //p' <<<"$out")
[ -n "$defs" ] || die "no C_DEFS from $ksrc"
if [ "$kam" = --tree ]; then
	echo "$defs -DMOD_NAME='\"ovc\"'"
	exit 0
fi

# the defines as the shell reads them (the make output is shell words:
# -DCOMPILER='"gcc 12.2.0"' is one), name -> value ("" for a bare -DX)
eval "words=($defs)"
declare -A val=()
order=()
for w in "${words[@]}"; do
	[[ $w == -D* ]] || continue
	k=${w#-D}
	k=${k%%=*}
	[ -n "${val[$k]+x}" ] || order+=("$k")
	if [[ $w == *=* ]]; then val[$k]="=${w#*=}"; else val[$k]=""; fi
done
tver=${val[VERSION]:-}
tver=${tver#=\"}
tver=${tver%\"}
# a tree of another release of the server's X.Y series only when the
# headers' maker said so (scripts/setup/deps.sh, KAM_SRC: the package's own
# source not to be had), in a file .series beside src/
if [ "$tver" != "$ver" ]; then
	[ "${tver%.*}" = "${ver%.*}" ] && [ -f "$ksrc/../.series" ] ||
		die "the source tree $ksrc is Kamailio $tver, the server $kam is $ver"
	echo "kam-defs: headers of Kamailio $tver for the server's $ver" \
		"($(head -n1 "$ksrc/../.series"))" >&2
fi
declare -A seen=()
for k in "${order[@]}"; do seen[$k]=1; done
setd() { [ -n "${seen[$1]+x}" ] || order+=("$1"); seen[$1]=1; val[$1]=${2:-}; }
unsetd() { unset "val[$1]"; }

# 2. the flags core/ver_defs.h prints (the X_STR macros that
# SER_COMPILE_FLAGS strings together), as the server has them
tokens=" $(sed 's/, */ /g' <<<"$flags") "
while read -r def tok; do
	if [[ $tokens == *" $tok "* ]]; then setd "$def"; else unsetd "$def"; fi
done < <(awk '
	/^#define SER_COMPILE_FLAGS/ { inflags = 1 }
	inflags {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[A-Z0-9_]+_STR$/) used[$i] = 1
		if ($0 !~ /\\$/) inflags = 0
		next }
	/^#ifdef [A-Z0-9_]+/ { d = $2; next }
	d != "" && /^#define [A-Z0-9_]+_STR[ ,]+"/ {
		m = $2; sub(/,$/, "", m)
		t = $0; sub(/^[^"]*"[ ,-]*/, "", t); sub(/".*/, "", t)
		if (t != "" && d != "FAST_LOCK" && d != "NOSMP" &&
		    d != "BUSY_WAIT" && d != "ADAPTIVE_WAIT") str[m] = d " " t
		d = ""; next }
	{ d = "" }
	END {
		# a define printing the name of another (DBG_LL_MALLOC prints
		# DBG_SF_MALLOC in 5.6) cannot be told from it: left as is
		for (m in str) {
			split(str[m], p, " ")
			if (p[1] == p[2]) own[p[2]] = 1
		}
		for (m in str) {
			split(str[m], p, " ")
			if ((m in used) && (p[1] == p[2] || !(p[2] in own)))
				print str[m]
		} }' \
	"$ksrc/core/ver_defs.h")
fl=$(grep -oE '(^| )FAST_LOCK[A-Z_-]*' <<<"$tokens" | tr -d ' ' || true)
for d in FAST_LOCK BUSY_WAIT ADAPTIVE_WAIT ADAPTIVE_WAIT_LOOPS NOSMP; do
	unsetd "$d"
done
if [ -n "$fl" ]; then
	setd FAST_LOCK
	case "$fl" in *-BUSY_WAIT*) setd BUSY_WAIT ;; esac
	case "$fl" in
	*-ADAPTIVE_WAIT*)
		setd ADAPTIVE_WAIT
		setd ADAPTIVE_WAIT_LOOPS "=${loops:-1024}"
		;;
	esac
	case "$fl" in *-NOSMP*) setd NOSMP ;; esac
fi
setd NAME "=\"$name\""
setd VERSION "=\"$ver\""
setd ARCH "=\"$arch\""
setd OS "=${os}_"
setd OS_QUOTED "=\"$os\""
setd VERSIONVAL "=$verval"
[ -z "$compiler" ] || setd COMPILER "=\"$compiler\""
setd MOD_NAME "=\"ovc\""

# one line for make and the shell: a value with quotes or spaces quoted
line=""
for k in "${order[@]}"; do
	[ -n "${val[$k]+x}" ] || continue
	v=${val[$k]}
	if [[ $v =~ [^=A-Za-z0-9_.+-] ]]; then
		v="='${v#=}'"
	fi
	line+="-D$k$v "
done
echo "${line% }"
