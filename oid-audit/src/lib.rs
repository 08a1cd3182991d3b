#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod analyze;
mod chains;
#[cfg(feature = "fixtures")]
pub mod fixtures;
mod report;
mod sources;
mod store;
mod values;

use std::fmt;
use std::io;
use std::path::PathBuf;

use oid_core::ObjectId;

pub use crate::report::{
    Busiest, BusiestValue, Finding, Kind, Machine, PerValue, Report, Run, Second, Series,
    SharedProcess, SourceSummary, Summary, Timeline,
};

/// What an audit allows and keeps. Built from [`Options::new`] and its setters.
#[derive(Clone, Debug)]
pub struct Options {
    now: u32,
    future_tolerance: u32,
    memory: usize,
    spill_dir: Option<PathBuf>,
    max_findings: usize,
    unseen_rate: u32,
    timeline_values: usize,
}

impl Options {
    /// The defaults, with `now` (seconds since the Unix epoch) as the present: ids dated more than
    /// a day after it are `implausible-time`.
    pub const fn new(now: u32) -> Options {
        Options {
            now,
            future_tolerance: 86_400,
            memory: 64 << 20,
            spill_dir: None,
            max_findings: 100,
            unseen_rate: 1 << 20,
            timeline_values: 0,
        }
    }

    /// How far past `now` an id may be dated before it is in the future (default a day: clocks
    /// of one fleet disagree, and data may be audited on another machine).
    #[must_use]
    pub const fn future_tolerance(mut self, seconds: u32) -> Options {
        self.future_tolerance = seconds;
        self
    }

    /// About how many bytes of runs to keep in memory before spilling them to temporary files
    /// (default 64 MiB). Usual inputs need far less: one run per generator and second.
    #[must_use]
    pub const fn memory(mut self, bytes: usize) -> Options {
        self.memory = bytes;
        self
    }

    /// Where spill files go (default the system's temporary folder).
    #[must_use]
    pub fn spill_dir(mut self, dir: impl Into<PathBuf>) -> Options {
        self.spill_dir = Some(dir.into());
        self
    }

    /// The most findings of each kind listed in the report (default 100); all are counted.
    #[must_use]
    pub const fn max_findings(mut self, n: usize) -> Options {
        self.max_findings = n;
        self
    }

    /// How many ids per second a generator may make that are not in the input, between two of
    /// its ids that are (default 2^20). A gap in the counters larger than that for the time
    /// between two ids is taken for another generator on the same random value.
    #[must_use]
    pub const fn unseen_rate(mut self, ids_per_second: u32) -> Options {
        self.unseen_rate = if ids_per_second == 0 {
            1
        } else {
            ids_per_second
        };
        self
    }

    /// Keep ids per second of the `n` busiest random values, and of all ids, in
    /// [`Report::timeline`] (default 0: no timeline).
    #[must_use]
    pub const fn timeline(mut self, n: usize) -> Options {
        self.timeline_values = n;
        self
    }
}

/// Why an audit could not finish.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A spill file could not be written or read.
    Spill(io::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Spill(e) => write!(f, "cannot use a temporary spill file: {e}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Spill(e) => Some(e),
        }
    }
}

/// Where an id came from: a handle from [`Audit::source`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Source(u32);

/// An audit in progress: add sources and ids, then [`finish`](Audit::finish).
#[derive(Debug)]
pub struct Audit {
    opts: Options,
    store: store::Store,
    names: Vec<String>,
    per_source: Vec<u64>,
}

impl Audit {
    /// An audit with these options.
    pub fn new(opts: Options) -> Audit {
        let store = store::Store::new(opts.memory, opts.spill_dir.clone());
        Audit {
            opts,
            store,
            names: Vec::new(),
            per_source: Vec::new(),
        }
    }

    /// A new source named `name` (a file name, a collection), for the evidence.
    pub fn source(&mut self, name: impl Into<String>) -> Source {
        self.names.push(name.into());
        self.per_source.push(0);
        Source((self.names.len() - 1) as u32)
    }

    /// Adds one id read from `source`.
    ///
    /// # Errors
    /// When runs had to be spilled and the spill file failed.
    #[inline]
    pub fn push(&mut self, id: ObjectId, source: Source) -> Result<(), Error> {
        let (t, r, c) = parts(&id);
        if let Some(n) = self.per_source.get_mut(source.0 as usize) {
            *n += 1;
        }
        self.store.push(r, t, c, source.0)
    }

    /// Adds ids read from `source`, in order: the same as [`push`](Audit::push) for each of
    /// them, but faster for ids one generator made one after another (those of one random value
    /// and second with counters rising by one), which are added as one run.
    ///
    /// # Errors
    /// When runs had to be spilled and the spill file failed.
    pub fn push_all(&mut self, ids: &[ObjectId], source: Source) -> Result<(), Error> {
        if let Some(n) = self.per_source.get_mut(source.0 as usize) {
            *n += ids.len() as u64;
        }
        let mut rest = ids;
        while let Some((first, more)) = rest.split_first() {
            // The next id of the run has the same `hi` and `lo` one more, without a carry out
            // of the counter (`0xffffff` wraps to 0, which starts another run).
            let (hi, mut lo) = halves(first);
            let mut n = 1_usize;
            for id in more {
                let (next_hi, next_lo) = halves(id);
                if next_hi != hi || next_lo != lo.wrapping_add(1) || next_lo & 0xff_ffff == 0 {
                    break;
                }
                lo = next_lo;
                n += 1;
            }
            let (t, r, c) = parts(first);
            // `n` ids of consecutive counters from `c`, all below 2^24: `n` fits a `u32`.
            self.store.push_run(r, t, c, n as u32, source.0)?;
            rest = &rest[n..];
        }
        Ok(())
    }

    /// Ids read so far.
    pub fn ids(&self) -> u64 {
        self.per_source.iter().sum()
    }

    /// The analysis of every id added.
    ///
    /// # Errors
    /// When a spill file could not be read back.
    pub fn finish(self) -> Result<Report, Error> {
        let (merged, per_second, _) = self.store.finish()?;
        analyze::Analysis::new(&self.opts, &self.names).run(merged, per_second, &self.per_source)
    }
}

/// An id's second, random value and counter.
#[inline]
const fn parts(id: &ObjectId) -> (u32, u64, u32) {
    let b = id.bytes();
    let t = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    let r = u64::from_be_bytes([0, 0, 0, b[4], b[5], b[6], b[7], b[8]]);
    let c = u32::from_be_bytes([0, b[9], b[10], b[11]]);
    (t, r, c)
}

/// An id as two words: its second and the random value's first 4 bytes, then the value's last
/// byte and the counter.
#[inline]
const fn halves(id: &ObjectId) -> (u64, u32) {
    let b = id.bytes();
    let hi = u64::from_be_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
    let lo = u32::from_be_bytes([b[8], b[9], b[10], b[11]]);
    (hi, lo)
}
