//! The pass over the merged runs, in (random value, second, counter) order: duplicates and
//! capacity per second, generators per value, values across values.

use std::collections::BTreeMap;

use rustc_hash::FxHashMap;

use crate::chains::{COUNTERS, Iv, Walk, Walked};
use crate::report::{
    Busiest, BusiestValue, Finding, Kind, Machine, PerValue, Report, Run, Second, Series,
    SharedProcess, SourceSummary, Summary, Timeline, id_hex, value_hex,
};
use crate::sources::SrcSet;
use crate::store::{Merged, Seg};
use crate::values::{Legacy, ValueRec, Values, machine_process};
use crate::{Error, Options};

/// Counter ranges and examples kept per finding.
const EVIDENCE: usize = 8;

/// Points of a timeline series before it is folded to twice the step.
const MAX_POINTS: usize = 4096;

/// The last second before MongoDB's first release year, 2009-01-01T00:00:00Z.
const MONGODB_EPOCH: u32 = 1_230_768_000;

/// Seconds before the field wraps (2106-02-07T06:28:15Z) taken for "at the wrap".
const WRAP_DAYS: u32 = 86_400;

#[derive(Debug, Default)]
struct Acc {
    ids: u64,
    first_t: u32,
    last_t: u32,
    runs: Vec<(u32, u32, u32, SrcSet)>,
    examples: Vec<String>,
    srcs: SrcSet,
}

impl Acc {
    fn add(&mut self, r: u64, t: u32, c: u32, n: u32, srcs: &SrcSet) {
        if self.ids == 0 {
            self.first_t = t;
        }
        self.ids += u64::from(n);
        self.last_t = self.last_t.max(t);
        self.first_t = self.first_t.min(t);
        if self.runs.len() < EVIDENCE {
            self.runs.push((t, c, c + n - 1, srcs.clone()));
        }
        if self.examples.len() < EVIDENCE {
            self.examples.push(id_hex(t, r, c));
        }
        self.srcs.extend(srcs);
    }
}

#[derive(Debug, Default)]
struct Folding {
    step: u32,
    points: Vec<(u32, u64)>,
    ids: u64,
}

impl Folding {
    fn add(&mut self, t: u32, n: u64) {
        if self.step == 0 {
            self.step = 1;
        }
        self.ids += n;
        let start = t - t % self.step;
        match self.points.last_mut() {
            Some(last) if last.0 == start => last.1 += n,
            _ => self.points.push((start, n)),
        }
        if self.points.len() >= MAX_POINTS * 2 {
            self.step = self.step.saturating_mul(2);
            let step = self.step;
            let mut folded: Vec<(u32, u64)> = Vec::with_capacity(MAX_POINTS);
            for (t, n) in self.points.drain(..) {
                let start = t - t % step;
                match folded.last_mut() {
                    Some(last) if last.0 == start => last.1 += n,
                    _ => folded.push((start, n)),
                }
            }
            self.points = folded;
        }
    }

    fn series(self, random_value: String) -> Series {
        Series {
            random_value,
            ids: self.ids,
            step: self.step.max(1),
            points: self.points,
        }
    }
}

/// The state of the value being walked.
#[derive(Debug)]
struct Value {
    r: u64,
    ids: u64,
    first_t: u32,
    first_c: u32,
    last_t: u32,
    srcs: SrcSet,
    walk: Walk,
    dups: Acc,
    implausible: [Acc; 3],
    series: Folding,
}

/// The state of the (value, second) being walked.
#[derive(Debug, Default)]
struct Sec {
    t: u32,
    total: u64,
    covered_end: u32,
    active: Vec<(u32, u32)>,
    ivs: Vec<Iv>,
    cur: Option<Iv>,
}

pub(crate) struct Analysis<'a> {
    opts: &'a Options,
    names: &'a [String],
    report: Report,
    findings: BTreeMap<Kind, Vec<Finding>>,
    value: Option<Value>,
    sec: Sec,
    values: Values,
    per_value: BTreeMap<u64, u64>,
    busiest: Vec<Series>,
    busiest_value_second: Option<(u64, u32, u64)>,
    first_t: u32,
    last_t: u32,
    distinct: u64,
    ids: u64,
}

impl<'a> Analysis<'a> {
    pub(crate) fn new(opts: &'a Options, names: &'a [String]) -> Analysis<'a> {
        Analysis {
            opts,
            names,
            report: Report::default(),
            findings: BTreeMap::new(),
            value: None,
            sec: Sec::default(),
            values: Values::default(),
            per_value: BTreeMap::new(),
            busiest: Vec::new(),
            busiest_value_second: None,
            first_t: u32::MAX,
            last_t: 0,
            distinct: 0,
            ids: 0,
        }
    }

    pub(crate) fn run(
        mut self,
        mut merged: Merged,
        per_second: FxHashMap<u32, u64>,
        per_source: &[u64],
    ) -> Result<Report, Error> {
        while let Some(seg) = merged.next()? {
            self.seg(seg);
        }
        self.end_value();
        Ok(self.finish(per_second, per_source))
    }

    fn seg(&mut self, s: Seg) {
        if self.value.as_ref().is_none_or(|v| v.r != s.r) {
            self.end_value();
            self.value = Some(Value {
                r: s.r,
                ids: 0,
                first_t: s.t,
                first_c: s.c,
                last_t: s.t,
                srcs: SrcSet::default(),
                walk: Walk::new(self.opts.unseen_rate),
                dups: Acc::default(),
                implausible: Default::default(),
                series: Folding::default(),
            });
            self.sec = Sec {
                t: s.t,
                ..Sec::default()
            };
        } else if self.sec.t != s.t {
            self.end_second();
            self.sec.t = s.t;
        }
        self.ids += u64::from(s.n);
        self.first_t = self.first_t.min(s.t);
        self.last_t = self.last_t.max(s.t);
        let sec = &mut self.sec;
        sec.total += u64::from(s.n);
        let Some(v) = self.value.as_mut() else {
            return;
        };
        v.ids += u64::from(s.n);
        v.last_t = s.t;
        v.srcs.add(s.src);
        if s.c < sec.covered_end {
            // Repeated counters: every earlier run of this second reaching past `s.c` starts at or
            // before it, so the ones covered are `s.c..min(end, covered_end)`.
            let n = s.end().min(sec.covered_end) - s.c;
            let mut srcs = SrcSet::one(s.src);
            for &(end, src) in &sec.active {
                if end > s.c {
                    srcs.add(src);
                }
            }
            v.dups.add(s.r, s.t, s.c, n, &srcs);
        }
        sec.active.retain(|&(end, _)| end > s.c);
        if sec.active.len() < 64 {
            sec.active.push((s.end(), s.src));
        }
        sec.covered_end = sec.covered_end.max(s.end());
        match &mut sec.cur {
            Some(iv) if s.c <= iv.e => {
                iv.e = iv.e.max(s.end());
                iv.srcs.add(s.src);
            }
            cur => {
                if let Some(done) = cur.take() {
                    sec.ivs.push(done);
                }
                *cur = Some(Iv {
                    c: s.c,
                    e: s.end(),
                    srcs: SrcSet::one(s.src),
                });
            }
        }
    }

    fn end_second(&mut self) {
        let Some(v) = self.value.as_mut() else {
            return;
        };
        let sec = &mut self.sec;
        if let Some(done) = sec.cur.take() {
            sec.ivs.push(done);
        }
        let t = sec.t;
        let distinct: u64 = sec.ivs.iter().map(|iv| u64::from(iv.e - iv.c)).sum();
        self.distinct += distinct;
        v.series.add(t, sec.total);
        if self
            .busiest_value_second
            .is_none_or(|(_, _, n)| sec.total > n)
        {
            self.busiest_value_second = Some((v.r, t, sec.total));
        }
        if sec.total > u64::from(COUNTERS) {
            let mut srcs = SrcSet::default();
            for iv in &sec.ivs {
                srcs.extend(&iv.srcs);
            }
            let f = Finding {
                kind: Kind::OverCapacity,
                message: format!(
                    "random value {}: {} ids in the second {}, {} more than its 2^24 counters",
                    value_hex(v.r),
                    sec.total,
                    Second::new(t).time,
                    sec.total - u64::from(COUNTERS)
                ),
                random_values: vec![value_hex(v.r)],
                first: Second::new(t),
                last: Second::new(t),
                ids: sec.total,
                runs: sec
                    .ivs
                    .iter()
                    .take(EVIDENCE)
                    .map(|iv| {
                        run(
                            v.r,
                            t,
                            t,
                            iv.c,
                            iv.e - 1,
                            u64::from(iv.e - iv.c),
                            &iv.srcs,
                            self.names,
                        )
                    })
                    .collect(),
                examples: sec
                    .ivs
                    .iter()
                    .take(EVIDENCE)
                    .map(|iv| id_hex(t, v.r, iv.c))
                    .collect(),
                sources: srcs.names(self.names),
                ..finding(Kind::OverCapacity)
            };
            push_finding(&mut self.findings, f);
        }
        let reason = if t > u32::MAX - WRAP_DAYS {
            Some(2)
        } else if t < MONGODB_EPOCH {
            Some(1)
        } else if t > self.opts.now.saturating_add(self.opts.future_tolerance) {
            Some(0)
        } else {
            None
        };
        if let Some(reason) = reason {
            let mut srcs = SrcSet::default();
            for iv in &sec.ivs {
                srcs.extend(&iv.srcs);
            }
            let first = &sec.ivs[0];
            let acc = &mut v.implausible[reason];
            acc.add(v.r, t, first.c, first.e - first.c, &srcs);
            acc.ids += distinct - u64::from(first.e - first.c);
        }
        v.walk.second(t, &sec.ivs);
        sec.ivs.clear();
        sec.active.clear();
        sec.covered_end = 0;
        sec.total = 0;
    }

    fn end_value(&mut self) {
        if self.value.is_none() {
            return;
        }
        self.end_second();
        let Some(v) = self.value.take() else {
            return;
        };
        let hex = value_hex(v.r);
        *self.per_value.entry(v.ids).or_insert(0) += 1;
        // Duplicates.
        if v.dups.ids > 0 {
            let d = v.dups;
            let f = Finding {
                kind: Kind::DuplicateId,
                message: format!(
                    "random value {hex}: {} id{} found more than once, {} to {}",
                    d.ids,
                    if d.ids == 1 { "" } else { "s" },
                    Second::new(d.first_t).time,
                    Second::new(d.last_t).time
                ),
                random_values: vec![hex.clone()],
                first: Second::new(d.first_t),
                last: Second::new(d.last_t),
                ids: d.ids,
                runs: d
                    .runs
                    .iter()
                    .map(|(t, c, l, s)| {
                        run(v.r, *t, *t, *c, *l, u64::from(l - c + 1), s, self.names)
                    })
                    .collect(),
                examples: d.examples,
                sources: d.srcs.names(self.names),
                ..finding(Kind::DuplicateId)
            };
            push_finding(&mut self.findings, f);
        }
        // Implausible times.
        for (i, acc) in v.implausible.into_iter().enumerate() {
            if acc.ids == 0 {
                continue;
            }
            let reason = ["future", "before-mongodb", "wrap"][i];
            let what = [
                "dated in the future",
                "dated before 2009",
                "dated at the 2106 wrap",
            ][i];
            let f = Finding {
                kind: Kind::ImplausibleTime,
                message: format!(
                    "random value {hex}: {} id{} {what}, {} to {}",
                    acc.ids,
                    if acc.ids == 1 { "" } else { "s" },
                    Second::new(acc.first_t).time,
                    Second::new(acc.last_t).time
                ),
                random_values: vec![hex.clone()],
                first: Second::new(acc.first_t),
                last: Second::new(acc.last_t),
                ids: acc.ids,
                examples: acc.examples,
                sources: acc.srcs.names(self.names),
                reason: Some(reason.to_owned()),
                ..finding(Kind::ImplausibleTime)
            };
            push_finding(&mut self.findings, f);
        }
        // Generators.
        let walked: Walked = v.walk.finish();
        for s in &walked.steps {
            let step = u64::from(s.before_t - s.after_t);
            let f = Finding {
                kind: Kind::ClockStepBack,
                message: format!(
                    "random value {hex}: the clock went back {step} s after counter {:#08x} at {}: \
                     counter {:#08x} is dated {}",
                    s.before_c,
                    Second::new(s.before_t).time,
                    s.after_c,
                    Second::new(s.after_t).time
                ),
                random_values: vec![hex.clone()],
                first: Second::new(s.after_t),
                last: Second::new(s.before_t),
                ids: s.ids,
                examples: vec![
                    id_hex(s.before_t, v.r, s.before_c),
                    id_hex(s.after_t, v.r, s.after_c),
                ],
                sources: s.srcs.names(self.names),
                step_seconds: Some(step),
                ..finding(Kind::ClockStepBack)
            };
            push_finding(&mut self.findings, f);
        }
        if walked.groups.len() > 1 {
            let mut groups = walked.groups;
            groups.sort_by_key(|g| (g.first_t, g.first_c));
            // Sorted by first second: two overlap when one starts before an earlier one ended.
            let mut max_last = 0;
            let mut interleaved = false;
            for (i, g) in groups.iter().enumerate() {
                interleaved |= i > 0 && g.first_t <= max_last;
                max_last = max_last.max(g.last_t);
            }
            let mut srcs = SrcSet::default();
            for g in &groups {
                srcs.extend(&g.srcs);
            }
            let first_t = groups.iter().map(|g| g.first_t).min().unwrap_or(0);
            let last_t = groups.iter().map(|g| g.last_t).max().unwrap_or(0);
            let f = Finding {
                kind: Kind::SharedRandomValue,
                message: format!(
                    "random value {hex}: {}{} generators ({}), {} to {}",
                    groups.len(),
                    if walked.saturated { " or more" } else { "" },
                    if interleaved {
                        "their counter runs interleave in the same seconds"
                    } else {
                        "a counter run starts over after another"
                    },
                    Second::new(first_t).time,
                    Second::new(last_t).time
                ),
                random_values: vec![hex.clone()],
                first: Second::new(first_t),
                last: Second::new(last_t),
                ids: v.ids,
                runs: groups
                    .iter()
                    .take(EVIDENCE)
                    .map(|g| {
                        run(
                            v.r, g.first_t, g.last_t, g.first_c, g.last_c, g.ids, &g.srcs,
                            self.names,
                        )
                    })
                    .collect(),
                examples: groups
                    .iter()
                    .take(EVIDENCE)
                    .map(|g| id_hex(g.first_t, v.r, g.first_c))
                    .collect(),
                sources: srcs.names(self.names),
                reason: Some(
                    if interleaved {
                        "interleaved"
                    } else {
                        "restarted"
                    }
                    .to_owned(),
                ),
                ..finding(Kind::SharedRandomValue)
            };
            push_finding(&mut self.findings, f);
        }
        // Timeline: keep the busiest values.
        let k = self.opts.timeline_values;
        if k > 0 && (self.busiest.len() < k || self.busiest.last().is_some_and(|s| v.ids > s.ids)) {
            self.busiest.push(v.series.series(hex));
            self.busiest.sort_by_key(|s| core::cmp::Reverse(s.ids));
            self.busiest.truncate(k);
        }
        self.values.push(ValueRec {
            r: v.r,
            ids: v.ids,
            first_t: v.first_t,
            last_t: v.last_t,
            first_c: v.first_c,
            srcs: v.srcs,
        });
    }

    fn finish(mut self, per_second: FxHashMap<u32, u64>, per_source: &[u64]) -> Report {
        let values_count: u64 = self.per_value.values().sum();
        let (weak, legacy) = core::mem::take(&mut self.values).finish();
        for w in weak {
            let values: Vec<String> = w.values.iter().map(|r| value_hex(r.r)).collect();
            let mut srcs = SrcSet::default();
            for r in &w.values {
                srcs.extend(&r.srcs);
            }
            let ids: u64 = w.values.iter().map(|r| r.ids).sum();
            let first_t = w.values.iter().map(|r| r.first_t).min().unwrap_or(0);
            let last_t = w.values.iter().map(|r| r.last_t).max().unwrap_or(0);
            let what = match w.reason.name() {
                "zero" => "all zero".to_owned(),
                "repeated-byte" => "five equal bytes".to_owned(),
                "small" => "small numbers (a process id or a counter?)".to_owned(),
                "time" => "the first id's time in seconds, ms, µs or ns".to_owned(),
                _ => format!(
                    "{} values each within {} of the next",
                    w.values.len() as u64 + w.more,
                    crate::values::CLUSTER_GAP
                ),
            };
            let f = Finding {
                kind: Kind::WeakRandomValue,
                message: format!(
                    "random value{} {}: {what} ({:.1e} expected by chance among {values_count} values)",
                    if values.len() == 1 { "" } else { "s" },
                    shorten(&values),
                    w.expected
                ),
                first: Second::new(first_t),
                last: Second::new(last_t),
                ids,
                examples: w
                    .values
                    .iter()
                    .take(EVIDENCE)
                    .map(|r| id_hex(r.first_t, r.r, r.first_c))
                    .collect(),
                sources: srcs.names(self.names),
                random_values: values,
                reason: Some(w.reason.name().to_owned()),
                expected_by_chance: Some(w.expected),
                ..finding(Kind::WeakRandomValue)
            };
            push_finding(&mut self.findings, f);
        }
        if !legacy.groups.is_empty() {
            let f = legacy_finding(legacy, self.names, values_count);
            push_finding(&mut self.findings, f);
        }
        // Summary.
        let mut summary = Summary {
            ids: self.ids,
            distinct_ids: self.distinct,
            duplicate_ids: self.ids - self.distinct,
            random_values: values_count,
            ..Summary::default()
        };
        if self.ids > 0 {
            summary.first = Some(Second::new(self.first_t));
            summary.last = Some(Second::new(self.last_t));
        }
        summary.ids_per_value = PerValue {
            max: self.per_value.keys().next_back().copied().unwrap_or(0),
            median: median(&self.per_value, values_count),
        };
        let mut seconds: Vec<(u32, u64)> = per_second.into_iter().collect();
        seconds.sort_unstable();
        summary.busiest_second = seconds
            .iter()
            .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
            .map(|&(t, ids)| Busiest {
                second: Second::new(t),
                ids,
            });
        summary.busiest_value_second = self.busiest_value_second.map(|(r, t, ids)| BusiestValue {
            random_value: value_hex(r),
            second: Second::new(t),
            ids,
        });
        let mut all = Folding::default();
        for (t, n) in seconds {
            all.add(t, n);
        }
        let max = self.opts.max_findings;
        let mut report = self.report;
        report.summary = summary;
        for (kind, list) in self.findings {
            report.counts.insert(kind, list.len() as u64);
            report.omitted += list.len().saturating_sub(max) as u64;
            report.findings.extend(list.into_iter().take(max));
        }
        report.sources = self
            .names
            .iter()
            .zip(per_source)
            .map(|(name, &ids)| SourceSummary {
                name: name.clone(),
                ids,
            })
            .collect();
        if self.opts.timeline_values > 0 {
            report.timeline = Some(Timeline {
                all: all.series(String::new()),
                busiest: self.busiest,
            });
        }
        report
    }
}

fn shorten(values: &[String]) -> String {
    if values.len() <= 4 {
        values.join(", ")
    } else {
        format!("{}, … ({} in all)", values[..3].join(", "), values.len())
    }
}

fn median(hist: &BTreeMap<u64, u64>, n: u64) -> u64 {
    if n == 0 {
        return 0;
    }
    let target = (n - 1) / 2;
    let mut seen = 0;
    for (&ids, &count) in hist {
        seen += count;
        if seen > target {
            return ids;
        }
    }
    0
}

#[allow(clippy::too_many_arguments)]
fn run(
    r: u64,
    first_t: u32,
    last_t: u32,
    first_c: u32,
    last_c: u32,
    ids: u64,
    srcs: &SrcSet,
    names: &[String],
) -> Run {
    Run {
        random_value: value_hex(r),
        first: Second::new(first_t),
        last: Second::new(last_t),
        first_counter: first_c,
        last_counter: last_c,
        ids,
        sources: srcs.names(names),
    }
}

fn finding(kind: Kind) -> Finding {
    Finding {
        kind,
        message: String::new(),
        meaning: kind.meaning().to_owned(),
        action: kind.action().to_owned(),
        random_values: Vec::new(),
        first: Second::new(0),
        last: Second::new(0),
        ids: 0,
        runs: Vec::new(),
        examples: Vec::new(),
        sources: Vec::new(),
        step_seconds: None,
        reason: None,
        expected_by_chance: None,
        machines: Vec::new(),
        shared_processes: Vec::new(),
    }
}

fn push_finding(findings: &mut BTreeMap<Kind, Vec<Finding>>, f: Finding) {
    findings.entry(f.kind).or_default().push(f);
}

fn legacy_finding(legacy: Legacy, names: &[String], values_count: u64) -> Finding {
    let mut machines = Vec::new();
    let mut by_process: BTreeMap<u16, Vec<String>> = BTreeMap::new();
    let mut srcs = SrcSet::default();
    let mut values = Vec::new();
    let mut examples = Vec::new();
    let (mut first_t, mut last_t, mut ids) = (u32::MAX, 0, 0);
    for (members, _more) in &legacy.groups {
        let (machine, _) = machine_process(members[0].r);
        let mut processes = Vec::new();
        let mut m_ids = 0;
        for rec in members {
            let (_, p) = machine_process(rec.r);
            processes.push(p);
            by_process.entry(p).or_default().push(machine.clone());
            m_ids += rec.ids;
            srcs.extend(&rec.srcs);
            first_t = first_t.min(rec.first_t);
            last_t = last_t.max(rec.last_t);
            if values.len() < 64 {
                values.push(value_hex(rec.r));
            }
            if examples.len() < EVIDENCE {
                examples.push(id_hex(rec.first_t, rec.r, rec.first_c));
            }
        }
        ids += m_ids;
        machines.push(Machine {
            machine,
            processes,
            ids: m_ids,
        });
    }
    let shared_processes: Vec<SharedProcess> = by_process
        .into_iter()
        .filter(|(_, m)| m.len() > 1)
        .map(|(process, machines)| SharedProcess { process, machines })
        .collect();
    let processes: usize = machines.iter().map(|m| m.processes.len()).sum();
    Finding {
        kind: Kind::LegacyLayout,
        message: format!(
            "{} machine id{} with {processes} process ids in all{} ({:.1e} expected by chance among \
             {values_count} values)",
            machines.len(),
            if machines.len() == 1 { "" } else { "s" },
            if shared_processes.is_empty() {
                String::new()
            } else {
                format!(
                    "; {} process id{} on more than one machine",
                    shared_processes.len(),
                    if shared_processes.len() == 1 { "" } else { "s" }
                )
            },
            legacy.expected
        ),
        random_values: values,
        first: Second::new(if first_t == u32::MAX { 0 } else { first_t }),
        last: Second::new(last_t),
        ids,
        examples,
        sources: srcs.names(names),
        expected_by_chance: Some(legacy.expected),
        machines,
        shared_processes,
        ..finding(Kind::LegacyLayout)
    }
}
