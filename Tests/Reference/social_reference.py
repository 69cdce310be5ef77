#!/usr/bin/env python3
"""Independent reference of SPEC.md section 16 (Bluesky and Mastodon posts).

NOT part of the product: a stdlib-only Python reading of the `report`
command for Bluesky Jetstream events, Bluesky post views and Mastodon
statuses (mixed with tweets, which are read by reference.py), written from
SPEC.md (sections 5, 6, 7, 13, 16) without looking at the Swift sources.

    python3 social_reference.py TERM PATH... [--kinds hashtag,user]
                                [--min-count N] [--format csv|json]
    python3 social_reference.py -t TERM [-t TERM...] PATH... [...]

Without -t the first positional argument is the term; with -t every
positional argument is a path.  The output is what

    smashtag report -t TERM... PATH... --format csv --min-count 1

prints (the default --min-count here is 1).  Kinds: hashtag, user, url,
host, domain, poster (links of tweets are not read: tweets carry hashtags,
users and posters only).  Plain files (also gzip/bz2/xz, and containers, as
reference.py unpacks them).  Stderr gets `bad_records=N` and the first few
places.

Decisions where SPEC.md is silent are marked "DECISION".
"""

import argparse
import datetime
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference as R  # noqa: E402  (tweets, inputs, CSV conventions)

norm = R.norm
obj = R.obj

KIND_ORDER = ("hashtag", "user", "symbol", "url", "host", "domain", "poster")
KIND_FIELD = {"hashtag": "hashtags", "user": "users", "symbol": "symbols", "url": "urls",
              "host": "hosts", "domain": "domains", "poster": "posters"}
POST = "app.bsky.feed.post"
REPOST = "app.bsky.feed.repost"
NO_SPACE = re.compile(r"\A\S+\Z")
MASTO_URI = re.compile(r"\A[A-Za-z][A-Za-z0-9+.-]*://\S+\Z")


# ---------------------------------------------------------------- SPEC 13: links

def link_key(s):
    """(key, host) of link string s by SPEC 13's five steps, or None."""
    if not isinstance(s, str) or not s:
        return None
    m = re.match(r"\A([A-Za-z][A-Za-z0-9+.-]*)://", s)
    if m:
        scheme = m.group(1).lower()
        if scheme not in ("http", "https"):
            return None
        rest = s[m.end():]
    else:
        # DECISION: "scheme:" without "//" (mailto:, javascript:) is a scheme too,
        # unless what follows the colon is a port (digits).
        m2 = re.match(r"\A([A-Za-z][A-Za-z0-9+.-]*):(?![0-9]*(?:[/?#]|\Z))", s)
        if m2:
            return None
        scheme = "http"
        rest = s
    # 3. fragment
    h = rest.find("#")
    if h >= 0:
        rest = rest[:h]
    # 2. authority
    i = len(rest)
    for ch in "/?":
        j = rest.find(ch)
        if 0 <= j < i:
            i = j
    authority, rest = rest[:i], rest[i:]
    at = authority.rfind("@")
    if at >= 0:
        authority = authority[at + 1:]
    if authority.startswith("["):
        close = authority.find("]")
        if close >= 0:
            host, port = authority[:close + 1], authority[close + 1:]
            port = port[1:] if port.startswith(":") else None
        else:
            host, port = authority, None
    elif ":" in authority:
        host, port = authority.rsplit(":", 1) if authority.count(":") == 1 else (authority, None)
    else:
        host, port = authority, None
    host = norm(host)
    if host.endswith("."):
        host = host[:-1]
    if not host:
        return None  # DECISION: no host, no link
    port_s = ""
    if port:
        if not ((port == "80" and scheme == "http") or (port == "443" and scheme == "https")):
            port_s = ":" + port
    q = rest.find("?")
    if q >= 0:
        path, query = rest[:q], rest[q + 1:]
    else:
        path, query = rest, None
    if path in ("", "/"):
        path = ""
    elif path.endswith("/"):
        path = path[:-1]
    items = []
    if query is not None:
        for item in query.split("&"):
            if not item:
                continue
            name = item.split("=", 1)[0].lower()
            if name.startswith("utm_") or name in ("fbclid", "gclid", "dclid", "msclkid", "igshid", "mc_cid", "mc_eid"):
                continue
            items.append(item)
    key = host + port_s + path + ("?" + "&".join(items) if items else "")
    return key, host


def host_of(host):
    return host[4:] if host.startswith("www.") else host


class PSL:
    def __init__(self, path="/usr/share/publicsuffix/public_suffix_list.dat"):
        self.rules, self.wild, self.exc = set(), set(), set()
        try:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    line = line.strip()
                    if not line or line.startswith("//"):
                        continue
                    rule = line.split()[0]
                    try:
                        rule = rule.encode("idna").decode("ascii") if not rule.isascii() else rule
                    except UnicodeError:
                        pass
                    rule = rule.lower()
                    if rule.startswith("!"):
                        self.exc.add(rule[1:])
                    elif rule.startswith("*."):
                        self.wild.add(rule[2:])
                    else:
                        self.rules.add(rule)
        except OSError:
            pass

    def domain(self, host):
        if not host or re.match(r"\A[0-9.]+\Z", host) or host.startswith("["):
            return host  # IP address
        labels = host.split(".")
        if len(labels) == 1:
            return host
        try:
            alabels = [l.encode("idna").decode("ascii") if not l.isascii() else l for l in labels]
        except UnicodeError:
            alabels = labels
        # Longest matching rule; default rule "*" (one label).
        suffix_len = 1
        for i in range(len(alabels)):
            cand = ".".join(alabels[i:])
            n = len(alabels) - i
            if cand in self.exc:
                suffix_len = n - 1
                break
            if cand in self.rules and n > suffix_len:
                suffix_len = n
            parent = ".".join(alabels[i + 1:])
            if i + 1 <= len(alabels) and parent in self.wild and n > suffix_len:
                suffix_len = n
        if suffix_len >= len(labels):
            return host  # the host is itself a public suffix
        return ".".join(labels[-(suffix_len + 1):])


_PSL = None


def domain_of(host):
    global _PSL
    if _PSL is None:
        _PSL = PSL()
    return _PSL.domain(host)


# ---------------------------------------------------------------- a post

class Post:
    """What one record says about one post.

    tags: set of normalised hashtags; users: set of user keys, ("did", DID)
    for Bluesky mentions (shown by handle at the end), ("name", key) else;
    links: list of link strings; author: ("did", DID) / ("name", key) / None;
    repost_of: subject AT-URI of a Bluesky repost (its mentions are added at
    the end, from the subject's first copy)."""

    __slots__ = ("pid", "tags", "users", "links", "author", "repost_of", "text", "spellings")

    def __init__(self, pid):
        self.pid = pid
        self.tags, self.users, self.links = set(), set(), []
        self.author = None
        self.repost_of = None
        self.text = None
        self.spellings = []  # [(did, spelled handle)] of mention facets


def trimmed_tag(t):
    """SPEC 16: a tag trimmed of surrounding white space and of one leading
    '#'; None when nothing is left (or it is no string)."""
    if not isinstance(t, str):
        return None
    t = t.strip()
    if t.startswith("#"):
        t = t[1:]
    # DECISION: white space after the '#' is trimmed too ("# x" is "x").
    t = t.strip()
    return t or None


def clean_tag(t):
    """A tag's key: trimmed (trimmed_tag), then normalised (SPEC 5)."""
    t = trimmed_tag(t)
    return norm(t) if t else None


def event_time_us(ev, record):
    """SPEC 16: a Jetstream post's time in microseconds: `record.createdAt`,
    else the event's `time_us`; None when neither says."""
    t = parse_iso_us(record.get("createdAt"))
    if t is None and isinstance(ev.get("time_us"), int) and not isinstance(ev.get("time_us"), bool):
        t = ev["time_us"]
    return t


def parse_iso_us(s):
    """ISO 8601 -> microseconds since the epoch, or None."""
    if not isinstance(s, str):
        return None
    m = re.match(r"\A(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|z|[+-]\d\d:?\d\d)?\Z", s)
    if not m:
        return None
    y, mo, d, hh, mi, ss, frac, tz = m.groups()
    try:
        dt = datetime.datetime(int(y), int(mo), int(d), int(hh), int(mi), int(ss), tzinfo=datetime.timezone.utc)
    except ValueError:
        return None
    us = int(dt.timestamp()) * 1000000 + (int((frac or "0")[:6].ljust(6, "0")))
    if tz and tz not in ("Z", "z"):
        sign = 1 if tz[0] == "+" else -1
        digits = tz[1:].replace(":", "")
        us -= sign * (int(digits[:2]) * 3600 + int(digits[2:]) * 60) * 1000000
    return us


def bluesky_record(post, record):
    """Hashtags, mentions, links and text of an app.bsky.feed.post record."""
    text = record.get("text") if isinstance(record.get("text"), str) else ""
    post.text = text
    tb = text.encode("utf-8")
    facets = record.get("facets")
    for facet in facets if isinstance(facets, list) else []:
        facet = obj(facet)
        index = obj(facet.get("index"))
        feats = facet.get("features")
        for feat in feats if isinstance(feats, list) else []:
            feat = obj(feat)
            typ = feat.get("$type")
            if typ == "app.bsky.richtext.facet#tag":
                t = clean_tag(feat.get("tag"))
                if t:
                    post.tags.add(t)
            elif typ == "app.bsky.richtext.facet#mention":
                did = feat.get("did")
                if isinstance(did, str) and did:
                    did = norm(did)  # SPEC 5
                    post.users.add(("did", did))
                    bs, be = index.get("byteStart"), index.get("byteEnd")
                    if isinstance(bs, int) and isinstance(be, int) and not isinstance(bs, bool) \
                            and not isinstance(be, bool) and 0 <= bs < be <= len(tb):
                        try:
                            spelled = tb[bs:be].decode("utf-8")
                        except UnicodeDecodeError:
                            spelled = None
                        if spelled is not None:
                            # DECISION: the handle spelled is the range less one leading '@'.
                            spelled = spelled.strip()
                            if spelled.startswith("@"):
                                spelled = spelled[1:]
                            if spelled and NO_SPACE.match(spelled):
                                post.spellings.append((did, norm(spelled)))
            elif typ == "app.bsky.richtext.facet#link":
                if isinstance(feat.get("uri"), str):
                    post.links.append(feat["uri"])
    tags = record.get("tags")
    for t in tags if isinstance(tags, list) else []:
        t = clean_tag(t)
        if t:
            post.tags.add(t)
    ext = obj(obj(record.get("embed")).get("external")).get("uri")
    if isinstance(ext, str):
        post.links.append(ext)


# ---------------------------------------------------------------- the run

class Run:
    def __init__(self, bad):
        self.bad = bad
        self.posts = []          # Post, in input order (tweets too)
        self.handles = {}        # did -> (time_us, handle) of the latest naming
        self.bsky_copy = {}      # AT-URI -> first Post read with that URI (non-repost)

    # handles ----------------------------------------------------------
    def name_handle(self, did, handle, t):
        if not (isinstance(did, str) and did and isinstance(handle, str) and handle.strip()):
            return
        did = norm(did)  # SPEC 5: an account key is compared normalised
        handle = norm(handle.strip())
        t = t if t is not None else -1  # DECISION: a naming of unknown time is the oldest
        old = self.handles.get(did)
        # Latest by time; DECISION: at one time, the handle first in bytes.
        if old is None or t > old[0] or (t == old[0] and handle.encode() < old[1].encode()):
            self.handles[did] = (t, handle)

    # records ----------------------------------------------------------
    def value(self, v, name, line):
        if isinstance(v, list):
            for e in v:
                self.value(e, name, line)
            return
        if not isinstance(v, dict):
            self.bad.add(name, line, "not a post (%s)" % type(v).__name__)
            return
        if isinstance(v.get("kind"), str) and "did" in v and ("time_us" in v or v["kind"] in ("commit", "identity", "account")):
            self.jetstream(v, name, line)
        elif "uri" not in v and isinstance(v.get("posts"), list):
            self.value(v["posts"], name, line)
        elif "uri" not in v and isinstance(v.get("feed"), list):
            for item in v["feed"]:
                if isinstance(item, dict) and isinstance(item.get("post"), dict):
                    self.feed_item(item, name, line)
                elif isinstance(item, dict) and "post" in item:
                    self.value(item["post"], name, line)
                else:
                    self.value(item, name, line)
        elif "uri" not in v and isinstance(v.get("post"), dict):
            self.feed_item(v, name, line)
        elif "id" not in v and "id_str" not in v and "uri" not in v and \
                any(isinstance(v.get(k), list) for k in ("statuses", "results")):
            # A search response ({"statuses":[...]}, also Mastodon's v2 search,
            # or {"results":[...]}): each element is recognised on its own.
            self.value(v["statuses"] if isinstance(v.get("statuses"), list) else v["results"], name, line)
        elif "user" not in v and (isinstance(v.get("account"), dict) or
                                  (isinstance(v.get("uri"), str) and not v["uri"].startswith("at://")
                                   and ("content" in v or "account" in v))):
            # DECISION: a status without an account object is a status of
            # unknown author (its uri and mentions still say what it is).
            self.mastodon(v, name, line)
        elif isinstance(v.get("author"), dict) and "did" in v["author"] or \
                (isinstance(v.get("uri"), str) and v["uri"].startswith("at://")):
            self.view(v, name, line)
        else:
            self.tweets(v, name, line)

    def feed_item(self, item, name, line):
        """A feed item {"post": VIEW, ...} is its post (a repost `reason` adds nothing)."""
        self.value(item["post"], name, line)

    def tweets(self, v, name, line):
        """A record of no other platform: tweets, as reference.py reads them."""
        for tweet, ctx in R.tweets_of(v, R.EMPTY_CTX, name, line, self.bad):
            self.tweet(tweet, ctx)

    def tweet(self, tweet, ctx):
        """One tweet as a post: the Post made, and reference.py's facts of it."""
        tags, users, who, text, facts = R.analyse(tweet, ctx)
        p = Post(("tweet", R.tweet_id(tweet)))
        p.tags = set(tags)
        p.users = {("name", u) for u in users}
        p.author = ("name", who) if who else None
        p.text = text
        self.posts.append(p)
        return p, facts

    def jetstream(self, ev, name, line):
        kind = ev["kind"]
        t = ev.get("time_us") if isinstance(ev.get("time_us"), int) and not isinstance(ev.get("time_us"), bool) else None
        if kind == "identity":
            ident = obj(ev.get("identity"))
            did = ident.get("did") if isinstance(ident.get("did"), str) else ev.get("did")
            self.name_handle(did, ident.get("handle"), t)
            return
        if kind != "commit":
            return  # account and other events: notices
        commit = ev.get("commit")
        if not isinstance(commit, dict):
            self.bad.add(name, line, "commit event without commit")
            return
        if commit.get("operation") != "create" or commit.get("collection") not in (POST, REPOST):
            return  # notices
        did, rkey, record = ev.get("did"), commit.get("rkey"), commit.get("record")
        if not (isinstance(did, str) and NO_SPACE.match(did) and did.startswith("did:")
                and isinstance(rkey, str) and NO_SPACE.match(rkey) and isinstance(record, dict)):
            self.bad.add(name, line, "malformed Bluesky post")
            return
        uri = "at://%s/%s/%s" % (did, commit["collection"], rkey)
        p = Post(("uri", uri))
        p.author = ("did", norm(did))
        if commit["collection"] == REPOST:
            subject = obj(record.get("subject")).get("uri")
            if not (isinstance(subject, str) and subject.startswith("at://")):
                # DECISION: a repost without a subject AT-URI is malformed.
                self.bad.add(name, line, "repost without subject.uri")
                return
            p.repost_of = subject
        else:
            bluesky_record(p, record)
            self.bsky_copy.setdefault(uri, p)
        self.posts.append(p)

    def view(self, v, name, line):
        uri, author, record = v.get("uri"), obj(v.get("author")), v.get("record")
        did = author.get("did")
        if not (isinstance(uri, str) and uri.startswith("at://") and NO_SPACE.match(uri)
                and isinstance(did, str) and NO_SPACE.match(did) and isinstance(record, dict)):
            self.bad.add(name, line, "malformed Bluesky post view")
            return
        t = parse_iso_us(v.get("indexedAt"))
        if t is None:
            t = parse_iso_us(record.get("createdAt"))
        self.name_handle(did, author.get("handle"), t)
        p = Post(("uri", uri))
        p.author = ("did", norm(did))
        # DECISION: a view of a repost record (rare) is read as a repost.
        if record.get("$type") == REPOST:
            s = obj(record.get("subject")).get("uri")
            p.repost_of = s if isinstance(s, str) else None
        else:
            bluesky_record(p, record)
            self.bsky_copy.setdefault(uri, p)
        self.posts.append(p)

    def mastodon(self, st, name, line):
        uri = st.get("uri")
        if not (isinstance(uri, str) and MASTO_URI.match(uri)):
            self.bad.add(name, line, "Mastodon status without uri")
            return
        p = Post(("uri", uri))
        self.masto_mentions(st, p)
        a = masto_account(st.get("account"))
        p.author = ("name", a) if a else None
        rb = st.get("reblog")
        if isinstance(rb, dict):
            self.masto_mentions(rb, p)
            ra = masto_account(rb.get("account"))
            if ra:
                p.users.add(("name", ra))
            p.text = masto_text(rb.get("content"))
        self.posts.append(p)

    def masto_mentions(self, st, p):
        tags = st.get("tags")
        for t in tags if isinstance(tags, list) else []:
            n = obj(t).get("name")
            if isinstance(n, str) and n:
                p.tags.add(norm(n))
        ms = st.get("mentions")
        for m in ms if isinstance(ms, list) else []:
            k = masto_acct(obj(m).get("acct"), obj(m).get("url"))
            if k:
                p.users.add(("name", k))
        card = obj(st.get("card")).get("url")
        if isinstance(card, str):
            p.links.append(card)
        p.links.extend(content_links(st.get("content")))
        if p.text is None:
            p.text = masto_text(st.get("content"))

    # the end ----------------------------------------------------------
    def author_handle_for(self, did):
        """SPEC 16: an author is "printed @handle when an identity event or a
        post view ... names one (the latest by time), else @did:..." -- the
        texts' spellings are the fallback of mentioned users alone."""
        if did in self.handles:
            return self.handles[did][1]
        return norm(did)

    def handle_for(self, did):
        """SPEC 16: the handle named (latest by time), else the handle the
        text most often spells at the mention facets, else the DID."""
        if did in self.handles:
            return self.handles[did][1]
        counts = self.spelled.get(did)
        if counts:
            # DECISION: ties by ascending bytes.
            return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].encode()))[0][0]
        return norm(did)

    def finish(self):
        # Spellings over the distinct posts (first copy of each URI).
        self.spelled = {}
        seen = set()
        for p in self.posts:
            if p.pid in seen:
                continue
            seen.add(p.pid)
            for did, h in p.spellings:
                d = self.spelled.setdefault(did, {})
                d[h] = d.get(h, 0) + 1
        # Reposts carry the subject's mentions (first copy read), not its author.
        for p in self.posts:
            if p.repost_of is not None:
                s = self.bsky_copy.get(p.repost_of)
                if s is not None:
                    p.tags |= s.tags
                    p.users |= s.users
                    p.links = p.links + s.links
                    p.text = s.text

    def mention_keys(self, p, kinds):
        keys = set()
        if "hashtag" in kinds:
            keys |= {("hashtag", "#" + t) for t in p.tags}
        if "user" in kinds:
            for k, v in p.users:
                keys.add(("user", "@" + (self.handle_for(v) if k == "did" else v)))
        if kinds & {"url", "host", "domain"}:
            for s in p.links:
                kh = link_key(s)
                if kh is None:
                    continue
                key, host = kh
                if "url" in kinds:
                    keys.add(("url", key))
                if "host" in kinds:
                    keys.add(("host", host_of(host)))
                if "domain" in kinds:
                    keys.add(("domain", domain_of(host_of(host))))
        if "poster" in kinds and p.author is not None:
            k, v = p.author
            keys.add(("poster", "@" + (self.author_handle_for(v) if k == "did" else v)))
        return keys


def masto_host(url):
    if not isinstance(url, str):
        return None
    m = re.match(r"\A[A-Za-z][A-Za-z0-9+.-]*://([^/?#]*)", url)
    if not m:
        return None
    auth = m.group(1)
    auth = auth[auth.rfind("@") + 1:]
    if auth.startswith("["):
        host = auth[:auth.find("]") + 1] if "]" in auth else auth
    else:
        host = auth.split(":", 1)[0]
    host = norm(host)
    return host or None


def masto_acct(acct, url):
    if not isinstance(acct, str) or not acct:
        return None
    if "@" in acct:
        return norm(acct)
    host = masto_host(url)
    # DECISION: a bare acct without a usable url stays bare.
    return norm(acct + "@" + host) if host else norm(acct)


def masto_account(account):
    account = obj(account)
    return masto_acct(account.get("acct"), account.get("url"))


ANCHOR = re.compile(r"<a\s([^>]*)>", re.I | re.S)
ATTR = re.compile(r"""([A-Za-z_:][-A-Za-z0-9_:.]*)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?""", re.S)


def content_links(content):
    import html
    if not isinstance(content, str):
        return []
    out = []
    for m in ANCHOR.finditer(content):
        attrs = {}
        for a in ATTR.finditer(m.group(1)):
            val = a.group(2) if a.group(2) is not None else a.group(3) if a.group(3) is not None else a.group(4) or ""
            attrs.setdefault(a.group(1).lower(), html.unescape(val))
        href = attrs.get("href")
        if href is None:
            continue
        classes = attrs.get("class", "").split()
        if "mention" in classes or "hashtag" in classes:
            continue
        out.append(href)
    return out


def masto_text(content):
    import html
    if not isinstance(content, str):
        return None
    return html.unescape(re.sub(r"<[^>]*>", "", content))


# ---------------------------------------------------------------- report

def read_into(run, paths, bad):
    """Every record of `paths` through run.value, then run.finish()."""
    def on_plain(name, data):
        for line, value in R.records(name, data, bad):
            run.value(value, name, line)

    def sink(name, data, error=None):
        if data is None:
            bad.add(name, 0, "unreadable: %s" % error)
        else:
            R.unpack(name, data, on_plain, bad)

    for path in paths:
        R.read_path(path, sink)
    run.finish()


def report(terms, paths, kinds, min_count, fmt):
    bad = R.Bad()
    run = Run(bad)
    read_into(run, paths, bad)

    result = {}
    for term in terms:
        seen, counts = set(), {}
        for p in run.posts:
            if p.pid in seen:
                continue
            if term == "*":
                ok = True
            elif term.startswith("#"):
                ok = term[1:] in p.tags
            elif term.startswith("@"):
                ok = any(("@" + (run.handle_for(v) if k == "did" else v)) == term for k, v in p.users)
            else:
                ok = p.text is not None and R.contains_word(norm(R.unescape(p.text)), term)
            if not ok:
                continue
            seen.add(p.pid)
            for key in run.mention_keys(p, kinds):
                counts[key] = counts.get(key, 0) + 1
        result[term] = (len(seen), counts)

    def rows(counts, kind):
        rs = [(m, n) for (k, m), n in counts.items() if k == kind and n >= min_count]
        rs.sort(key=lambda r: (-r[1], r[0].encode("utf-8")))
        return rs

    picked = [k for k in KIND_ORDER if k in kinds]
    if fmt == "json":
        doc = []
        for term in terms:
            n, counts = result[term]
            o = {"term": term, "tweets": n}
            for k in picked:
                o[KIND_FIELD[k]] = [{"mention": m, "count": c} for m, c in rows(counts, k)]
            doc.append(o)
        out = json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n"
    else:
        lines = ["term,type,mention,count\n"]
        for term in terms:
            counts = result[term][1]
            for k in picked:
                for m, c in rows(counts, k):
                    lines.append("%s,%s,%s,%d\n" % (R.csv_field(term), k, R.csv_field(m), c))
        out = "".join(lines)
    return out, bad


def main(argv=None):
    p = argparse.ArgumentParser(description="smashtag SPEC 16 reference report")
    p.add_argument("-t", "--term", action="append")
    p.add_argument("--kinds", default="hashtag,user")
    p.add_argument("--min-count", type=int, default=1)
    p.add_argument("--format", choices=("csv", "json"), default="csv")
    p.add_argument("args", nargs="*")
    a = p.parse_args(argv)
    if a.term:
        raw_terms, paths = a.term, a.args
    else:
        if not a.args:
            R.usage("give TERM PATH...")
        raw_terms, paths = [a.args[0]], a.args[1:]
    kinds = set(a.kinds.split(","))
    if not kinds <= set(KIND_ORDER) - {"symbol"}:
        R.usage("bad --kinds %r" % a.kinds)
    terms = []
    for raw in raw_terms:
        t = R.check_term(raw)
        if t not in terms:
            terms.append(t)
    out, bad = report(terms, paths or ["-"], kinds, a.min_count, a.format)
    sys.stdout.buffer.write(out.encode("utf-8"))
    for w in bad.where:
        sys.stderr.write("bad: %s\n" % w)
    sys.stderr.write("bad_records=%d\n" % bad.count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
