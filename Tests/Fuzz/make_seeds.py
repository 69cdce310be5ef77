#!/usr/bin/env python3
"""Builds a fuzzer target's seed folder from real dumps, read in place.

Usage: make_seeds.py [--target TARGET] OUT SOURCE...   (files or folders;
`make fuzz` passes ../shared/corpus and Tests/Fixtures for the stream
target). Each file gives its first 16 KiB and up to 50 of its lines (each
at most 16 KiB), so seeds stay within the fuzzer's -max_len and every
encoding the corpus holds is among them.

The other targets (FUZZ_TARGET, Tests/StagesTests/FuzzCheck.swift) add
what they read besides whole records:

  bluesky   every element of a JSON array (twitwi's pretty-printed
            firehose dumps) as one line, and each post's text (the target
            also reads its input as a Jetstream post's text, with facets)
  mastodon  each status as one line, and its HTML `content`, its
            account's name and its tags (the target also reads its input
            as a status's `content`)
  links     twitter-text's URL and cashtag cases, and every expanded URL
            and symbol of the tweets read (the target reads its input as a
            tweet's text, link and symbol)
  trend, posts
            the files as they are: `make fuzz` passes the lines `smashtag
            extract --trend` (`--posts`) writes of the fixtures
"""
import hashlib
import json
import os
import sys

LIMIT = 16 << 10


def files(paths):
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, names in os.walk(p):
                dirs.sort()
                for n in sorted(names):
                    yield os.path.join(root, n)
        elif os.path.isfile(p):
            yield p


def documents(data):
    """The JSON values of a file: a whole document, or one per line."""
    try:
        whole = json.loads(data)
        yield from whole if isinstance(whole, list) else [whole]
        return
    except ValueError:
        pass
    for line in data.split(b"\n"):
        try:
            yield json.loads(line)
        except ValueError:
            continue


def walk(value):
    """Every object inside a JSON value, itself included."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk(v)


def extra(target, data):
    """What a target reads besides whole records, as seeds."""
    out = []
    if target == "links" and data.lstrip()[:1] == b"{" and b'"tests"' in data[:64]:
        tests = json.loads(data).get("tests", {})
        for kind in ("urls", "urls_with_indices", "urls_with_directional_markers", "tco_urls_with_params",
                     "cashtags", "cashtags_with_indices"):
            out += [t["text"].encode() for t in tests.get(kind, []) if isinstance(t.get("text"), str)]
        return out
    for doc in documents(data):
        if target in ("bluesky", "mastodon") and isinstance(doc, dict):
            out.append(json.dumps(doc, ensure_ascii=False).encode())
        for obj in walk(doc):
            if target == "bluesky" and isinstance(obj.get("text"), str):
                out.append(obj["text"].encode())
            elif target == "mastodon":
                for key in ("content", "display_name", "spoiler_text"):
                    if isinstance(obj.get(key), str) and obj[key]:
                        out.append(obj[key].encode())
                if isinstance(obj.get("tags"), list):
                    out += [t["name"].encode() for t in obj["tags"] if isinstance(t, dict) and isinstance(t.get("name"), str)]
            elif target == "links":
                for key in ("expanded_url", "uri"):
                    if isinstance(obj.get(key), str) and obj[key].startswith("http"):
                        out.append(obj[key].encode())
                if isinstance(obj.get("symbols"), list) and obj["symbols"]:
                    out += [("$" + s["text"]).encode() for s in obj["symbols"] if isinstance(s, dict) and isinstance(s.get("text"), str)]
                    if obj.get("text") or obj.get("full_text"):
                        out.append(json.dumps(obj, ensure_ascii=False).encode())
    return out


def main():
    args = sys.argv[1:]
    target = "stream"
    if args[:1] == ["--target"]:
        target, args = args[1], args[2:]
    out, sources = args[0], args[1:]
    os.makedirs(out, exist_ok=True)
    written = 0
    for path in files(sources):
        with open(path, "rb") as f:
            data = f.read()
        pieces = [data[:LIMIT]] + [line for line in data.split(b"\n")[:50] if 0 < len(line) <= LIMIT]
        if target not in ("stream", "trend", "posts"):
            pieces += [p for p in extra(target, data) if 0 < len(p) <= LIMIT]
        for piece in pieces:
            name = hashlib.sha1(piece).hexdigest()
            target_path = os.path.join(out, name)
            if not os.path.exists(target_path):
                with open(target_path, "wb") as f:
                    f.write(piece)
                written += 1
    print(f"{written} seeds in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
