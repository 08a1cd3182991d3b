//! The progress bar of long conversions, on standard error, drawn by indicatif.
//!
//! It is drawn only when standard error is a terminal, and only once a conversion has run for
//! [`DELAY`]: a short run, a pipe, a file or `2>/dev/null` never see it. Messages written while
//! it is shown go through [`Progress::suspend`], which clears it and draws it again after them.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a conversion runs before its bar appears.
const DELAY: Duration = Duration::from_millis(500);

/// What a bar counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unit {
    /// Bytes of a file of lines.
    Bytes,
    /// Rows of a column.
    Rows,
}

/// A progress bar that may never be drawn.
#[derive(Debug)]
pub(crate) struct Progress {
    /// `None`: never drawn (standard error is not a terminal, or the command shows none).
    bar: Option<Bar>,
}

#[derive(Debug)]
struct Bar {
    bar: ProgressBar,
    started: Instant,
    /// Whether the bar is drawn yet (after [`DELAY`]).
    shown: std::cell::Cell<bool>,
}

impl Progress {
    /// No bar.
    pub(crate) const fn none() -> Progress {
        Progress { bar: None }
    }

    /// A bar on standard error when it is a terminal; none otherwise.
    pub(crate) fn on_stderr() -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress::none();
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        Progress {
            bar: Some(Bar {
                bar,
                started: Instant::now(),
                shown: std::cell::Cell::new(false),
            }),
        }
    }

    /// Starts counting one input, `name`, of `total` units when known.
    pub(crate) fn start(&self, name: &str, total: Option<u64>, unit: Unit) {
        let Some(b) = &self.bar else { return };
        let counts = match (unit, total) {
            (Unit::Bytes, Some(_)) => "{binary_bytes}/{binary_total_bytes}",
            (Unit::Bytes, None) => "{binary_bytes}",
            (Unit::Rows, Some(_)) => "{human_pos}/{human_len} rows",
            (Unit::Rows, None) => "{human_pos} rows",
        };
        let template = if total.is_some() {
            format!("{{msg}} {{wide_bar}} {counts} {{eta}}")
        } else {
            format!("{{msg}} {{spinner}} {counts}")
        };
        // The templates above are constants of this file: a failure is a bug, shown as no bar.
        if let Ok(style) = ProgressStyle::with_template(&template) {
            b.bar.set_style(style);
        }
        b.bar.set_length(total.unwrap_or(0));
        b.bar.set_position(0);
        b.bar.set_message(name.to_owned());
        if total.is_none() {
            b.bar.unset_length();
        }
    }

    /// Counts `n` more units done.
    pub(crate) fn advance(&self, n: u64) {
        let Some(b) = &self.bar else { return };
        b.bar.inc(n);
        if !b.shown.get() && b.started.elapsed() >= DELAY {
            b.shown.set(true);
            b.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    /// Runs `f` (which writes to standard error) with the bar cleared.
    pub(crate) fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(b) if b.shown.get() => b.bar.suspend(f),
            _ => f(),
        }
    }

    /// Clears the bar for good.
    pub(crate) fn finish(&self) {
        if let Some(b) = &self.bar {
            b.bar.finish_and_clear();
        }
    }
}
