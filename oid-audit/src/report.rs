//! What an audit reports: the summary, the findings with their evidence, and the timeline. The
//! serde field names are the JSON report's, and are stable (documented in the README and in
//! `docs/cli.md`).

use std::collections::BTreeMap;
use std::fmt;

use oid_core::ObjectId;
use serde::{Deserialize, Serialize};

/// The kind of a [`Finding`]; its JSON `kind` is the kebab-case name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// One id more than once, in one source or across sources.
    DuplicateId,
    /// One random value used by more than one generator.
    SharedRandomValue,
    /// More than 2^24 ids in one second of one random value.
    OverCapacity,
    /// Inside one generator's counter run, a later id with an earlier second.
    ClockStepBack,
    /// Ids dated in the future, before MongoDB existed, or at the 2106 wrap.
    ImplausibleTime,
    /// Ids in the pre-3.4 layout (machine id and process id instead of a random value).
    LegacyLayout,
    /// Random values that look made, not drawn.
    WeakRandomValue,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 7] = [
        Kind::DuplicateId,
        Kind::SharedRandomValue,
        Kind::OverCapacity,
        Kind::ClockStepBack,
        Kind::ImplausibleTime,
        Kind::LegacyLayout,
        Kind::WeakRandomValue,
    ];

    /// The JSON name: `duplicate-id`, `shared-random-value`, ...
    pub const fn name(self) -> &'static str {
        match self {
            Kind::DuplicateId => "duplicate-id",
            Kind::SharedRandomValue => "shared-random-value",
            Kind::OverCapacity => "over-capacity",
            Kind::ClockStepBack => "clock-step-back",
            Kind::ImplausibleTime => "implausible-time",
            Kind::LegacyLayout => "legacy-layout",
            Kind::WeakRandomValue => "weak-random-value",
        }
    }

    /// What a finding of this kind means, in a sentence.
    pub const fn meaning(self) -> &'static str {
        match self {
            Kind::DuplicateId => {
                "The same id was found more than once: either the data was copied (an import run twice, \
                 shards or files that overlap), or two generators made the same id, which a unique \
                 index rejects as a duplicate-key error."
            }
            Kind::SharedRandomValue => {
                "More than one generator used this random value: their counters run side by side or \
                 start over, so they can make the same id whenever their counters meet in one second."
            }
            Kind::OverCapacity => {
                "More ids were made in one second with one random value than its 2^24 counters hold: \
                 some of them necessarily repeat."
            }
            Kind::ClockStepBack => {
                "A generator's clock went back: ids made later carry an earlier second, so ids no \
                 longer sort by creation time, and a generator that does not guard against it can \
                 reuse counters of the earlier second."
            }
            Kind::ImplausibleTime => {
                "Ids carry a time that cannot be when they were made: in the future, before MongoDB \
                 existed (2009), or at the end of the 32-bit seconds (2106), so a clock was wrong or the \
                 ids were not made by a clock."
            }
            Kind::LegacyLayout => {
                "These ids use the pre-3.4 layout (a 3-byte machine id and a 2-byte process id instead of \
                 a random value): they are unique only while no two processes share both, which clones \
                 and containers (every one process 1) break."
            }
            Kind::WeakRandomValue => {
                "These random values look made rather than drawn: generators seeded this way meet far \
                 more often than chance allows."
            }
        }
    }

    /// What to do about a finding of this kind, in a sentence.
    pub const fn action(self) -> &'static str {
        match self {
            Kind::DuplicateId => {
                "Check where each copy came from (the sources below); if they are different documents, \
                 give one a new id and fix the generator that made both."
            }
            Kind::SharedRandomValue => {
                "Find the processes that made these ids (the sources and seconds below): reseed after \
                 fork, clone or snapshot restore, and never seed two processes alike (oid-std does both)."
            }
            Kind::OverCapacity => {
                "Use a generator that keeps to the capacity (waits or changes its random value past 2^24 \
                 ids in a second), and look for the repeated ids."
            }
            Kind::ClockStepBack => {
                "Fix the clock of the machine that made them (NTP stepping instead of slewing, a manual \
                 set, a restored snapshot), and use a generator that keeps its seconds from going back."
            }
            Kind::ImplausibleTime => {
                "Fix the clock of the machine that made them, or the code that built ids from a \
                 timestamp of its own; queries by id time will misplace these documents."
            }
            Kind::LegacyLayout => {
                "Upgrade the driver that made them (any driver after 2017 draws a random value); until \
                 then, make sure machine ids and process ids are unique across hosts and containers."
            }
            Kind::WeakRandomValue => {
                "Seed the generator from the operating system's random source (getrandom), not from a \
                 time, a process id or a counter."
            }
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A second, with its RFC 3339 form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Second {
    /// Seconds since the Unix epoch, as in the id.
    pub second: u32,
    /// The same, as RFC 3339 in UTC.
    pub time: String,
}

impl Second {
    /// `second`, with its RFC 3339 form.
    pub fn new(second: u32) -> Second {
        Second {
            second,
            time: ObjectId::min_for_timestamp(second).rfc3339().to_string(),
        }
    }
}

/// How many ids one random value holds, over all values.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PerValue {
    /// The most ids of one random value.
    pub max: u64,
    /// The median of ids per random value (the lower middle one for an even count).
    pub median: u64,
}

/// The busiest second of the input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Busiest {
    /// The second.
    #[serde(flatten)]
    pub second: Second,
    /// Ids dated in it (all random values).
    pub ids: u64,
}

/// The busiest second of one random value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BusiestValue {
    /// The random value, 10 hex digits.
    pub random_value: String,
    /// The second.
    #[serde(flatten)]
    pub second: Second,
    /// Ids of this value dated in it.
    pub ids: u64,
}

/// What the input held.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Ids read.
    pub ids: u64,
    /// Different ids among them.
    pub distinct_ids: u64,
    /// `ids - distinct_ids`: the extra copies.
    pub duplicate_ids: u64,
    /// The earliest second of an id.
    pub first: Option<Second>,
    /// The latest second of an id.
    pub last: Option<Second>,
    /// Different random values (each is a generator start, unless shared).
    pub random_values: u64,
    /// Ids per random value.
    pub ids_per_value: PerValue,
    /// The second with the most ids.
    pub busiest_second: Option<Busiest>,
    /// The second and random value with the most ids.
    pub busiest_value_second: Option<BusiestValue>,
}

/// One source (file) read, and how many ids it gave.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceSummary {
    /// The name it was added with.
    pub name: String,
    /// Ids read from it.
    pub ids: u64,
}

/// One generator's run of ids in a finding: a random value, its seconds and counters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    /// The random value, 10 hex digits.
    pub random_value: String,
    /// The first second of the run.
    pub first: Second,
    /// The last second of the run.
    pub last: Second,
    /// The counter of the run's first id.
    pub first_counter: u32,
    /// The counter of the run's last id.
    pub last_counter: u32,
    /// Ids in the run.
    pub ids: u64,
    /// The sources its ids came from.
    pub sources: Vec<String>,
}

/// A legacy machine id and the process ids seen with it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Machine {
    /// The 3-byte machine id, 6 hex digits.
    pub machine: String,
    /// The 2-byte process ids seen with it.
    pub processes: Vec<u16>,
    /// Ids of this machine.
    pub ids: u64,
}

/// A legacy process id seen on more than one machine id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedProcess {
    /// The 2-byte process id.
    pub process: u16,
    /// The machine ids it was seen with.
    pub machines: Vec<String>,
}

/// One finding, with its evidence. Fields that do not apply to a kind are left out of the JSON.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// What was found.
    pub kind: Kind,
    /// One line saying what, where and how much.
    pub message: String,
    /// What it means (the same for every finding of a kind).
    pub meaning: String,
    /// What to do (the same for every finding of a kind).
    pub action: String,
    /// The random values concerned, 10 hex digits each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub random_values: Vec<String>,
    /// The first second concerned.
    pub first: Second,
    /// The last second concerned.
    pub last: Second,
    /// How many ids are concerned (for `duplicate-id`, the extra copies).
    pub ids: u64,
    /// The generators' runs concerned: for `shared-random-value` one per generator, for
    /// `duplicate-id` and `over-capacity` the repeated counters, for `clock-step-back` the run
    /// before and the run after the step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<Run>,
    /// Some of the ids concerned, 24 hex digits each.
    pub examples: Vec<String>,
    /// The sources the ids concerned came from.
    pub sources: Vec<String>,
    /// `clock-step-back`: how many seconds back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_seconds: Option<u64>,
    /// `shared-random-value`: `interleaved` (two runs in the same seconds) or `restarted` (a
    /// run that starts over after another); `implausible-time`: `future`, `before-mongodb` or
    /// `wrap`; `weak-random-value`: `zero`, `repeated-byte`, `small`, `consecutive` or `time`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `weak-random-value` and `legacy-layout`: how many such values (or groups) would be
    /// expected by chance among this many random values drawn at random.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_by_chance: Option<f64>,
    /// `legacy-layout`: the machine ids and their process ids.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub machines: Vec<Machine>,
    /// `legacy-layout`: process ids seen on more than one machine id.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shared_processes: Vec<SharedProcess>,
}

/// Ids per second of one random value, for the timeline.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Series {
    /// The random value, 10 hex digits (empty for all values together).
    pub random_value: String,
    /// Ids in all.
    pub ids: u64,
    /// Seconds per point (1, or more when a long series was folded).
    pub step: u32,
    /// (first second of the point, ids in it), in time order.
    pub points: Vec<(u32, u64)>,
}

/// Ids over time: all values together and the busiest random values.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timeline {
    /// All ids.
    pub all: Series,
    /// The random values with the most ids, most first.
    pub busiest: Vec<Series>,
}

/// The result of an audit.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// What the input held.
    pub summary: Summary,
    /// Findings per kind (kinds without any are left out).
    pub counts: BTreeMap<Kind, u64>,
    /// The findings, by kind then random value; at most
    /// [`Options::max_findings`](crate::Options::max_findings) of each kind.
    pub findings: Vec<Finding>,
    /// Findings counted in `counts` but left out of `findings` by the limit.
    pub omitted: u64,
    /// The sources, in the order they were added.
    pub sources: Vec<SourceSummary>,
    /// Ids over time, for a chart (left out of the JSON report unless asked for).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeline: Option<Timeline>,
}

impl Report {
    /// Whether anything was found.
    pub fn has_findings(&self) -> bool {
        !self.counts.is_empty()
    }

    /// The findings of one kind.
    pub fn of_kind(&self, kind: Kind) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(move |f| f.kind == kind)
    }
}

/// A random value as 10 hex digits.
pub(crate) fn value_hex(r: u64) -> String {
    format!("{r:010x}")
}

/// The id of second `t`, value `r` and counter `c`, as hex.
pub(crate) fn id_hex(t: u32, r: u64, c: u32) -> String {
    let b = r.to_be_bytes();
    ObjectId::from_parts(t, [b[3], b[4], b[5], b[6], b[7]], c).to_string()
}
