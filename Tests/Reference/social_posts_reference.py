#!/usr/bin/env python3
"""Independent reference of `smashtag posts` (SPEC 15) over Bluesky and
Mastodon posts (SPEC 16), mixed with tweets.  Written from SPEC.md and the
README's documented choices, NOT from the Swift sources.  Reads inputs with
social_reference.py (Jetstream events, post views, Mastodon statuses) and
reference.py / posts_reference.py (tweets).

    social_posts_reference.py -t TERM [-t TERM...] [--min-count N] [--top N]
                              [--columns LIST] PATH...

prints what `smashtag posts -t TERM... PATH... --format csv -q` prints.

What it reads (SPEC 15/16; README "posts" paragraph of the Bluesky section
where the SPEC is silent, marked README):
- retweet: a tweet's retweeted tweet; a Bluesky repost's subject.uri; a
  Mastodon status's non-null reblog (its `uri`).  A retweet counts only as
  a retweet (README).
- quote (README): a Bluesky record's embed.record.uri
  (app.bsky.embed.record) or embed.record.record.uri
  (app.bsky.embed.recordWithMedia), when it names an app.bsky.feed.post; a
  Mastodon status's quote.quoted_status.uri.
- reply (README): a Bluesky record's reply.parent.uri (when it names an
  app.bsky.feed.post: SPEC and README silent, smashtag's behaviour); a Mastodon
  in_reply_to_id is not counted.
- what is said of X: X's own record (its first copy read) says author, time
  and text; fields it leaves unsaid come from the first copy read that says
  them: an AT-URI names its author (the DID); a Mastodon reblog's status and
  a quote's quoted_status (author, time, text); a post view's `embed`
  (app.bsky.embed.record#view / recordWithMedia#view: author DID,
  value.createdAt, value.text); a feed item's reply.parent view.
- Bluesky author: "@" + handle named by an identity event / post view (the
  latest by time), else "@" + DID (SPEC 16: spellings name mentioned users
  only, not authors).
- order: retweets, quotes, replies descending, then tweet ids numerically,
  then other ids by their bytes (README).
"""

import argparse
import datetime
import html
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference as R  # noqa: E402
import social_reference as S  # noqa: E402
import posts_reference as P  # noqa: E402

COLUMNS = ["term", "id", "author", "created_at", "retweets", "quotes", "replies", "text"]
POST = S.POST


# ------------------------------------------------------------------ Mastodon text



def masto_text(content):
    """README: content read by an HTML parser, tags removed, entities
    decoded, <br> a line break, paragraphs separated by a blank line."""
    if not isinstance(content, str):
        return None
    s = re.sub(r"<br\s*/?>", "\n", content, flags=re.I)
    # a paragraph's end followed by more content is a blank line (also "<p>a</p>b", as smashtag does)
    s = re.sub(r"</p\s*>\s*(?=\S)", "\n\n", s, flags=re.I)
    s = re.sub(r"<[^>]*>", "", s)
    return html.unescape(s)


S.masto_text = masto_text


def did_of_uri(uri):
    """The repo DID an AT-URI names (normalised), or None."""
    if not isinstance(uri, str):
        return None
    m = re.match(r"\Aat://(did:[^/\s]+)/", uri)
    return R.norm(m.group(1)) if m else None


def collection_of_uri(uri):
    m = re.match(r"\Aat://[^/]+/([^/]+)/", uri) if isinstance(uri, str) else None
    return m.group(1) if m else None


def seconds_iso(s):
    us = S.parse_iso_us(s)
    return us // 1000000 if us is not None else None


class PRun(S.Run):
    def __init__(self, bad):
        super().__init__(bad)
        self.refs = []       # parallel to self.posts: (retweet_of, quote_of, reply_to)
        self.own = {}        # pid -> (author, time, Post)   (first own record)
        self.copied = {}     # pid -> [author, time, text]   (first copy saying each)

    # -- bookkeeping
    def _added(self, before, refs, author, time, copies):
        if len(self.posts) == before:
            return False
        p = self.posts[-1]
        self.refs.append(refs)
        if p.pid not in self.own:
            self.own[p.pid] = (author, time, p)
        for pid, a, t, x in copies:
            self.copy(pid, a, t, x)
        return True

    def copy(self, pid, a, t, x):
        if pid is None:
            return
        have = self.copied.setdefault(pid, [None, None, None])
        for k, v in enumerate((a, t, x)):
            if have[k] is None and v is not None:
                have[k] = v

    # -- dispatch: social_reference.Run.value, with feed items' reply.parent and tweets' references
    def feed_item(self, item, name, line):
        super().feed_item(item, name, line)
        self.view_copy(R.obj(R.obj(item.get("reply")).get("parent")))

    def tweet(self, tweet, ctx):
        p, facts = super().tweet(tweet, ctx)
        tid = R.tweet_id(tweet)
        (rt, q, rp), copies = P.references(tweet, ctx)
        refs = tuple(("tweet", x) if x is not None else None for x in (rt, q, rp))
        self._added(len(self.posts) - 1, refs, p.author, R.tweet_time(tweet.get("created_at"), tid),
                    [(("tweet", i), ("name", a) if a else None, t, x) for i, a, t, x in copies])
        return p, facts

    # -- Bluesky
    def bsky_refs(self, record):
        """(quote_of, reply_to) of a post record, and the copies their URIs make."""
        record = R.obj(record)
        embed = R.obj(record.get("embed"))
        q = None
        if embed.get("$type") == "app.bsky.embed.record":
            q = R.obj(embed.get("record")).get("uri")
        elif embed.get("$type") == "app.bsky.embed.recordWithMedia":
            q = R.obj(R.obj(embed.get("record")).get("record")).get("uri")
        if not (isinstance(q, str) and q.startswith("at://") and collection_of_uri(q) == POST):
            q = None
        rp = R.obj(R.obj(record.get("reply")).get("parent")).get("uri")
        # DECISION (SPEC silent; as smashtag does): a parent that is not an
        # app.bsky.feed.post (a list, a feed, a non-AT URI) names no reply, as for quotes.
        if not (isinstance(rp, str) and rp.startswith("at://") and collection_of_uri(rp) == POST):
            rp = None
        copies = []
        for u in (q, rp):
            if u is not None and did_of_uri(u):
                copies.append((("uri", u), ("did", did_of_uri(u)), None, None))
        return q, rp, copies

    def jetstream(self, ev, name, line):
        before = len(self.posts)
        super().jetstream(ev, name, line)
        if len(self.posts) == before:
            return
        commit = ev["commit"]
        record = commit["record"]
        us = S.event_time_us(ev, record)
        t = us // 1000000 if us is not None else None
        self._bluesky_added(before, record, t)

    def _bluesky_added(self, before, record, t):
        """The Bluesky post just read: what it retweets (a repost), or quotes and answers."""
        p = self.posts[-1]
        if p.repost_of is not None:
            s = p.repost_of
            copies = [(("uri", s), ("did", did_of_uri(s)), None, None)] if did_of_uri(s) else []
            self._added(before, (("uri", s), None, None), p.author, t, copies)
        else:
            q, rp, copies = self.bsky_refs(record)
            self._added(before, (None, ("uri", q) if q else None, ("uri", rp) if rp else None), p.author, t, copies)

    def view(self, v, name, line):
        before = len(self.posts)
        super().view(v, name, line)
        if len(self.posts) == before:
            return
        record = v["record"]
        t = seconds_iso(record.get("createdAt"))
        self._bluesky_added(before, record, t)
        # The view's own embed: a copy of the post it quotes.
        embed = R.obj(v.get("embed"))
        rec = None
        if embed.get("$type") == "app.bsky.embed.record#view":
            rec = R.obj(embed.get("record"))
        elif embed.get("$type") == "app.bsky.embed.recordWithMedia#view":
            rec = R.obj(R.obj(embed.get("record")).get("record"))
        if rec:
            self.embedded_view(rec)

    def embedded_view(self, rec):
        """A viewRecord {uri, author{did}, value{createdAt,text}}: a copy."""
        self.shown_copy(rec, "value")

    def view_copy(self, parent):
        """A feed item's reply.parent: a post view of the post its post answers."""
        self.shown_copy(parent, "record")

    def shown_copy(self, view, member):
        """What a view {uri, author{did}, MEMBER{createdAt,text}} says of its post: a copy."""
        uri = view.get("uri")
        record = view.get(member)
        if not (isinstance(uri, str) and uri.startswith("at://") and isinstance(record, dict)):
            return
        did = R.obj(view.get("author")).get("did")
        a = ("did", R.norm(did)) if isinstance(did, str) and did else (
            ("did", did_of_uri(uri)) if did_of_uri(uri) else None)
        x = record.get("text") if isinstance(record.get("text"), str) else None
        self.copy(("uri", uri), a, seconds_iso(record.get("createdAt")), x)

    # -- Mastodon
    def mastodon(self, st, name, line):
        before = len(self.posts)
        super().mastodon(st, name, line)
        if len(self.posts) == before:
            return
        p = self.posts[-1]
        t = seconds_iso(st.get("created_at"))
        rb = st.get("reblog")
        copies = []
        refs = (None, None, None)
        if isinstance(rb, dict):
            u = rb.get("uri")
            if isinstance(u, str) and S.MASTO_URI.match(u):
                refs = (("uri", u), None, None)
                copies.append(self.masto_copy(rb))
        else:
            qs = R.obj(st.get("quote")).get("quoted_status")
            if isinstance(qs, dict):
                u = qs.get("uri")
                if isinstance(u, str) and S.MASTO_URI.match(u):
                    refs = (None, ("uri", u), None)
                    copies.append(self.masto_copy(qs))
        self._added(before, refs, p.author, t, copies)

    def masto_copy(self, st):
        a = S.masto_account(st.get("account"))
        return (("uri", st["uri"]), ("name", a) if a else None, seconds_iso(st.get("created_at")),
                masto_text(st.get("content")))

    # -- the end
    author_spellings = False

    def author_shown(self, a):
        if a is None:
            return ""
        k, v = a
        if k == "did":
            if self.author_spellings:
                return "@" + self.handle_for(v)  # README: spellings name authors too
            return "@" + (self.handles[v][1] if v in self.handles else v)
        return "@" + v


def matches(run, term, p):
    if term == "*":
        return True
    if term.startswith("#"):
        return term[1:] in p.tags
    if term.startswith("@"):
        return any(("@" + (run.handle_for(v) if k == "did" else v)) == term for k, v in p.users)
    if term.startswith("from:"):
        return p.author is not None and run.author_shown(p.author)[1:] == term[5:]
    return p.text is not None and R.contains_word(R.norm(R.unescape(p.text)), term)


def sort_key(pid):
    k, v = pid
    return (0, v, b"") if k == "tweet" else (1, 0, v.encode("utf-8"))


def iso(t):
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def posts(terms, paths, min_count, top, columns):
    bad = R.Bad()
    run = PRun(bad)
    S.read_into(run, paths, bad)
    assert len(run.refs) == len(run.posts)

    lines = [",".join(columns)]
    for term in terms:
        seen, counts = set(), {}
        for p, refs in zip(run.posts, run.refs):
            if p.pid in seen or not matches(run, term, p):
                continue
            seen.add(p.pid)
            for k, x in enumerate(refs):
                if x is not None:
                    counts.setdefault(x, [0, 0, 0])[k] += 1
        rows = [(x, c) for x, c in counts.items() if sum(c) >= min_count]
        rows.sort(key=lambda r: (-r[1][0], -r[1][1], -r[1][2], sort_key(r[0])))
        if top is not None:
            rows = rows[:top]
        for x, c in rows:
            a, t, post = run.own.get(x, (None, None, None))
            text = post.text if post is not None else None
            ca, ct, cx = run.copied.get(x, (None, None, None))
            a = a if a is not None else ca
            t = t if t is not None else ct
            text = text if text is not None else cx
            if t is None and x[0] == "tweet" and x[1] >= R.FIRST_SNOWFLAKE:
                t = ((x[1] >> 22) + R.TWITTER_EPOCH_MS) // 1000
            value = {"term": term, "id": str(x[1]), "author": run.author_shown(a),
                     "created_at": iso(t) if t is not None else "", "retweets": str(c[0]),
                     "quotes": str(c[1]), "replies": str(c[2]), "text": text if text is not None else ""}
            lines.append(",".join(R.csv_field(value[k]) for k in columns))
    return "\n".join(lines) + "\n", bad


def main(argv=None):
    ap = argparse.ArgumentParser(description="smashtag posts reference (Bluesky, Mastodon, tweets)")
    ap.add_argument("-t", "--term", action="append", required=True)
    ap.add_argument("--min-count", type=int, default=2)
    ap.add_argument("--top", type=int)
    ap.add_argument("--columns", default=",".join(COLUMNS[:7]))
    ap.add_argument("--author-spellings", action="store_true",
                    help="show a Bluesky author with no handle named by the handle mention facets spell "
                         "(README's choice; SPEC 16 says @did)")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args(argv)
    PRun.author_spellings = a.author_spellings
    terms = []
    for raw in a.term:
        t = R.check_term(raw)
        if t not in terms:
            terms.append(t)
    out, bad = posts(terms, a.paths, a.min_count, a.top, a.columns.split(","))
    sys.stdout.buffer.write(out.encode("utf-8"))
    sys.stderr.write("bad_records=%d\n" % bad.count)


if __name__ == "__main__":
    main()
