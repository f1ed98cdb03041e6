#!/usr/bin/env python3
"""Checks the relative links and images of README.md and docs/*.md.

Every relative link or image must name a file or folder that exists in the
repository, and a `#anchor` into a Markdown file (or into the same file) must
name one of its headings, slugged as GitHub does, or an HTML id or name.
Links with a scheme (https:, mailto:) are not checked. Text inside code
(fenced blocks and `spans`) is not a link.

Usage: python3 scripts/check-links.py [FILE.md ...]
Exit 0 when every link resolves; 1 with a list of the broken ones otherwise.
Python 3 standard library only.
"""

import os
import re
import sys
import unicodedata
from urllib.parse import unquote

ROOT = os.path.realpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
# [text](target "title") and ![alt](target); the text may hold one level of brackets.
INLINE = re.compile(
    r"(!?)\[((?:[^\[\]\\]|\\.|\[[^\[\]]*\])*)\]"
    r"\(\s*(<[^>\n]*>|[^\s()]+(?:\([^\s()]*\)[^\s()]*)*)"
    r"(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)"
)
REFERENCE = re.compile(r"^ {0,3}\[([^\]]+)\]:\s*(<[^>\n]*>|\S+)", re.M)
HTML_LINK = re.compile(r"<(?:a|img)\b[^>]*?\b(href|src)\s*=\s*[\"']([^\"']*)[\"']", re.I)
HTML_ID = re.compile(r"<[a-z][^>]*?\b(?:id|name)\s*=\s*[\"']([^\"']+)[\"']", re.I)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")


def blank_fences(text):
    """The text with the lines of fenced code blocks emptied (line count kept)."""
    out = []
    fence = None
    for line in text.split("\n"):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            out.append("")
        elif fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line.strip()[len(m.group(1)):].strip():
                fence = None
            out.append("")
        else:
            out.append(line)
    return "\n".join(out)


def blank_code(text):
    """The text with fenced blocks and code spans replaced by spaces
    (newlines kept, so offsets and line numbers stay right)."""
    text = blank_fences(text)
    # Code spans: a run of n backticks up to the next run of exactly n.
    chars = list(text)
    i = 0
    while i < len(text):
        if text[i] != "`":
            i += 1
            continue
        j = i
        while j < len(text) and text[j] == "`":
            j += 1
        run = j - i
        close = re.compile(r"(?<!`)`{%d}(?!`)" % run).search(text, j)
        if close and "\n\n" not in text[j:close.start()]:
            for k in range(i, close.end()):
                if chars[k] != "\n":
                    chars[k] = " "
            i = close.end()
        else:
            i = j
    return "".join(chars)


def heading_text(raw):
    """What a heading shows: code without backticks, links as their text, no tags."""
    s = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", raw)
    s = re.sub(r"<[^>]+>", "", s)
    s = s.replace("`", "")
    return s.strip()


def slug(text):
    """GitHub's heading anchor: lower case, punctuation and symbols dropped,
    each space a hyphen (hyphens and underscores kept)."""
    out = []
    for ch in text.lower():
        cat = unicodedata.category(ch)
        if ch in " -_" or cat[0] in "LMN":
            out.append("-" if ch == " " else ch)
    return "".join(out)


_anchors = {}


def anchors(path):
    """The anchors a Markdown file offers: heading slugs (repeats numbered
    -1, -2, ... as GitHub does) and HTML ids and names."""
    if path in _anchors:
        return _anchors[path]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = blank_fences(text).split("\n")
    found = set()
    seen = {}

    def add(title):
        base = slug(heading_text(title))
        n = seen.get(base, 0)
        seen[base] = n + 1
        found.add(base if n == 0 else "%s-%d" % (base, n))

    for i, line in enumerate(lines):
        m = ATX.match(line)
        if m and not line.startswith("    "):
            add(m.group(2) or "")
            continue
        prev = lines[i - 1] if i > 0 else ""
        if (
            SETEXT.match(line)
            and prev.strip()
            and not ATX.match(prev)
            and not prev.lstrip().startswith(("|", ">", "-", "*", "+"))
            and not re.match(r"^\s*\d+[.)]\s", prev)
        ):
            add(prev.strip())
    found.update(HTML_ID.findall(blank_code(text)))
    _anchors[path] = found
    return found


def links(text):
    """(offset, kind, target) for every link, image and reference definition."""
    plain = blank_code(text)
    for m in INLINE.finditer(plain):
        yield m.start(), "image" if m.group(1) else "link", m.group(3)
    for m in REFERENCE.finditer(plain):
        yield m.start(), "reference", m.group(2)
    for m in HTML_LINK.finditer(plain):
        yield m.start(), "image" if m.group(1).lower() == "src" else "link", m.group(2)


def check(md):
    """The broken links of one file, as printable lines."""
    problems = []
    with open(md, encoding="utf-8") as f:
        text = f.read()
    here = os.path.dirname(md)
    rel = os.path.relpath(md, ROOT)
    count = 0
    for offset, kind, target in links(text):
        line = text.count("\n", 0, offset) + 1
        target = target.strip()
        if target.startswith("<") and target.endswith(">"):
            target = target[1:-1].strip()
        if not target or SCHEME.match(target) or target.startswith("//"):
            continue
        count += 1
        path, _, anchor = target.partition("#")
        where = "%s:%d: %s '%s'" % (rel, line, kind, target)
        if path.startswith("/"):
            problems.append("%s: an absolute path; write it relative to %s" % (where, rel))
            continue
        dest = os.path.realpath(os.path.join(here, unquote(path))) if path else md
        if dest != ROOT and not dest.startswith(ROOT + os.sep):
            problems.append("%s: leaves the repository" % where)
            continue
        if not os.path.exists(dest):
            problems.append("%s: no such file: %s" % (where, os.path.relpath(dest, ROOT)))
            continue
        if anchor and dest.endswith(".md") and os.path.isfile(dest):
            if unquote(anchor) not in anchors(dest):
                problems.append(
                    "%s: no heading with the anchor #%s in %s" % (where, anchor, os.path.relpath(dest, ROOT))
                )
    return count, problems


def main(argv):
    if argv:
        files = [os.path.realpath(a) for a in argv]
    else:
        docs = os.path.join(ROOT, "docs")
        files = [os.path.join(ROOT, "README.md")] + sorted(
            os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md")
        )
    total = 0
    problems = []
    for md in files:
        if not os.path.isfile(md):
            problems.append("%s: no such file" % os.path.relpath(md, ROOT))
            continue
        n, p = check(md)
        total += n
        problems += p
    if problems:
        print("check-links: %d of %d relative links do not resolve:" % (len(problems), total))
        for p in problems:
            print("  " + p)
        return 1
    print("check-links: %d relative links in %d files, all resolve" % (total, len(files)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
