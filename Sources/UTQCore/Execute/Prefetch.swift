/// How far ahead loops that read or write at random ask for their lines (CIntrinsics'
/// prefetch.h): far enough that a line from memory arrives before its row's turn.
enum Prefetch {
    /// Rows ahead. A gather of 100M rows at random from 80 MB, in C on two cores: 1.45-1.66 ns
    /// a row with 64 ahead, 1.23-1.50 with 128, 1.22-1.33 with 192; from 8 MB (10M rows) the
    /// same, 0.71-0.92, for all three. Counting 10M rows into a table of 1M ids: 0.56-0.61 ns
    /// a row with 64, 0.43-0.48 with 128. In a second trial 192 and 256 ahead were within
    /// 128's range at 100M rows (1.26-1.34 ns a row).
    static let rows = 128
}
