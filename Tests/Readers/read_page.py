"""What a real browser (headless Chromium) makes of a page, as JSON.

    python read_page.py PAGE.html WORK-FOLDER [WIDTH HEIGHT]

Loads the page three times: for the DOM as Chromium built it (--dump-dom),
for a screenshot, and printed (--print-to-pdf, to count its pages); each
time with a network log (--log-net-log). Prints
the DOM's elements and text (parsed with html.parser), every request the
page made according to the network log (the browser's own requests, such as
its update check, have no initiator and are left out; no name is resolved,
so none of them leaves the machine), and what the screenshot holds (size,
share of pixels that are not background, pixels of each bar colour).
"""
import html.parser
import json
import os
import re
import subprocess
import sys

from PIL import Image

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-default-apps",
         "--mute-audio", "--no-default-browser-check", "--disable-client-side-phishing-detection",
         "--disable-domain-reliability", "--no-pings",
         "--disable-features=NetworkTimeServiceQuerying,OptimizationHints,AutofillServerCommunication,"
         "CertificateTransparencyComponentUpdater,SafeBrowsing",
         "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"]


class DOM(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = {}
        self.texts = []
        self.attributes = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self.attributes += [[tag, k, v] for k, v in attrs]
        if tag in ("style", "title") and not self.skip:
            self.skip = tag

    def handle_endtag(self, tag):
        if tag == self.skip:
            self.skip = 0

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.texts.append(data.strip())


def page_requests(log):
    """URLs of the requests a page started (URL_REQUEST_START_JOB with an initiator)."""
    names = {v: k for k, v in log["constants"]["logEventTypes"].items()}
    found = set()
    for event in log["events"]:
        params = event.get("params") or {}
        if (names.get(event["type"]) == "URL_REQUEST_START_JOB" and "url" in params
                and params.get("initiator") != "not an origin"):
            found.add(params.get("url"))
    return found


def chromium(page, work, name, extra):
    log = os.path.join(work, name + "-netlog.json")
    profile = os.path.join(work, name + "-profile")
    run = subprocess.run(["chromium"] + FLAGS + ["--user-data-dir=" + profile, "--log-net-log=" + log] + extra
                         + ["file://" + os.path.abspath(page)], capture_output=True, timeout=120)
    with open(log, encoding="utf-8") as f:
        text = f.read().rstrip().rstrip(",")
    if not text.endswith("}"):  # a log cut short at exit: close its list of events
        text = text.rstrip("]").rstrip().rstrip(",") + "]}"
    return run.stdout.decode("utf-8"), page_requests(json.loads(text))


def main():
    page, work = sys.argv[1], sys.argv[2]
    width, height = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (390, 2400)
    os.makedirs(work, exist_ok=True)
    dom_text, found = chromium(page, work, "dom", ["--dump-dom"])
    shot = os.path.join(work, "screenshot.png")
    _, found2 = chromium(page, work, "shot", ["--screenshot=" + shot, "--window-size=%d,%d" % (width, height)])
    pdf = os.path.join(work, "printed.pdf")
    _, found3 = chromium(page, work, "print", ["--print-to-pdf=" + pdf, "--no-pdf-header-footer"])
    with open(pdf, "rb") as f:
        pages = len(re.findall(rb"/Type\s*/Page[^s]", f.read()))
    me = "file://" + os.path.abspath(page)
    requests = sorted(u for u in found | found2 | found3 if u != me)
    dom = DOM()
    dom.feed(dom_text)
    image = Image.open(shot).convert("RGB")
    pixels = list(image.get_flattened_data()) if hasattr(image, "get_flattened_data") else list(image.getdata())
    background = max(set(pixels[:2000]), key=pixels[:2000].count)

    def near(rgb, p):
        return all(abs(a - b) <= 12 for a, b in zip(rgb, p))

    json.dump({
        "tags": dom.tags,
        "texts": dom.texts,
        "attributes": dom.attributes,
        "requests": requests,
        "printed_pages": pages,
        "screenshot": {
            "width": image.width, "height": image.height,
            "not_background": sum(1 for p in pixels if p != background) / len(pixels),
            "hashtag_bar_pixels": sum(1 for p in pixels if near((0x2F, 0x6D, 0xB5), p)),
            "user_bar_pixels": sum(1 for p in pixels if near((0xD9, 0x82, 0x2B), p)),
        },
    }, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
