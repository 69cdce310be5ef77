"""What a real reader (openpyxl) sees in a workbook, as JSON on stdout.

    python read_xlsx.py report.xlsx

For each sheet: its title, frozen panes, column widths, every cell as
[value, openpyxl data type] ('s' text, 'n' number, 'f' formula, 'd' date),
and its charts with each series' references and the cells they point to.
The tests compare this with what smashtag printed as CSV and with the
reference's expectations; nothing here knows what the workbook should hold.
"""
import datetime
import json
import re
import sys

import openpyxl
from openpyxl.utils.escape import unescape


def cells_of(workbook, ref):
    """The values of the cells a chart reference such as 'Sheet'!$F$2:$F$9 names."""
    match = re.fullmatch(r"(?:'((?:[^']|'')+)'|([^!]+))!(.+)", ref)
    sheet = (match.group(1) or "").replace("''", "'") or match.group(2)
    rows = workbook[sheet][match.group(3).replace("$", "")]
    if not isinstance(rows, tuple):
        rows = ((rows,),)
    return [value(cell.value) for row in rows for cell in row]


def value(v):
    if isinstance(v, (datetime.datetime, datetime.date)):
        return v.isoformat()
    if isinstance(v, str):
        # Control characters are stored as _xHHHH_ (ECMA-376 ST_Xstring),
        # which Excel decodes and openpyxl leaves to its caller.
        return unescape(v)
    return v


def main():
    workbook = openpyxl.load_workbook(sys.argv[1])
    sheets = []
    for ws in workbook.worksheets:
        charts = []
        for chart in ws._charts:
            series = []
            for s in chart.series:
                cat = s.cat.strRef.f if s.cat is not None and s.cat.strRef is not None else None
                val = s.val.numRef.f if s.val is not None and s.val.numRef is not None else None
                name = s.tx.v if s.tx is not None else None
                if name is None and s.tx is not None and s.tx.strRef is not None:
                    name = (cells_of(workbook, s.tx.strRef.f) or [None])[0]
                series.append({
                    "name": name,
                    "categories": cat,
                    "values": val,
                    "category_cells": cells_of(workbook, cat) if cat else [],
                    "value_cells": cells_of(workbook, val) if val else [],
                })
            charts.append({"kind": type(chart).__name__, "bar_direction": getattr(chart, "type", None),
                           "series": series})
        sheets.append({
            "title": ws.title,
            "freeze": ws.freeze_panes,
            "widths": {k: d.width for k, d in ws.column_dimensions.items()},
            "rows": [[[value(c.value), c.data_type] for c in row] for row in ws.iter_rows()],
            "charts": charts,
        })
    json.dump({"sheets": sheets}, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
