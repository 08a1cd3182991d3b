//! Where `convert` and `new -o` write: standard output, or a file written whole or not at all.

use std::fs::File;
use std::path::{Path, PathBuf};

use crate::error::Error;

/// A file output: a temporary file next to OUT, renamed over it by [`Target::keep`]; dropped
/// without it, the temporary file is removed. An OUT that exists and is not a regular file
/// (`/dev/null`, a named pipe) is written directly.
pub(crate) struct Target {
    path: PathBuf,
    file: TargetFile,
}

enum TargetFile {
    Temporary(tempfile::NamedTempFile),
    Direct(File),
}

impl Target {
    pub(crate) fn create(path: &Path) -> Result<Target, Error> {
        let output = |source| Error::Output {
            path: path.to_owned(),
            source,
        };
        let file = match std::fs::metadata(path) {
            Ok(meta) if !meta.is_file() && !meta.is_dir() => {
                TargetFile::Direct(File::create(path).map_err(output)?)
            }
            _ => {
                let dir = match path.parent() {
                    Some(dir) if !dir.as_os_str().is_empty() => dir,
                    _ => Path::new("."),
                };
                let mut builder = tempfile::Builder::new();
                builder.prefix(".oid-convert-");
                // The mode a plain `File::create` gives (0666 less the umask), not tempfile's 0600.
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt;
                    builder.permissions(std::fs::Permissions::from_mode(0o666));
                }
                TargetFile::Temporary(builder.tempfile_in(dir).map_err(output)?)
            }
        };
        Ok(Target {
            path: path.to_owned(),
            file,
        })
    }

    pub(crate) fn file(&mut self) -> &mut File {
        match &mut self.file {
            TargetFile::Temporary(t) => t.as_file_mut(),
            TargetFile::Direct(f) => f,
        }
    }

    /// Renames the temporary file over OUT.
    pub(crate) fn keep(self) -> Result<(), Error> {
        match self.file {
            TargetFile::Temporary(t) => {
                t.persist(&self.path).map_err(|e| Error::Output {
                    path: self.path.clone(),
                    source: e.error,
                })?;
            }
            TargetFile::Direct(_) => {}
        }
        Ok(())
    }
}
