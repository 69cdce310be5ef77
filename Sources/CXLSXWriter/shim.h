// libxlsxwriter, for `--format xlsx` (SPEC §12.6). Wrapped in Swift by
// Stages/Report/XLSXWorkbook.swift, which checks every return code in one place.
#include <xlsxwriter.h>
