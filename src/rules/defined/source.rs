//! Reading a variant file from disk, bounded: only a regular file is read, it is opened
//! without blocking, and at most [`MAX_FILE_BYTES`] of it are read.
//!
//! A path comes from the protocol (`setoption name VariantPath value ...`), so it may name
//! anything: `/dev/zero` (endless), a FIFO (whose open and read block until a writer comes,
//! so that the engine would never read `quit`), a directory, a file of gigabytes. Each is
//! refused at once, before anything is read.

use super::limits::MAX_FILE_BYTES;

/// The text of the file at `path`, or why it cannot be read (one line of words).
pub(super) fn read(path: &str) -> Result<String, String> {
    crate::files::read_regular(path, MAX_FILE_BYTES, "a variant file").map_err(|e| {
        if e.contains(" bytes, more than ") {
            format!("{e}; see 'Limits' in docs/variant-files.md")
        } else {
            e
        }
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_of_bounded_size_are_read() {
        let e = read("/dev/zero").unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        let e = read("/").unwrap_err();
        assert!(e.contains("a directory"), "{e}");
        let dir = std::env::temp_dir().join(format!("strata-source-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.toml");
        std::fs::write(&big, vec![b'#'; MAX_FILE_BYTES + 1]).unwrap();
        let e = read(&big.to_string_lossy()).unwrap_err();
        assert!(e.contains("more than a variant file may have"), "{e}");
        std::fs::write(&big, vec![b'#'; MAX_FILE_BYTES]).unwrap();
        assert_eq!(read(&big.to_string_lossy()).unwrap().len(), MAX_FILE_BYTES);
        std::fs::write(&big, b"# a\n# \xff\n").unwrap();
        let e = read(&big.to_string_lossy()).unwrap_err();
        assert!(e.contains("line 2") && e.contains("UTF-8"), "{e}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
