//! The report for a person, and the page.

use std::fmt::Write as _;
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

/// Escapes text for HTML.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Colours of the busiest values' lines (the first is all ids together).
const COLOURS: [&str; 9] = [
    "#888", "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

/// The page: one file, nothing loaded (its content security policy forbids any request): the
/// summary, ids per second over time of all ids and of the busiest random values as an SVG
/// chart with the findings marked at their first second, and the findings.
pub(crate) fn html(r: &Report) -> String {
    let mut text = Vec::new();
    let _ = write(&mut text, r);
    let text = String::from_utf8_lossy(&text);
    let (w, h, pad) = (960.0_f64, 320.0_f64, 40.0_f64);
    let mut svg = String::new();
    if let Some(tl) = &r.timeline {
        let points = |s: &oid_audit::Series| s.points.clone();
        let t0 = tl.all.points.first().map_or(0, |p| p.0);
        let t1 = tl.all.points.last().map_or(0, |p| p.0 + tl.all.step);
        let span = f64::from(t1.saturating_sub(t0).max(1));
        let ymax = tl.all.points.iter().map(|p| p.1).max().unwrap_or(1).max(1) as f64;
        let x = |t: u32| pad + f64::from(t.saturating_sub(t0)) / span * (w - 2.0 * pad);
        let y = |n: u64| h - pad - n as f64 / ymax * (h - 2.0 * pad);
        let _ = write!(
            svg,
            "<svg id=timeline xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\">\
             <line x1=\"{pad}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#000\"/>\
             <text x=\"{pad}\" y=\"{}\" font-size=\"11\">{}</text>\
             <text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"end\">{}</text>\
             <text x=\"4\" y=\"{}\" font-size=\"11\">{} ids/{} s</text>",
            h - pad,
            w - pad,
            h - pad,
            h - pad + 14.0,
            esc(&oid_audit::Second::new(t0).time),
            w - pad,
            h - pad + 14.0,
            esc(&oid_audit::Second::new(t1).time),
            pad - 8.0,
            ymax as u64,
            tl.all.step
        );
        for (i, series) in std::iter::once(&tl.all).chain(&tl.busiest).enumerate() {
            let pts: Vec<String> = points(series)
                .iter()
                .map(|&(t, n)| format!("{:.1},{:.1}", x(t), y(n)))
                .collect();
            let name = if i == 0 {
                "all ids".to_owned()
            } else {
                series.random_value.clone()
            };
            let _ = write!(
                svg,
                "<polyline class=series data-value=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" points=\"{}\"><title>{}: {} ids</title></polyline>",
                esc(&name),
                COLOURS[i % COLOURS.len()],
                if i == 0 { 2 } else { 1 },
                pts.join(" "),
                esc(&name),
                series.ids
            );
        }
        for f in &r.findings {
            let fx = x(f.first.second);
            let _ = write!(
                svg,
                "<line class=finding data-kind=\"{}\" x1=\"{fx:.1}\" y1=\"{pad}\" x2=\"{fx:.1}\" y2=\"{}\" stroke=\"#d00\" stroke-dasharray=\"4 3\"><title>{}</title></line>",
                f.kind,
                h - pad,
                esc(&f.message)
            );
        }
        svg.push_str("</svg>");
        let mut legend = String::from("<ul class=legend>");
        for (i, series) in std::iter::once(&tl.all).chain(&tl.busiest).enumerate() {
            let name = if i == 0 {
                "all ids"
            } else {
                series.random_value.as_str()
            };
            let _ = write!(
                legend,
                "<li><span style=\"color:{}\">&#9632;</span> {} ({} ids)</li>",
                COLOURS[i % COLOURS.len()],
                esc(name),
                n(series.ids)
            );
        }
        legend.push_str(
            "<li><span style=\"color:#d00\">&#9474;</span> a finding (hover for it)</li></ul>",
        );
        svg.push_str(&legend);
    }
    format!(
        "<!doctype html>\n<html lang=en><head><meta charset=utf-8>\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\
         <title>oid audit</title><style>body{{font:14px system-ui,sans-serif;margin:2em}}pre{{white-space:pre-wrap}}\
         .legend{{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:1em}}</style></head><body>\
         <h1>oid audit</h1><h2>Ids per second</h2>{svg}<h2>Summary and findings</h2><pre id=report>{}</pre></body></html>\n",
        esc(&text)
    )
}
