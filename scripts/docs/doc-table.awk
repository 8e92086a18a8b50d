# SPDX-License-Identifier: GPL-2.0-or-later
# doc-table.awk: a Markdown table, as the doc generators (build/*_doc)
# print it, turned into the DocBook informaltable that
# modules/ovc/doc/ovc_admin.xml carries between its markers: one row a
# line, `code` as <literal>, &, < and > escaped.
#   build/params_doc | awk -f scripts/docs/doc-table.awk
function esc(s) {
	gsub(/&/, "\\&amp;", s)
	gsub(/</, "\\&lt;", s)
	gsub(/>/, "\\&gt;", s)
	return s
}
function cell(s) {
	sub(/^ +/, "", s)
	sub(/ +$/, "", s)
	s = esc(s)
	while(match(s, /`[^`]*`/))
		s = substr(s, 1, RSTART - 1) "<literal>" \
			substr(s, RSTART + 1, RLENGTH - 2) "</literal>" \
			substr(s, RSTART + RLENGTH)
	return s
}
function row(   i, r) {
	r = "<row>"
	for(i = 2; i < NF; i++)
		r = r "<entry>" cell($i) "</entry>"
	return r "</row>"
}
BEGIN { FS = "|" }
NR == 1 {
	print "<informaltable frame=\"all\">"
	print "<tgroup cols=\"" (NF - 2) "\">"
	print "<thead>"
	print row()
	print "</thead>"
	print "<tbody>"
	next
}
NR == 2 { next }
{ print row() }
END {
	print "</tbody>"
	print "</tgroup>"
	print "</informaltable>"
}
