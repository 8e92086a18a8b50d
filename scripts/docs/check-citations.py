#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""check-citations.py FILE...: every figure a page quotes from a results
file cites the row it comes from, and every citation resolves.

A citation is a Markdown link whose target is a CSV file with a line
anchor: [0.78](bench/results/defaults-recheck/sweep.csv#L5) (the path
relative to the page, as GitHub resolves it; L1 is the header line, so
the first data row is L2). The citation resolves when the file exists,
has that line, and each number in the link's text is a field of that
line, rounded (half up, or as printf rounds) to the decimals the text
gives (a number followed by "%"
may also be a fraction of one in the row: 77.5 % for 0.775).

Between <!-- cited:begin --> and <!-- cited:end --> (each on a line of
its own, or inside one: in Markdown a comment that starts a line ends a
paragraph, so a marker inside a paragraph sits after the text before it)
every figure (a
number with a decimal point, or a number followed by "%", "ms", "µs",
"ns", "KB", "MB", "GB" or "calls/s"; not a load multiple such as 0.9× or 1.5–16×,
the experiment's setting) must
sit in a citation's text or in `inline code` (the generated headline,
between <!-- headline:begin --> and <!-- headline:end -->, is checked
against its CSV by bench/reports/headline-readme.sh instead); outside those
markers only the citations themselves are checked.

A citation may be a reference-style link, [0.98][h8] with the line
[h8]: results/headline/headline.csv#L8 elsewhere on the page: it is read
as the inline link it stands for. The definition lines themselves are
links like any other (they must name a file, and a heading).

A figure recorded only in the journal (bench/journal/*.md: the dated
entries, which hold what a run printed and what no results file keeps)
cites the entry's section: [563 ns](../bench/journal/2026-11-27.md#what-loading-ovc-costs-and-pis-workers-issue-15-2026-11-27-12001227-utc),
its target a section of a Markdown page in a folder named journal. Such
a citation resolves when the section exists and each number of the
link's text is written as it is in the section's text (from its heading
to the next heading of its level or above): the same digits, and a
number followed by "%" followed by "%" there too (the journal is
quoted, not rounded). A link to a journal
section whose text holds no number is an ordinary link.

Every other link to a file of the repository must name a file or folder
that exists, and a link to a section of a Markdown page (page.md#anchor)
a heading of that page, as GitHub derives the anchor from it. Exit 1 on
any failure, each one named with its page and line.

A DocBook page (FILE.xml: the module's admin guide) cites with a ulink
on one line, its url the CSV's path relative to the XML file:
<ulink url="../../../bench/results/tcp/summary.csv#L3">0.94</ulink>
(the generated plain-text README shows the text, the figure), and a
journal section likewise:
<ulink url="../../../bench/journal/fair-share.md#fair-share-under-a-flood-issue-38">0.51</ulink>.
Its text
may hold entities (&#8211;) and inline tags; in a cited region the text
of <literal> is skipped as `code` is in Markdown, as are tags, their
attributes and <programlisting> blocks; any other ulink to a relative
path must name a file or folder that exists.
"""
import decimal
import html
import os
import re
import sys

LINK = re.compile(r'\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(([^)\s]+\.csv)#L(\d+)\)')
NUM = re.compile(r'(?<![\w.])(-?\d+(?:\.\d+)?)(\s*%)?')
FIGURE = re.compile(r'(?<![\w.\-/§])\d+(?:\.\d+)?(?:\s*(?:%|ms\b|µs|us\b|ns\b|'
                    r'[KMG]B\b|calls/s))|'
                    r'(?<![\w.\-/§])\d+\.\d+(?![\w.×])'
                    r'(?![ ]*[–-][ ]*\d+(?:\.\d+)?[ ]*×)')


ANY = re.compile(r'\]\(([^)\s]+)\)')
XLINK = re.compile(r'<ulink\s+url="([^"\s]+\.csv)#L(\d+)"\s*>(.*?)</ulink>')
XANY = re.compile(r'<ulink\s+url="([^"]+)"')
# a citation of a journal section: [text](PATH/journal/PAGE.md#anchor)
SEC = re.compile(r'\[((?:[^\[\]]|\[[^\[\]]*\])*)\]'
                 r'\(((?:[^)\s]*/)?journal/[^)\s/]+\.md)#([^)\s]+)\)')
XSEC = re.compile(r'<ulink\s+url="((?:[^"\s]*/)?journal/[^"\s/]+\.md)#'
                  r'([^"\s]+)"\s*>(.*?)</ulink>')


def slug(heading):
    h = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', heading.strip().lower())
    return re.sub(r'[^\w\- ]', '', h).replace(' ', '-')


def anchors(page, cache={}):
    if page not in cache:
        fence = False
        got = set()
        for line in open(page, encoding='utf-8'):
            if line.startswith('```'):
                fence = not fence
            elif not fence and re.match(r'#+ ', line):
                got.add(slug(re.sub(r'^#+ +', '', line.rstrip('\n'))))
        cache[page] = got
    return cache[page]


def section(page, anchor, cache={}):
    """The text of the section of a Markdown page whose heading's anchor
    is anchor (None when there is none)."""
    if page not in cache:
        secs = {}
        stack = []  # (level, anchor) of the sections open at a line
        fence = False
        for line in open(page, encoding='utf-8'):
            if line.startswith('```'):
                fence = not fence
            m = None if fence else re.match(r'(#+) +(.*)', line)
            if m:
                lvl = len(m.group(1))
                stack = [(v, a) for v, a in stack if v < lvl]
                a = slug(m.group(2).rstrip('\n'))
                stack.append((lvl, a))
                secs.setdefault(a, [])
            for _, a in stack:
                secs[a].append(line)
        cache[page] = {a: ''.join(t) for a, t in secs.items()}
    return cache[page].get(anchor)


def tokens(text):
    """(number as written, followed by %) of each number of a text."""
    return {(m.group(1), bool(m.group(2))) for m in NUM.finditer(text)}


def fields(line):
    out = []
    for f in line.rstrip('\n').split(','):
        try:
            out.append(float(f))
        except ValueError:
            pass
    return out


def matches(text_num, pct, row):
    dec = len(text_num.split('.')[1]) if '.' in text_num else 0
    want = float(text_num)
    q = decimal.Decimal(1).scaleb(-dec)
    for v in row:
        cands = [v, v * 100] if pct else [v]
        for c in cands:
            # half up on the field as written: 1.085 gives 1.09
            up = decimal.Decimal(repr(c)).quantize(
                q, rounding=decimal.ROUND_HALF_UP)
            if abs(round(c, dec) - want) < 10 ** -(dec + 3) or \
               f'{c:.{dec}f}' == text_num or up == decimal.Decimal(text_num):
                return True
    return False


def cites(page, line):
    """(text, path, row) of each citation on a line of the page."""
    if page.endswith('.xml'):
        return [(html.unescape(re.sub(r'<[^>]*>', '', m.group(3))),
                 m.group(1), int(m.group(2))) for m in XLINK.finditer(line)]
    return [(m.group(1), m.group(2), int(m.group(3)))
            for m in LINK.finditer(line)]


def sections(page, line):
    """(text, path, anchor) of each journal section a line cites."""
    if page.endswith('.xml'):
        got = [(html.unescape(re.sub(r'<[^>]*>', '', m.group(3))),
                m.group(1), m.group(2)) for m in XSEC.finditer(line)]
    else:
        got = [(m.group(1), m.group(2), m.group(3))
               for m in SEC.finditer(line)]
    return [g for g in got if NUM.search(g[0])]


def check_xml_links(page, n, line):
    bad = 0
    base = os.path.dirname(page)
    for m in XANY.finditer(line):
        target = m.group(1)
        if re.match(r'[a-z]+:', target) or re.search(r'\.csv#L\d+$', target) \
                or re.search(r'journal/[^/]+\.md#', target):
            continue
        path = target.partition('#')[0]
        if path and not os.path.exists(os.path.normpath(os.path.join(base,
                                                                    path))):
            print(f'check-docs: {page}:{n}: ulink {target}: no such file')
            bad = 1
    if re.search(r'<ulink\s+url="[^"]+\.csv#L\d+"', line) and \
            len(XLINK.findall(line)) != len(re.findall(r'<ulink\s+url="[^"]+'
                                                        r'\.csv#L\d+"', line)):
        print(f'check-docs: {page}:{n}: a citation\'s ulink must close on '
              'its line')
        bad = 1
    return bad


def uncited_text(page, line):
    """What of a line in a cited region is neither citation nor code."""
    if page.endswith('.xml'):
        rest = XLINK.sub('', line)
        rest = XSEC.sub(lambda m: '' if NUM.search(m.group(3)) else
                        m.group(0), rest)
        rest = re.sub(r'<literal>.*?</literal>', '', rest)
        rest = re.sub(r'<!--.*?-->', '', rest)
        rest = re.sub(r'<[^>]*>', ' ', rest)
        return html.unescape(rest)
    rest = LINK.sub('', line)
    rest = SEC.sub(lambda m: '' if NUM.search(m.group(1)) else m.group(0),
                   rest)
    rest = re.sub(r'`[^`]*`', '', rest)
    rest = re.sub(r'\]\([^)]*\)', ']', rest)  # other links' targets
    return re.sub(r'<!--.*?-->', '', rest)


# a reference-style link [text][label], and the label's definition
REFUSE = re.compile(r'\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\[([^\[\]]+)\]')
REFDEF = re.compile(r'^ {0,3}\[([^\[\]]+)\]: *(\S+)\s*$')


def references(lines):
    """label (lower case) -> target of the page's reference definitions,
    outside fenced code."""
    got = {}
    fence = False
    for line in lines:
        if line.startswith('```'):
            fence = not fence
        m = None if fence else REFDEF.match(line)
        if m:
            got.setdefault(m.group(1).lower(), m.group(2))
    return got


def check(page):
    bad = 0
    xml = page.endswith('.xml')
    base = os.path.dirname(page)
    lines = open(page, encoding='utf-8').read().split('\n')
    refs = {} if xml else references(lines)
    cited = False
    fence = False
    generated = False
    for n, line in enumerate(lines, 1):
        d = None if xml or fence else REFDEF.match(line)
        if d and not re.match(r'[a-z]+:', d.group(2)):
            path, _, anchor = re.sub(r'#L\d+$', '', d.group(2)).partition('#')
            f = os.path.normpath(os.path.join(base, path)) if path else page
            if not os.path.exists(f):
                print(f'check-docs: {page}:{n}: [{d.group(1)}]: {d.group(2)}: '
                      'no such file')
                bad = 1
            elif anchor and f.endswith('.md') and anchor not in anchors(f):
                print(f'check-docs: {page}:{n}: [{d.group(1)}]: {d.group(2)} '
                      'names no heading')
                bad = 1
            continue
        if refs and not line.startswith('```'):
            line = REFUSE.sub(lambda m: f'[{m.group(1)}]({refs[m.group(2).lower()]})'
                              if m.group(2).lower() in refs else m.group(0),
                              line)
        if not xml and line.startswith('```'):
            fence = not fence
            continue
        if xml and '<programlisting' in line:
            fence = True
        if xml and '</programlisting>' in line:
            fence = False
            continue
        region = ''  # the part of the line between the markers
        for part in re.split(r'(<!-- cited:(?:begin|end) -->)', line):
            if part == '<!-- cited:begin -->':
                cited = True
            elif part == '<!-- cited:end -->':
                cited = False
            elif cited:
                region += part + ' '
        if '<!-- headline:begin' in line:
            generated = True
        if '<!-- headline:end' in line:
            generated = False
        if fence:
            continue
        for text, path, row in cites(page, line):
            where = f'{page}:{n}: [{text}]({path}#L{row})'
            f = os.path.normpath(os.path.join(base, path))
            if not os.path.isfile(f):
                print(f'check-docs: {where}: no file {f}')
                bad = 1
                continue
            rows = open(f, encoding='utf-8').read().split('\n')
            if row < 2 or row > len(rows) or not rows[row - 1].strip():
                print(f'check-docs: {where}: {f} has no data row at line {row}')
                bad = 1
                continue
            vals = fields(rows[row - 1])
            for num in NUM.finditer(text):
                if not matches(num.group(1), bool(num.group(2)), vals):
                    print(f'check-docs: {where}: {num.group(0).strip()} '
                          f'is not in that row: {rows[row - 1][:160]}')
                    bad = 1
        for text, path, anchor in sections(page, line):
            where = f'{page}:{n}: [{text}]({path}#{anchor})'
            f = os.path.normpath(os.path.join(base, path))
            got = section(f, anchor) if os.path.isfile(f) else None
            if got is None:
                print(f'check-docs: {where}: no such section'
                      + ('' if os.path.isfile(f) else f' (no file {f})'))
                bad = 1
                continue
            toks = tokens(got)
            for num in NUM.finditer(text):
                if (num.group(1), bool(num.group(2))) not in toks and \
                        (num.group(2) or (num.group(1), True) not in toks):
                    print(f'check-docs: {where}: {num.group(0).strip()} '
                          'is not in that section')
                    bad = 1
        if xml:
            bad |= check_xml_links(page, n, line)
        cited_here = [p + '#L' + str(r) for _, p, r in cites(page, line)]
        cited_here += [p + '#' + a for _, p, a in sections(page, line)]
        for m in ([] if xml else ANY.finditer(line)):
            target = m.group(1)
            if re.match(r'[a-z]+:', target) or target in cited_here:
                continue
            if re.search(r'\.csv#L\d+$', target):
                print(f'check-docs: {page}:{n}: citation of {target}: its '
                      'text is not read (brackets nested deeper than one)')
                bad = 1
                continue
            path, _, anchor = target.partition('#')
            f = os.path.normpath(os.path.join(base, path)) if path else page
            if not os.path.exists(f):
                print(f'check-docs: {page}:{n}: link {target}: no such file')
                bad = 1
            elif anchor and f.endswith('.md') and anchor not in anchors(f):
                print(f'check-docs: {page}:{n}: link {target} names no heading')
                bad = 1
        if region and not generated:
            for m in FIGURE.finditer(uncited_text(page, region)):
                print(f'check-docs: {page}:{n}: figure "{m.group(0)}" '
                      'cites no row of a results file')
                bad = 1
    return bad


def main():
    bad = 0
    for page in sys.argv[1:]:
        bad |= check(page)
    sys.exit(bad)


if __name__ == '__main__':
    main()
