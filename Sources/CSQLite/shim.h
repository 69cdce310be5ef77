// The SQLite API smashtag uses for its store. Wrapped in Swift by
// Stages/Store/Database.swift, which checks every return code in one place.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot
// import as a macro: this is the same value, typed.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return (sqlite3_destructor_type)-1;
}
