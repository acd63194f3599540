/// Constants of the on-disk log format. The human specification lives in
/// `Logbook.docc/OnDiskFormat.md`; every number here is described there.
enum LogFormat {
    /// The four bytes that open every batch header: "LBK1" read as ASCII.
    static let magic: UInt32 = 0x314B_424C
}
