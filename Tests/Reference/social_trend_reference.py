#!/usr/bin/env python3
"""Independent reference of `smashtag trend` (SPEC §14) over tweets mixed
with Bluesky and Mastodon posts (SPEC §16).

NOT part of the product: stdlib-only Python written from SPEC.md (§5, §6,
§12.1-12.2, §13 `poster`, §14, §16) and the README's documented choices,
without the Swift sources.  It reads inputs with social_reference.py
(Jetstream events, post views, Mastodon statuses, handles) and reference.py
(tweets), and takes windows, numbers and the score from trend_reference.py.

    python3 social_trend_reference.py -t TERM [-t TERM...] --current WINDOW
        [--baseline previous|weekago|mean:K|A..B] [--now T] [--tz ZONE]
        [--min-authors N] [--by-tweets] [--all] [--top N]
        [--retweets include|exclude|only] [--kinds hashtag,user,poster] PATH...

prints what `smashtag trend -t TERM... PATH... [options] -q` prints as CSV.

What a post is (SPEC §16, §12.1):
- time: a tweet's created_at else its snowflake id; Bluesky `record.createdAt`,
  else the event's `time_us`; Mastodon `created_at`.  A fraction of a second is
  dropped (README "Times are compared in whole seconds"; SPEC silent), so
  example_ids of one second are ordered by id.
- retweet: a tweet's retweeted_status / v2 `retweeted` reference; a Bluesky
  repost (app.bsky.feed.repost); a Mastodon status with a non-null `reblog`.
  `--retweets` defaults to exclude (§14).
- identity/dedup: tweet id; AT-URI; Mastodon status `uri`.  A post counts once
  per term: its first copy read that the filters keep (SPEC §6, §12.2), at that
  copy's time, whether or not a window holds it (a later copy with another
  time adds nothing).
- author (distinct-author counts): screen name; DID; user@host.  Shown
  (top_authors, poster rows) as "@" + screen name / handle named else DID /
  user@host (social_reference.author_handle_for).
- users: tweets' screen names; Bluesky mention facets by DID shown by
  handle_for (handle named, else the handle the texts spell, else DID);
  Mastodon user@host.
- spellings (display): hashtags as written (NFC, trimmed, one '#' dropped,
  with '#'); a tweet's user mention as written; a Bluesky user and a Bluesky
  author as shown; a Mastodon acct as written, made user@host; a poster as
  written by its record (screen name / acct) or shown (Bluesky).
- example_ids: tweet ids in decimal, other posts their URI; ties of time by
  id: tweets numerically before URIs, URIs by bytes (DECISION, checked
  against smashtag; see /tmp/social_trend_findings.md).
"""

import os
import sys
import unicodedata
from fractions import Fraction

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference as R  # noqa: E402
import social_reference as S  # noqa: E402
import trend_reference as T  # noqa: E402

TYPE_RANK = {"hashtag": 0, "user": 1, "poster": 6}
KINDS = set(TYPE_RANK)


def nfc(s):
    return unicodedata.normalize("NFC", s)


class Info:
    """Per post (parallel to Run.posts): time (µs or None), retweet flag,
    author key, and raw spellings [(type, raw)] where raw is a string as
    written or ("did", DID) for a Bluesky account (shown at the end)."""
    __slots__ = ("time", "retweet", "spellings", "poster_spelling")

    def __init__(self, time, retweet, spellings, poster_spelling):
        self.time, self.retweet = time, retweet
        self.spellings, self.poster_spelling = spellings, poster_spelling


def tag_spelling(t):
    """A tag as written (trimmed as its key is), NFC, with its sign."""
    t = S.trimmed_tag(t)
    return "#" + nfc(t) if t else None


def bsky_spellings(record):
    out = []
    record = R.obj(record)
    facets = record.get("facets")
    for facet in facets if isinstance(facets, list) else []:
        feats = R.obj(facet).get("features")
        for feat in feats if isinstance(feats, list) else []:
            feat = R.obj(feat)
            typ = feat.get("$type")
            if typ == "app.bsky.richtext.facet#tag":
                sp = tag_spelling(feat.get("tag"))
                if sp:
                    out.append(("hashtag", sp))
            elif typ == "app.bsky.richtext.facet#mention":
                did = feat.get("did")
                if isinstance(did, str) and did:
                    out.append(("user", ("did", R.norm(did))))
    tags = record.get("tags")
    for t in tags if isinstance(tags, list) else []:
        sp = tag_spelling(t)
        if sp:
            out.append(("hashtag", sp))
    return out


def masto_written(acct, url):
    """An acct as written (NFC, case kept), made user@host with url's host."""
    if not isinstance(acct, str) or not acct:
        return None
    if "@" in acct:
        return nfc(acct)
    host = S.masto_host(url)
    return nfc(acct + "@" + host) if host else nfc(acct)


def masto_spellings(st):
    out = []
    tags = st.get("tags")
    for t in tags if isinstance(tags, list) else []:
        n = R.obj(t).get("name")
        if isinstance(n, str) and n:
            out.append(("hashtag", "#" + nfc(n)))
    ms = st.get("mentions")
    for m in ms if isinstance(ms, list) else []:
        w = masto_written(R.obj(m).get("acct"), R.obj(m).get("url"))
        if w:
            out.append(("user", "@" + w))
    return out


def us_of_seconds(t):
    return None if t is None else t * 1000000


class TRun(S.Run):
    def __init__(self, bad):
        super().__init__(bad)
        self.info = []

    def _add(self, before, info):
        if len(self.posts) > before:
            self.info.append(info)

    def tweet(self, tweet, ctx):
        # As social_reference.Run.tweet, with the tweet's facts kept.
        p, facts = super().tweet(tweet, ctx)
        sp = [("hashtag" if s[0] == "#" else "user", s) for s in facts["spellings"]]
        raw_who = R.author(tweet, ctx)
        self.info.append(Info(us_of_seconds(facts["time"]), facts["retweet"], sp,
                              "@" + nfc(raw_who) if raw_who else None))
        return p, facts

    def jetstream(self, ev, name, line):
        before = len(self.posts)
        super().jetstream(ev, name, line)
        if len(self.posts) == before:
            return
        commit = ev["commit"]
        record = commit["record"]
        t = S.event_time_us(ev, record)
        repost = commit["collection"] == S.REPOST
        self._add(before, Info(t, repost, [] if repost else bsky_spellings(record), None))

    def view(self, v, name, line):
        before = len(self.posts)
        super().view(v, name, line)
        if len(self.posts) == before:
            return
        record = v["record"]
        # SPEC §16: time `record.createdAt`, else `time_us` (a view has none).
        t = S.parse_iso_us(record.get("createdAt"))
        repost = self.posts[-1].repost_of is not None
        self._add(before, Info(t, repost, [] if repost else bsky_spellings(record), None))

    def mastodon(self, st, name, line):
        before = len(self.posts)
        super().mastodon(st, name, line)
        if len(self.posts) == before:
            return
        t = S.parse_iso_us(st.get("created_at"))
        sp = masto_spellings(st)
        rb = st.get("reblog")
        retweet = rb is not None  # SPEC §16: a non-null reblog
        if isinstance(rb, dict):
            sp += masto_spellings(rb)
            a = R.obj(rb.get("account"))
            w = masto_written(a.get("acct"), a.get("url"))
            if w:
                sp.append(("user", "@" + w))
        a = R.obj(st.get("account"))
        w = masto_written(a.get("acct"), a.get("url"))
        self._add(before, Info(t, retweet, sp, "@" + w if w else None))

    def finish(self):
        assert len(self.info) == len(self.posts)
        super().finish()
        # A repost carries its subject's spellings (first copy read) as its mentions.
        first = {}
        for p, i in zip(self.posts, self.info):
            if p.repost_of is None and p.pid[0] == "uri":
                first.setdefault(p.pid, i)
        for p, i in zip(self.posts, self.info):
            if p.repost_of is not None:
                s = first.get(("uri", p.repost_of))
                if s is not None:
                    i.spellings = list(s.spellings)


def matches(run, term, p):
    if term == "*":
        return True
    if term.startswith("#"):
        return term[1:] in p.tags
    if term.startswith("@"):
        # README: @did:... names a Bluesky account by its DID, @user@host a Mastodon account.
        return ("name", term[1:]) in p.users or ("did", term[1:]) in p.users
    if term.startswith("from:"):
        return p.author is not None and p.author[1] == term[5:]
    return p.text is not None and R.contains_word(R.norm(R.unescape(p.text)), term)


def shown_author(run, author):
    k, v = author
    return "@" + (run.author_handle_for(v) if k == "did" else v)


def spelled(run, raw):
    if isinstance(raw, tuple):
        return "@" + run.handle_for(raw[1])
    return raw


def pid_text(pid):
    return str(pid[1])


def pid_order(pid):
    k, v = pid
    return (0, v, b"") if k == "tweet" else (1, 0, v.encode("utf-8"))


def collect(terms, paths, filt, kinds, windows_us):
    bad = R.Bad()
    run = TRun(bad)
    S.read_into(run, paths, bad)

    out = {t: [] for t in terms}
    seen = {t: set() for t in terms}
    for p, i in zip(run.posts, run.info):
        if i.time is not None:
            # README (SPEC silent): "Times are compared in whole seconds": a
            # fraction of a second in createdAt / created_at / time_us is dropped.
            i.time = i.time // 1000000 * 1000000
        facts = {"time": i.time, "retweet": i.retweet, "lang": None}
        if not filt.keeps(facts):
            continue
        keys = run.mention_keys(p, kinds)
        sp = [(typ, spelled(run, raw)) for typ, raw in i.spellings]
        if "poster" in kinds and p.author is not None:
            if p.author[0] == "did":
                sp.append(("poster", shown_author(run, p.author)))
            elif i.poster_spelling:
                sp.append(("poster", i.poster_spelling))
        author = p.author[1] if p.author is not None else None
        shown = shown_author(run, p.author) if p.author is not None else None
        for term in terms:
            if p.pid in seen[term] or not matches(run, term, p):
                continue
            seen[term].add(p.pid)
            out[term].append((p.pid, i.time, keys, author, shown, sp))
    return out, bad


def rows(term, counted, current, baseline, scale, args):
    counts, carrying = T.window_counts(counted, current, baseline, scale)
    out = []
    for k, (ct, ca, bt, ba) in counts.items():
        typ, key = k
        e, score, ratio, status = T.scored(ct, ca, bt, ba, args)
        mine = carrying.get(k, [])
        by_author, shown_of, spellings = {}, {}, {}
        for pid, time, _, who, shown, sp in mine:
            if who is not None:
                by_author[who] = by_author.get(who, 0) + 1
                shown_of[who] = shown
            for s in set(x for t, x in sp if t == typ):
                if s[0] + R.norm(s[1:]) == key:
                    spellings[s] = spellings.get(s, 0) + 1
        # README: top authors ordered as shown (ties by the shown bytes).
        ranked = sorted(by_author.items(), key=lambda kv: (-kv[1], shown_of[kv[0]].encode("utf-8")))
        share = Fraction(ranked[0][1], len(mine)) if ranked and mine else Fraction(0)
        top = " ".join(shown_of[a] for a, _ in ranked[:3])
        earliest = sorted(mine, key=lambda p: (p[1], pid_order(p[0])))[:3]
        ids = " ".join(pid_text(p[0]) for p in earliest)
        out.append(dict(rank=TYPE_RANK[typ], kind=typ, key=key, display=R.display_of(spellings), ct=ct, ca=ca,
                        bt=bt, ba=ba, e=e, score=score, ratio=ratio, status=status, share=share, top=top, ids=ids))
    out = T.kept_in_order(out, args)
    return [T.csv_row(term, r) for r in out]


def main(argv=None):
    ap = T.arguments()
    ap.add_argument("--kinds", default="hashtag,user")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args(argv)
    kinds = set(args.kinds.split(","))
    if not kinds <= KINDS:
        R.usage("kinds supported here: hashtag,user,poster")
    terms = []
    for raw in args.term:
        t = raw if raw == "*" else R.check_term(raw)
        if t not in terms:
            terms.append(t)
    current, baseline, scale = T.windows(args)
    wins = [(a * 1000000, b * 1000000) for a, b in [current] + baseline]
    filt = R.Filter(retweets=args.retweets, need_time=True)
    counted, bad = collect(terms, args.paths, filt, kinds, wins)
    cur_us = wins[0]
    base_us = wins[1:]
    lines = [T.COLUMNS]
    for term in terms:
        lines += rows(term, counted[term], cur_us, base_us, scale, args)
    sys.stdout.buffer.write(("\n".join(lines) + "\n").encode("utf-8"))
    sys.stderr.write("bad_records=%d left_out=%d\n" % (bad.count, filt.left_out))


if __name__ == "__main__":
    main()
