"""Hashtag and mention extraction by twitter-text's rules, for reference.py.

Written from twitter-text's published rules as *regular expressions* (the way
the original is built: one pattern per entity, scanned left to right, each
match consuming its text, then a check on what follows), independently of
the Swift implementation, which is a hand-written scanner. Python's `re` has
no \\p{L}: the Unicode classes are built from `unicodedata` at import time.

    hashtags(text)          -> [(tag, start, end)]       positions in code points
    mentions_or_lists(text) -> [(name, slug, start, end)]
    mentions(text)          -> [(name, start, end)]      lists left out
    urls(text)              -> [(start, end)]            only to drop hashtags inside URLs
    tweet_mentions(text)    -> (tags, names)             HTML-unescaped, truncated word dropped
"""

import os
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))


def _ranges(pred):
    """A character-class body for every code point where pred(category) holds."""
    out, start, prev = [], None, None
    for cp in range(sys.maxunicode + 1):
        if 0xD800 <= cp <= 0xDFFF:
            ok = False
        else:
            ok = pred(unicodedata.category(chr(cp)))
        if ok and start is None:
            start = cp
        if not ok and start is not None:
            out.append((start, prev))
            start = None
        prev = cp
    if start is not None:
        out.append((start, prev))

    def esc(cp):
        return "\\U%08x" % cp

    return "".join(esc(a) if a == b else esc(a) + "-" + esc(b) for a, b in out)


LETTERS_AND_MARKS = _ranges(lambda c: c[0] in "LM")
DECIMAL_DIGITS = _ranges(lambda c: c == "Nd")
HASHTAG_SPECIAL = ("_\u200c\u200d\ua67e\u05be\u05f3\u05f4\uff5e\u301c\u309b\u309c"
                   "\u30a0\u30fb\u3003\u0f0b\u0f0c\u00b7")
HASHTAG_ALPHA = "[" + LETTERS_AND_MARKS + "]"
HASHTAG_ALNUM = "[" + LETTERS_AND_MARKS + DECIMAL_DIGITS + HASHTAG_SPECIAL + "]"
HASH_SIGNS = "[#\uff03]"
AT_SIGNS = "[@\uff20]"
LATIN_ACCENTS = ("\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff\u0100-\u024f\u0253\u0254\u0256\u0257"
                 "\u0259\u025b\u0263\u0268\u026f\u0272\u0289\u028b\u02bb\u0300-\u036f\u1e00-\u1eff")

VALID_HASHTAG = re.compile(
    "(?:^|\ufe0e|\ufe0f|$|(?!" + HASHTAG_ALNUM + "|&).)"
    "(" + HASH_SIGNS + ")(?!\ufe0f|\u20e3)"
    "(" + HASHTAG_ALNUM + "*" + HASHTAG_ALPHA + HASHTAG_ALNUM + "*)", re.S)
END_HASHTAG = re.compile("(?:" + HASH_SIGNS + "|://)")  # used with .match(text, pos)

VALID_MENTION_OR_LIST = re.compile(
    "(?:^|[^a-zA-Z0-9_!#$%&*@\uff20]|(?:^|[^a-zA-Z0-9_+~.-])(?:rt|RT|rT|Rt):?)"
    "(" + AT_SIGNS + ")([a-zA-Z0-9_]{1,20})(/[a-zA-Z][a-zA-Z0-9_-]{0,24})?", re.S)
END_MENTION = re.compile("(?:" + AT_SIGNS + "|[" + LATIN_ACCENTS + "]|://)")

# ---------------------------------------------------------------- URLs

with open(os.path.join(HERE, "tlds.txt"), encoding="utf-8") as _f:
    TLDS = sorted((l.strip() for l in _f if l.strip()), key=lambda t: (-len(t), t))

PUNCT = "!'#%&'()*+,\\\\\\-./:;<=>?@\\[\\]^_{|}~$"
SPACES = "\x09-\x0d\x20\x85\xa0\u1680\u180e\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
INVALID = "\ufffe\ufeff\uffff"
DIRECTIONAL = "\u202a-\u202e\u061c\u200e\u200f\u2066\u2067\u2068\u2069"
D = "[^" + PUNCT + SPACES + INVALID + DIRECTIONAL + "]"
SUBDOMAIN = "(?:(?:" + D + "(?:[_-]|" + D + ")*)?" + D + "\\.)"
DOMAIN_NAME = "(?:(?:" + D + "(?:-|" + D + ")*)?" + D + "\\.)"
TLD = "(?:(?:" + "|".join(re.escape(t) for t in TLDS) + ")(?=[^0-9a-zA-Z@+-]|$))"
PUNYCODE = "(?:xn--[\\-0-9a-z]+)"
DOMAIN = "(?:" + SUBDOMAIN + "*" + DOMAIN_NAME + "(?:" + TLD + "|" + PUNYCODE + "))"
PRECEDING = "(?:[^A-Za-z0-9@\uff20$#\uff03" + INVALID + "]|[" + DIRECTIONAL + "]|^)"
CYRILLIC = "\u0400-\u04ff"
G = "[a-z" + CYRILLIC + "0-9!*';:=+,.$/%#\\[\\]\\-\u2013_~&|@" + LATIN_ACCENTS + "]"
BALANCED = "\\((?:" + G + "+|(?:" + G + "*\\(" + G + "+\\)" + G + "*))\\)"
PATH_END = "(?:[+\\-a-z" + CYRILLIC + "0-9=_#/" + LATIN_ACCENTS + "]|(?:" + BALANCED + "))"
PATH = "(?:(?:" + G + "*(?:" + BALANCED + G + "*)*" + PATH_END + ")|(?:@" + G + "+/))"
QUERY = "[a-z0-9!?*'@();:&=+$/%#\\[\\]\\-_.,~|]"
QUERY_END = "[a-z0-9\\-_&=#/]"
# Groups: 1 before, 2 url, 3 protocol, 4 domain, 5 port, 6 path, 7 query.
VALID_URL = re.compile(
    "(" + PRECEDING + ")((https?://)?(" + DOMAIN + ")(?::([0-9]+))?(/" + PATH + "*)?"
    "(\\?" + QUERY + "*" + QUERY_END + ")?)", re.I | re.A | re.S)
ASCII_DOMAIN = re.compile("(?:(?:[\\-a-z0-9" + LATIN_ACCENTS + "]+)\\.)+(?:" + TLD + "|" + PUNYCODE + ")",
                          re.I | re.A)
TCO = re.compile("^https?://t\\.co/([a-z0-9]+)(?:\\?" + QUERY + "*" + QUERY_END + ")?", re.I | re.A)


def urls(text):
    """(start, end) of every URL, as twitter-text's URL extraction finds them."""
    if "." not in text:
        return []
    out = []
    for m in VALID_URL.finditer(text):
        before, url, protocol, domain, path = m.group(1), m.group(2), m.group(3), m.group(4), m.group(6)
        start, end = m.start(2), m.end(2)
        if any(len(label) > 63 for label in domain.split(".")):
            continue
        if protocol:
            t = TCO.match(url)
            if t:
                if len(t.group(1)) > 40:
                    continue
                end = start + t.end()
            out.append((start, end))
            continue
        if before and before in "-_./":
            continue
        found = [(start + a.start(), start + a.end()) for a in ASCII_DOMAIN.finditer(domain)]
        if not found:
            continue
        if path:
            found[-1] = (found[-1][0], end)
        out.extend(found)
    return out


# ---------------------------------------------------------------- entities

def hashtags(text):
    tags = []
    for m in VALID_HASHTAG.finditer(text):
        if END_HASHTAG.match(text, m.end()):
            continue
        tags.append((m.group(2), m.start(1), m.end()))
    if not tags:
        return tags
    found = urls(text)
    if not found:
        return tags
    # Entities by start (hashtags first on a tie); one that starts inside the
    # last one kept is dropped.
    entities = sorted([(s, 0, e, t) for t, s, e in tags] + [(s, 1, e, None) for s, e in found])
    kept, last_end = [], None
    for s, kind, e, t in entities:
        if last_end is not None and last_end > s:
            continue
        last_end = e
        if kind == 0:
            kept.append((t, s, e))
    return kept


def mentions_or_lists(text):
    out = []
    for m in VALID_MENTION_OR_LIST.finditer(text):
        if END_MENTION.match(text, m.end()):
            continue
        out.append((m.group(2), m.group(3) or "", m.start(1), m.end()))
    return out


def mentions(text):
    return [(name, s, e) for name, slug, s, e in mentions_or_lists(text) if not slug]


def unescape_html(text):
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def cut_word_start(text):
    """Where the word cut off by a final ellipsis starts (len(text) if none)."""
    body = text.rstrip()
    if not body.endswith("\u2026"):
        return len(text)
    i = len(body) - 1
    while i > 0 and not body[i - 1].isspace():
        i -= 1
    return i


def tweet_mentions(text):
    """(hashtags, screen names) of a tweet's text: HTML entities unescaped,
    the word cut off by a final ellipsis dropped."""
    text = unescape_html(text)
    cut = cut_word_start(text)
    return ([t for t, s, e in hashtags(text) if e <= cut],
            [n for n, s, e in mentions(text) if e <= cut])
