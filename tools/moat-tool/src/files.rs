//! Files in the working folder. Under moat the tool sees only its grants, so a
//! path outside them fails with "permission denied" or "not found"; these
//! messages say that in words the model can act on.

use std::io::ErrorKind;

pub fn describe(path: &str, e: std::io::Error) -> String {
    match e.kind() {
        ErrorKind::NotFound => format!("file not found: {}", path),
        ErrorKind::PermissionDenied => {
            format!("permission denied: {} (only files inside the working folder are accessible)", path)
        }
        _ => format!("cannot access {}: {}", path, e),
    }
}

pub fn read_file(path: &str) -> Result<Vec<u8>, String> {
    if path.is_empty() {
        return Err("the file path is empty".into());
    }
    let meta = std::fs::metadata(path).map_err(|e| describe(path, e))?;
    if meta.is_dir() {
        return Err(format!("{} is a folder, not a file", path));
    }
    std::fs::read(path).map_err(|e| describe(path, e))
}

pub fn read_text_file(path: &str) -> Result<String, String> {
    let bytes = read_file(path)?;
    String::from_utf8(bytes).map_err(|e| format!("{} is not valid UTF-8 (invalid byte at offset {})", path, e.utf8_error().valid_up_to()))
}

pub fn write_file(path: &str, data: &[u8]) -> Result<(), String> {
    if path.is_empty() {
        return Err("the output path is empty".into());
    }
    std::fs::write(path, data).map_err(|e| describe(path, e))
}
