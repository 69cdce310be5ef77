/// Versions of the libraries smashtag runs with, for `smashtag --version`.
public enum Versions {
    /// `libarchive 3.6.2 zlib/1.2.13 liblzma/5.4.1 bz2lib/1.0.8 libzstd/1.5.4 …`, then `SQLite 3.40.1 (store schema 2)`.
    public static var libraries: String {
        ArchiveReader.version + "\nSQLite \(Database.version) (store schema \(Schema.current))"
    }
}
