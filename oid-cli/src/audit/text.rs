//! The report for a person, and the page.

use std::io::{self, Write};

use oid_audit::{Finding, Report};

/// `1234567` as `1,234,567`.
fn n(x: u64) -> String {
    let digits = x.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn plural(x: u64, one: &str, many: &str) -> String {
    format!("{} {}", n(x), if x == 1 { one } else { many })
}

/// Writes the summary and each finding with its evidence.
pub(crate) fn write(out: &mut impl Write, r: &Report) -> io::Result<()> {
    let s = &r.summary;
    writeln!(
        out,
        "{} ({} distinct, {} repeated) from {}",
        plural(s.ids, "id", "ids"),
        n(s.distinct_ids),
        n(s.duplicate_ids),
        plural(r.sources.len() as u64, "input", "inputs")
    )?;
    if let (Some(first), Some(last)) = (&s.first, &s.last) {
        writeln!(out, "  time span        {} .. {}", first.time, last.time)?;
    }
    writeln!(
        out,
        "  random values    {} (ids per value: max {}, median {})",
        n(s.random_values),
        n(s.ids_per_value.max),
        n(s.ids_per_value.median)
    )?;
    if let Some(b) = &s.busiest_second {
        write!(
            out,
            "  busiest second   {}: {}",
            b.second.time,
            plural(b.ids, "id", "ids")
        )?;
        if let Some(v) = &s.busiest_value_second {
            write!(
                out,
                "; one value's busiest: {} at {}: {}",
                v.random_value,
                v.second.time,
                plural(v.ids, "id", "ids")
            )?;
        }
        writeln!(out)?;
    }
    writeln!(out)?;
    if r.counts.is_empty() {
        return writeln!(out, "no finding");
    }
    let total: u64 = r.counts.values().sum();
    let counts: Vec<String> = r
        .counts
        .iter()
        .map(|(k, c)| format!("{k} {}", n(*c)))
        .collect();
    writeln!(
        out,
        "{}: {}",
        plural(total, "finding", "findings"),
        counts.join(", ")
    )?;
    let mut kind = None;
    for f in &r.findings {
        if kind != Some(f.kind) {
            kind = Some(f.kind);
            writeln!(out)?;
            writeln!(out, "{}", f.kind)?;
            writeln!(out, "  meaning: {}", f.meaning)?;
            writeln!(out, "  what to do: {}", f.action)?;
        }
        finding(out, f)?;
    }
    if r.omitted > 0 {
        writeln!(out)?;
        writeln!(
            out,
            "{} not listed (--max-findings; --format json lists the same)",
            plural(r.omitted, "finding", "findings")
        )?;
    }
    Ok(())
}

fn finding(out: &mut impl Write, f: &Finding) -> io::Result<()> {
    writeln!(out, "  - {}", f.message)?;
    for run in &f.runs {
        writeln!(
            out,
            "      run {} {} .. {}: counters {:#08x} .. {:#08x}, {} in {}",
            run.random_value,
            run.first.time,
            run.last.time,
            run.first_counter,
            run.last_counter,
            plural(run.ids, "id", "ids"),
            run.sources.join(", ")
        )?;
    }
    for m in &f.machines {
        let pids: Vec<String> = m.processes.iter().map(u16::to_string).collect();
        writeln!(
            out,
            "      machine {}: processes {} ({})",
            m.machine,
            pids.join(", "),
            plural(m.ids, "id", "ids")
        )?;
    }
    for p in &f.shared_processes {
        writeln!(
            out,
            "      process {} on machines {}",
            p.process,
            p.machines.join(", ")
        )?;
    }
    if !f.examples.is_empty() {
        writeln!(out, "      e.g. {}", f.examples.join(" "))?;
    }
    if !f.sources.is_empty() {
        writeln!(out, "      in {}", f.sources.join(", "))?;
    }
    Ok(())
}

/// The page: placeholder until the timeline page lands.
pub(crate) fn html(r: &Report) -> String {
    let mut text = Vec::new();
    let _ = write(&mut text, r);
    format!(
        "<!doctype html><meta charset=utf-8><title>oid audit</title><pre>{}</pre>",
        String::from_utf8_lossy(&text)
            .replace('&', "&amp;")
            .replace('<', "&lt;")
    )
}
