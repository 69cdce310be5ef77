// libxlsxwriter, for `--format xlsx` (SPEC §12.6). Wrapped in Swift by
// Stages/Report/XLSXWorkbook.swift (every return code checked in one place)
// and used by Stages/Report/XLSXReport.swift.
#include <xlsxwriter.h>
