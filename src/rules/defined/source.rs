//! Reading a variant file from disk, bounded: only a regular file is read, it is opened
//! without blocking, and at most [`MAX_FILE_BYTES`] of it are read.
//!
//! A path comes from the protocol (`setoption name VariantPath value ...`), so it may name
//! anything: `/dev/zero` (endless), a FIFO (whose open and read block until a writer comes,
//! so that the engine would never read `quit`), a directory, a file of gigabytes. Each is
//! refused at once, before anything is read.

use std::fs::{File, OpenOptions};
use std::io::Read;

use super::limits::MAX_FILE_BYTES;

/// The text of the file at `path`, or why it cannot be read (one line of words).
pub(super) fn read(path: &str) -> Result<String, String> {
    let file = open(path).map_err(|e| format!("cannot read the file: {e}"))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("cannot read the file: {e}"))?;
    // The metadata of the file opened, not of the path: nothing can be swapped in between.
    if !meta.is_file() {
        let kind = if meta.is_dir() {
            "a directory"
        } else {
            "a device, FIFO or socket"
        };
        return Err(format!(
            "{kind}, not a regular file: cannot be a variant file"
        ));
    }
    let too_big = |n: u64| {
        format!(
            "the file has {n} bytes, more than a variant file may have ({MAX_FILE_BYTES}); \
             see 'Limits' in docs/variant-files.md"
        )
    };
    if meta.len() > MAX_FILE_BYTES as u64 {
        return Err(too_big(meta.len()));
    }
    // The file may grow after the metadata was read: read one byte more than allowed, to
    // tell a file of exactly the limit from a longer one.
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the file: {e}"))?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(too_big(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        format!("line {line}: the file is not UTF-8 text")
    })
}

/// Opens `path` for reading without waiting: on Unix with `O_NONBLOCK`, so that opening a
/// FIFO without a writer returns at once (a regular file reads as usual with the flag).
fn open(path: &str) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
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
