//! `oid audit`: read ids from every input, streamed, into an `oid_audit::Audit`, and print its
//! report (text or JSON), and optionally a page with the timeline.
//!
//! Inputs are read whole before anything is printed: an input that cannot be read stops the
//! audit with a message naming it (exit status 2), and no report is printed.

mod args;
mod columns;
mod read;
mod text;

use std::io::{BufRead, Write};
use std::path::Path;

use oid_audit::{Audit, Options, Report};

pub(crate) use self::args::{AUDIT_EXAMPLES, AuditArgs};
use self::args::{AuditFormat, AuditInput};
use self::read::{Failure, Select};
use crate::columns::Kind;
use crate::error::{Error, Status};
use crate::progress::Progress;
use crate::stderr::Messages;

/// Busiest random values drawn on the page's timeline.
const TIMELINE_VALUES: usize = 8;

/// Runs `oid audit`.
pub(crate) fn run(
    args: &AuditArgs,
    stdin: impl BufRead,
    out: &mut impl Write,
    err: &mut impl Messages,
) -> Result<Status, Error> {
    let now = match args.now {
        Some(t) => t.seconds(),
        None => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| u32::try_from(d.as_secs()).unwrap_or(u32::MAX)),
    };
    let opts = Options::new(now)
        .future_tolerance(args.future_tolerance)
        .memory(args.memory.saturating_mul(1 << 20))
        .max_findings(args.max_findings)
        .unseen_rate(args.unseen_rate)
        .timeline(if args.report.is_some() {
            TIMELINE_VALUES
        } else {
            0
        });
    let progress = Progress::on_stderr();
    let report = read_all(args, opts, stdin, &progress);
    progress.finish();
    let report = match report {
        Ok(report) => report,
        Err(failure) => {
            let _ = writeln!(err, "oid: {failure}");
            return Ok(Status::Unreadable);
        }
    };
    match args.format {
        AuditFormat::Text => text::write(out, &report)?,
        AuditFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, &report).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
    }
    if let Some(path) = &args.report
        && let Err(e) = std::fs::write(path, text::html(&report))
    {
        let _ = writeln!(err, "oid: cannot write {}: {e}", path.display());
        return Ok(Status::Unreadable);
    }
    Ok(if report.has_findings() {
        Status::Invalid
    } else {
        Status::Ok
    })
}

fn read_all(
    args: &AuditArgs,
    opts: Options,
    stdin: impl BufRead,
    progress: &Progress,
) -> Result<Report, Failure> {
    let mut audit = Audit::new(opts);
    let dash = [Path::new("-").to_path_buf()];
    let inputs = if args.inputs.is_empty() {
        &dash[..]
    } else {
        &args.inputs[..]
    };
    let select = Select {
        field: &args.field,
        column: args.column.as_deref().unwrap_or("_id"),
    };
    let mut stdin = Some(stdin);
    for path in inputs {
        let is_stdin = path.as_os_str() == "-";
        let name = if is_stdin {
            "standard input".to_owned()
        } else {
            path.display().to_string()
        };
        let source = audit.source(name.clone());
        let mut push = |ids: &[oid_std::ObjectId]| {
            audit
                .push_all(ids, source)
                .map_err(|e| Failure(e.to_string()))
        };
        if is_stdin {
            // Standard input is read once; a second `-` finds it at its end.
            let Some(mut r) = stdin.take() else { continue };
            let head = r
                .fill_buf()
                .map_err(|e| Failure(format!("cannot read {name}: {e}")))?;
            let form = form_of(args.input_format, "-", head);
            if let Some(kind) = column_kind(form, None, head) {
                let column = args.column.as_deref();
                columns::read(
                    &name,
                    |f| crate::columns::read_stdin(r, kind, column, progress, f),
                    &mut push,
                )?;
                continue;
            }
            progress.start(&name, None, read::unit(form));
            read::read(form, &name, &mut r, select, progress, &mut push)?;
        } else {
            let (mut r, len) = read::open(path)?;
            let head = r
                .fill_buf()
                .map_err(|e| Failure(format!("cannot read {name}: {e}")))?;
            let form = form_of(args.input_format, &name, head);
            if let Some(kind) = column_kind(form, Some(path), head) {
                let column = args.column.as_deref();
                columns::read(
                    &name,
                    |f| crate::columns::read_file(r, path, kind, column, progress, f),
                    &mut push,
                )?;
                continue;
            }
            progress.start(&name, len, read::unit(form));
            read::read(form, &name, &mut r, select, progress, &mut push)?;
        }
    }
    audit.finish().map_err(|e| Failure(e.to_string()))
}

/// The column file format of an input of form `form`, if it is one.
fn column_kind(form: AuditInput, path: Option<&Path>, head: &[u8]) -> Option<Kind> {
    match form {
        AuditInput::Parquet => Some(Kind::Parquet),
        AuditInput::Arrow => Some(
            Kind::sniff(head)
                .or_else(|| path.and_then(Kind::of_extension))
                .filter(|k| *k != Kind::Parquet)
                .unwrap_or(Kind::ArrowFile),
        ),
        _ => None,
    }
}

fn form_of(given: AuditInput, name: &str, head: &[u8]) -> AuditInput {
    match given {
        AuditInput::Auto => read::detect(name, head),
        form => form,
    }
}
