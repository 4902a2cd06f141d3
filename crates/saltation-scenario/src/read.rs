//! Reading an input file's text: a regular UTF-8 file of bounded size (a model file, or the
//! CLI's study files).

use crate::FileError;
use std::path::Path;

/// Largest model file read (bytes): far above any real model, small enough that a wrong path
/// (a device, a huge data file) is refused instead of filling the memory.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads a UTF-8 text input file (a model or study file): a regular file of at most
/// [`MAX_FILE_BYTES`] (a FIFO or a device would block or never end).
pub fn read_text_file(path: &Path) -> Result<String, FileError> {
    use std::io::Read;
    let io = |source| FileError::Io {
        path: path.to_path_buf(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        )));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "{} bytes: a model file may have at most {MAX_FILE_BYTES}",
                meta.len()
            ),
        )));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(io)?;
    String::from_utf8(bytes).map_err(|e| {
        io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        ))
    })
}
