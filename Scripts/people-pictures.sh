#!/bin/sh
# The README's pictures of the reports for people, from samples/:
#   doc/report-html.png   the page as headless Chromium shows it (1000 px wide)
#   doc/report-xlsx.png   the workbook's #stanford sheet as LibreOffice prints it
# Needs a built smashtag (make build), make people-readers (Chromium, the
# venv with Pillow) and LibreOffice Calc with pdftoppm
# (apt-get install libreoffice-calc-nogui poppler-utils).
set -eu
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/debug/smashtag}
PY=${PY:-.build/people-venv/bin/python}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$BIN" report -t '#stanford' -t @nasa samples/ --top 15 -o "$work/report.html" -q
"$BIN" report -t '#stanford' -t @nasa samples/ --top 15 -o "$work/report.xlsx" -q
"$PY" Tests/Readers/read_page.py "$work/report.html" "$work/chromium" 1000 1500 >/dev/null
soffice --headless --convert-to pdf --outdir "$work" "$work/report.xlsx" >/dev/null 2>&1
pdftoppm -png -r 110 -f 2 -l 2 "$work/report.pdf" "$work/sheet"
"$PY" - "$work" <<'PY'
import glob, sys
from PIL import Image, ImageOps
work = sys.argv[1]
def save(im, path):
    im.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
save(Image.open(work + "/chromium/screenshot.png"), "doc/report-html.png")
sheet = Image.open(glob.glob(work + "/sheet*.png")[0]).convert("RGB")
box = ImageOps.invert(sheet).getbbox()
save(sheet.crop((max(0, box[0] - 16), max(0, box[1] - 16), min(sheet.width, box[2] + 16), min(sheet.height, box[3] + 16))),
     "doc/report-xlsx.png")
PY
ls -l doc/report-html.png doc/report-xlsx.png
