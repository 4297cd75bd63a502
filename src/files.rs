//! Files named from outside (a protocol option, a command line, a variant file's path),
//! opened so that no name can block the engine or cost memory without end.
//!
//! A path may name anything: `/dev/zero` (endless), a FIFO (whose open blocks until the other
//! end comes, so that the engine would never read `quit`), a directory, a file of gigabytes.
//! [`read_regular`] reads only a regular file, opened without blocking, and at most a given
//! number of bytes of it; [`create_regular`] opens only a regular file (new or not) for
//! writing, without blocking. Each refuses anything else at once.

use std::fs::{File, OpenOptions};
use std::io::Read;

/// Opens with `options`, on Unix with `O_NONBLOCK`, so that a FIFO's open returns at once
/// (a regular file reads and writes as usual with the flag).
fn open_nonblocking(mut options: OpenOptions, path: &str) -> std::io::Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    options.open(path)
}

/// Why the file opened is not a regular file, if it is not. The metadata is the opened
/// file's, not the path's: nothing can be swapped in between.
fn not_regular(file: &File) -> Result<(), String> {
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if meta.is_file() {
        return Ok(());
    }
    Err(if meta.is_dir() {
        "a directory, not a regular file".into()
    } else {
        "a device, FIFO or socket, not a regular file".into()
    })
}

/// The text of the regular file at `path`, of at most `limit` bytes, or why it cannot be
/// read (one line of words, without the path). `what` names the file in the error about its
/// size (`a variant file`).
pub fn read_regular(path: &str, limit: usize, what: &str) -> Result<String, String> {
    let bytes = read_regular_bytes(path, limit, what)?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        format!("line {line}: the file is not UTF-8 text")
    })
}

/// The bytes of the regular file at `path`, at most `limit` of them, or why it cannot be
/// read, as [`read_regular`].
pub fn read_regular_bytes(path: &str, limit: usize, what: &str) -> Result<Vec<u8>, String> {
    let mut options = OpenOptions::new();
    options.read(true);
    let file = open_nonblocking(options, path).map_err(|e| format!("cannot read the file: {e}"))?;
    not_regular(&file).map_err(|e| format!("{e}: cannot be {what}"))?;
    let too_big = |n: u64| format!("the file has {n} bytes, more than {what} may have ({limit})");
    let len = file
        .metadata()
        .map_err(|e| format!("cannot read the file: {e}"))?
        .len();
    if len > limit as u64 {
        return Err(too_big(len));
    }
    // The file may grow after the metadata was read: read one byte more than allowed, to
    // tell a file of exactly the limit from a longer one.
    let mut bytes = Vec::new();
    file.take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the file: {e}"))?;
    if bytes.len() > limit {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Opens the regular file at `path` for reading, of any size (the caller bounds what it
/// reads); a FIFO, device or directory is refused at once.
pub fn open_regular(path: &str) -> Result<File, String> {
    let mut options = OpenOptions::new();
    options.read(true);
    let file = open_nonblocking(options, path).map_err(|e| e.to_string())?;
    not_regular(&file)?;
    Ok(file)
}

/// Opens the regular file at `path` for writing, created if it does not exist, emptied if
/// it does; a FIFO, device or directory is refused at once.
pub fn create_regular(path: &str) -> Result<File, String> {
    let mut options = OpenOptions::new();
    options.write(true).create(true);
    let file = open_nonblocking(options, path).map_err(|e| e.to_string())?;
    not_regular(&file)?;
    file.set_len(0).map_err(|e| e.to_string())?;
    Ok(file)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_of_bounded_size_are_read_or_written() {
        let e = read_regular("/dev/zero", 10, "a test file").unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        let e = read_regular("/", 10, "a test file").unwrap_err();
        assert!(e.contains("a directory"), "{e}");
        let dir = std::env::temp_dir().join(format!("strata-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big.txt");
        let path = big.to_string_lossy().to_string();
        std::fs::write(&big, vec![b'#'; 101]).unwrap();
        let e = read_regular(&path, 100, "a test file").unwrap_err();
        assert!(e.contains("more than a test file may have (100)"), "{e}");
        std::fs::write(&big, vec![b'#'; 100]).unwrap();
        assert_eq!(read_regular(&path, 100, "a test file").unwrap().len(), 100);
        std::fs::write(&big, b"# a\n# \xff\n").unwrap();
        let e = read_regular(&path, 100, "a test file").unwrap_err();
        assert!(e.contains("line 2") && e.contains("UTF-8"), "{e}");
        // Writing: a regular file is emptied and written; a FIFO without a reader, a device
        // and a directory are refused without waiting.
        let mut f = create_regular(&path).unwrap();
        std::io::Write::write_all(&mut f, b"log").unwrap();
        drop(f);
        assert_eq!(std::fs::read(&big).unwrap(), b"log");
        let fifo = dir.join("fifo");
        let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).unwrap();
        // SAFETY: mkfifo(3) with a valid NUL-terminated path; no memory is shared.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let fifo = fifo.to_string_lossy().to_string();
        assert!(create_regular(&fifo).is_err());
        assert!(read_regular(&fifo, 100, "a test file").is_err());
        assert!(create_regular(&dir.to_string_lossy()).is_err());
        let _ = std::fs::remove_dir_all(dir);
    }
}
