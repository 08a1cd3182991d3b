//! `oid sql ARGS...`: runs the `oid-sql` command, as `cargo foo` runs `cargo-foo` and `git foo`
//! runs `git-foo`. oid-sql (the oid-datafusion crate) carries DataFusion, far too heavy a
//! dependency for the `oid` command itself, so it is installed on its own.

use std::ffi::OsString;
use std::io;
use std::path::PathBuf;
use std::process::Command;

use crate::cli::SqlArgs;
use crate::error::Error;

/// The command run.
const NAME: &str = "oid-sql";

/// Runs `oid-sql` with `args`: the one next to the running `oid`, else the first on PATH. On
/// Unix the process becomes it (`exec`), so signals, standard streams and the exit status are
/// its own; elsewhere it is waited for and its exit status returned.
pub(crate) fn run(args: &SqlArgs) -> Result<u8, Error> {
    let program = beside_oid().unwrap_or_else(|| PathBuf::from(NAME));
    let mut command = Command::new(&program);
    command.args(&args.args);
    let started = |source: io::Error| {
        if source.kind() == io::ErrorKind::NotFound {
            Error::SqlMissing
        } else {
            Error::SqlStart {
                path: program.clone(),
                source,
            }
        }
    };
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // `exec` returns only when it failed.
        Err(started(command.exec()))
    }
    #[cfg(not(unix))]
    {
        let status = command.status().map_err(started)?;
        Ok(status
            .code()
            .and_then(|c| u8::try_from(c).ok())
            .unwrap_or(1))
    }
}

/// `oid-sql` in the folder of the running executable, when there is one.
fn beside_oid() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let path = exe.parent()?.join(OsString::from(format!(
        "{NAME}{}",
        std::env::consts::EXE_SUFFIX
    )));
    path.is_file().then_some(path)
}
