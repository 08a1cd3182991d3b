//! Compares our parser, the corpus's construction, and each peer's answers, case by case.
//!
//! A peer's output has one line per case, in case-file order: tab-separated `api=verdict`
//! fields, where a verdict is `ok,<hex>,<timestamp>` (the peer made an id and printed its
//! canonical hex and its timestamp in Unix seconds), `err,<error type>`, `true` or `false` (a
//! validity check). A last line `order<TAB><indices>` lists the cases the peer accepted, sorted
//! by the peer's own comparison of ids (a stable sort).
//!
//! Every disagreement fails the comparison unless [`KNOWN`] lists it for that peer, API and
//! case class, with the reason. An entry of [`KNOWN`] that no case needed fails it too, so the
//! table always says exactly what the peers do.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use oid_core::ObjectId;

use crate::case::{Case, Class, hex};

/// How a peer's answer differed from the expected one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Disagreement {
    /// The peer accepted a string that is not an id.
    Accepts,
    /// The peer rejected an id.
    Rejects,
    /// The peer accepted an id but printed other hex.
    Hex,
    /// The peer accepted an id but gave another timestamp.
    Timestamp,
}

/// A peer behaviour we know, expect, and do not copy.
pub(crate) struct Deviation {
    /// `pymongo` or `js-bson`.
    pub(crate) peer: &'static str,
    /// The peer's API, as its script names it.
    pub(crate) api: &'static str,
    /// The case class where it happens.
    pub(crate) class: Class,
    /// What differs.
    pub(crate) what: Disagreement,
    /// Why the peer does it and why we do not.
    pub(crate) reason: &'static str,
    /// Confirms the reason on one case: given the input and the hex the peer printed (if it
    /// made an id), whether this disagreement is the documented one and not another.
    pub(crate) explains: fn(input: &str, answered_hex: Option<&str>) -> bool,
}

/// The peers' known deviations, per case class, with the reason. Pinned peer versions:
/// pymongo 4.20.1 (verify/python/requirements.txt), bson 7.3.4 (verify/js/package-lock.json).
///
/// Checked and found to agree, so NOT listed (the comparison fails if that changes):
///
/// * pymongo, `whitespace-pairs`: `ObjectId(str)` decodes with `bytes.fromhex`, which skips
///   ASCII whitespace, so a 24-character string with whitespace between byte pairs decodes to
///   11 bytes. Older pymongo releases kept such an 11-byte value; 4.20.1 checks that 12 bytes
///   came out and raises `InvalidId`, as we reject it.
/// * js-bson, `createFromHexString` on every near-miss class: it checks only the length, then
///   decodes with `Buffer.from(hex, "hex")`, which stops at the first non-hex pair; the short
///   buffer is then refused by the constructor, so it still rejects.
/// * js-bson counts UTF-16 units for its length check (`non-ascii-length` has strings of 24
///   units and 23 characters); the hex check rejects them all the same.
pub(crate) const KNOWN: &[Deviation] = &[Deviation {
    peer: "js-bson",
    api: "createFromHexString",
    class: Class::NonAsciiInside,
    what: Disagreement::Accepts,
    reason: "createFromHexString checks only that the string has 24 UTF-16 units, then decodes \
             with Node's Buffer.from(s, 'hex'), which keeps only the low byte of each unit: a \
             non-ASCII character whose low byte is an ASCII hex digit (Cyrillic 'а' U+0430 -> \
             '0', Devanagari '०' U+0966 -> 'f', full-width 'ｆ' U+FF46 -> 'F') is read as that \
             digit. js-bson's own `new ObjectId(s)` and `isValid` reject these strings, as we do",
    explains: low_bytes_are_hex,
}];

/// Whether `input`, read as Node's `Buffer.from(input, "hex")` reads it (the low byte of each
/// UTF-16 unit), is 24 hex digits that decode to `answered_hex`.
fn low_bytes_are_hex(input: &str, answered_hex: Option<&str>) -> bool {
    let low: Vec<u8> = input.encode_utf16().map(|u| (u & 0xff) as u8).collect();
    let Ok(low) = String::from_utf8(low) else {
        return false;
    };
    match (crate::case::reference_decode(&low), answered_hex) {
        (Some(bytes), Some(h)) => hex(&bytes) == h,
        _ => false,
    }
}

/// One peer answer, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Verdict {
    Ok { hex: String, timestamp: u64 },
    Err,
    Valid(bool),
}

fn parse_verdict(v: &str) -> Result<Verdict, String> {
    match v {
        "true" => return Ok(Verdict::Valid(true)),
        "false" => return Ok(Verdict::Valid(false)),
        _ => {}
    }
    let mut parts = v.split(',');
    match (parts.next(), parts.next(), parts.next(), parts.next()) {
        (Some("ok"), Some(hex), Some(ts), None) => Ok(Verdict::Ok {
            hex: hex.to_owned(),
            timestamp: ts
                .parse()
                .map_err(|_| format!("bad timestamp in verdict {v:?}"))?,
        }),
        (Some("err"), Some(_), None, None) => Ok(Verdict::Err),
        _ => Err(format!("malformed verdict {v:?}")),
    }
}

/// A peer's whole output, parsed.
pub(crate) struct PeerOutput {
    /// Per case: `(api, verdict)` pairs.
    lines: Vec<Vec<(String, Verdict)>>,
    /// The accepted cases in the peer's sort order, if the peer compares ids.
    order: Option<Vec<usize>>,
}

/// Parses a peer's output for `n` cases.
pub(crate) fn parse_peer_output(text: &str, n: usize) -> Result<PeerOutput, String> {
    let mut lines = Vec::with_capacity(n);
    let mut order = None;
    for (k, line) in text.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("order\t") {
            let idx: Result<Vec<usize>, _> = rest.split(' ').map(str::parse).collect();
            order = Some(idx.map_err(|_| "malformed order line".to_owned())?);
            continue;
        }
        let mut fields = Vec::new();
        for field in line.split('\t') {
            let (api, v) = field
                .split_once('=')
                .ok_or_else(|| format!("line {}: field {field:?} has no `=`", k + 1))?;
            fields.push((
                api.to_owned(),
                parse_verdict(v).map_err(|e| format!("line {}: {e}", k + 1))?,
            ));
        }
        lines.push(fields);
    }
    if lines.len() != n {
        return Err(format!(
            "{} verdict lines for {n} cases (did the peer crash?)",
            lines.len()
        ));
    }
    Ok(PeerOutput { lines, order })
}

/// The outcome of a comparison: counts per class, and every failure.
#[derive(Default)]
pub(crate) struct Report {
    /// `(peer, class)` -> (cases compared, documented deviations seen).
    pub(crate) per_class: BTreeMap<(String, Class), (usize, usize)>,
    /// Unexplained disagreements and other failures, one line each (the first 50).
    pub(crate) failures: Vec<String>,
    /// How many failures there were in all.
    pub(crate) failed: usize,
    /// Accepted ids whose order was compared, per peer.
    pub(crate) ordered: BTreeMap<String, usize>,
}

impl Report {
    fn fail(&mut self, msg: String) {
        // Enough to debug; the count says how many there were.
        self.failed += 1;
        if self.failures.len() < 50 {
            self.failures.push(msg);
        }
    }

    /// A plain-text summary: one line per peer and class.
    pub(crate) fn summary(&self) -> String {
        let mut s = String::new();
        for ((peer, class), (n, dev)) in &self.per_class {
            let _ = writeln!(
                s,
                "  {peer:<8} {:<18} {n:>6} cases, {dev:>5} documented deviations",
                class.name()
            );
        }
        for (peer, n) in &self.ordered {
            let _ = writeln!(s, "  {peer:<8} order of {n} accepted ids compared");
        }
        s
    }
}

fn describe(case: &Case) -> String {
    format!("{} {:?}", case.class.name(), case.input)
}

/// Checks our own parser against the construction of every case.
pub(crate) fn check_ours(cases: &[Case], report: &mut Report) {
    for case in cases {
        let parsed = ObjectId::parse_str(&case.input);
        // The other entry points must say the same as `parse_str`.
        if parsed.is_ok() != ObjectId::is_valid(&case.input)
            || parsed != case.input.parse::<ObjectId>()
            || parsed != ObjectId::try_from(case.input.as_str())
        {
            report.fail(format!("ours: entry points disagree on {}", describe(case)));
        }
        match (parsed, case.expect) {
            (Ok(id), Some(bytes)) => {
                let ts = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
                if id.bytes() != bytes || *id.to_hex() != hex(&bytes) || id.timestamp() != ts {
                    report.fail(format!("ours: wrong value for {}", describe(case)));
                }
            }
            (Err(_), None) => {}
            (Ok(_), None) => report.fail(format!("ours: accepts {}", describe(case))),
            (Err(e), Some(_)) => report.fail(format!("ours: rejects {} ({e})", describe(case))),
        }
        let entry = report
            .per_class
            .entry(("ours".to_owned(), case.class))
            .or_default();
        entry.0 += 1;
    }
}

/// Compares one peer's output with the cases' construction (which [`check_ours`] checks
/// against our parser), allowing only [`KNOWN`] deviations.
pub(crate) fn check_peer(
    peer: &str,
    cases: &[Case],
    out: &PeerOutput,
    known: &[Deviation],
    used: &mut [usize],
    report: &mut Report,
) {
    for (case, fields) in cases.iter().zip(&out.lines) {
        if fields.is_empty() {
            report.fail(format!("{peer}: no answer for {}", describe(case)));
        }
        let mut deviations = 0;
        for (api, verdict) in fields {
            let disagreements = disagreements(case, verdict);
            for what in disagreements {
                let answered_hex = match verdict {
                    Verdict::Ok { hex, .. } => Some(hex.as_str()),
                    _ => None,
                };
                let hit = known.iter().position(|d| {
                    d.peer == peer
                        && d.api == api
                        && d.class == case.class
                        && d.what == what
                        && (d.explains)(&case.input, answered_hex)
                });
                match hit {
                    Some(k) => {
                        used[k] += 1;
                        deviations += 1;
                    }
                    None => report.fail(format!(
                        "{peer} {api}: {what:?} on {} (answered {verdict:?})",
                        describe(case)
                    )),
                }
            }
        }
        let entry = report
            .per_class
            .entry((peer.to_owned(), case.class))
            .or_default();
        entry.0 += 1;
        entry.1 += deviations;
    }
    if let Some(order) = &out.order {
        check_order(peer, cases, out, order, report);
    }
}

fn disagreements(case: &Case, verdict: &Verdict) -> Vec<Disagreement> {
    match (verdict, case.expect) {
        (Verdict::Valid(true), None) => vec![Disagreement::Accepts],
        (Verdict::Valid(false), Some(_)) | (Verdict::Err, Some(_)) => vec![Disagreement::Rejects],
        (Verdict::Ok { .. }, None) => vec![Disagreement::Accepts],
        (Verdict::Ok { hex: h, timestamp }, Some(bytes)) => {
            let mut v = Vec::new();
            if *h != hex(&bytes) {
                v.push(Disagreement::Hex);
            }
            let ts = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
            if *timestamp != u64::from(ts) {
                v.push(Disagreement::Timestamp);
            }
            v
        }
        (Verdict::Valid(_) | Verdict::Err, _) => Vec::new(),
    }
}

/// The peer's order of the ids it accepted must be ours (a stable sort by `Ord`), over the
/// cases both accepted.
fn check_order(peer: &str, cases: &[Case], out: &PeerOutput, order: &[usize], report: &mut Report) {
    let ours_ok: Vec<Option<ObjectId>> = cases
        .iter()
        .map(|c| ObjectId::parse_str(&c.input).ok())
        .collect();
    let peer_accepted = |k: usize| {
        out.lines[k]
            .iter()
            .any(|(_, v)| matches!(v, Verdict::Ok { .. }))
    };
    let theirs: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&k| k < cases.len() && ours_ok[k].is_some())
        .collect();
    let mut ours: Vec<usize> = (0..cases.len())
        .filter(|&k| ours_ok[k].is_some() && peer_accepted(k))
        .collect();
    ours.sort_by_key(|&k| ours_ok[k]);
    if ours != theirs {
        let first = ours.iter().zip(&theirs).position(|(a, b)| a != b);
        report.fail(format!(
            "{peer}: order differs ({} ids ours, {} theirs; first difference at position {first:?})",
            ours.len(),
            theirs.len()
        ));
    }
    report.ordered.insert(peer.to_owned(), ours.len());
}

/// Entries of `known` for `peers` that no case used: the table no longer tells the truth.
pub(crate) fn stale(known: &[Deviation], peers: &[&str], used: &[usize], report: &mut Report) {
    for (d, n) in known.iter().zip(used) {
        if *n == 0 && peers.contains(&d.peer) {
            report.fail(format!(
                "documented deviation never seen: {} {} {:?} on {} ({})",
                d.peer,
                d.api,
                d.what,
                d.class.name(),
                d.reason
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::corpus;

    fn cases() -> Vec<Case> {
        corpus(5).into_iter().step_by(50).collect()
    }

    /// A well-behaved fake peer: answers exactly as the construction says.
    fn honest(cases: &[Case]) -> String {
        let mut s = String::new();
        for c in cases {
            match c.expect {
                Some(b) => {
                    let ts = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
                    let _ = writeln!(s, "ctor=ok,{},{ts}\tvalid=true", hex(&b));
                }
                None => {
                    let _ = writeln!(s, "ctor=err,InvalidId\tvalid=false");
                }
            }
        }
        let mut accepted: Vec<usize> = (0..cases.len())
            .filter(|&k| cases[k].expect.is_some())
            .collect();
        accepted.sort_by_key(|&k| cases[k].expect);
        let idx: Vec<String> = accepted.iter().map(ToString::to_string).collect();
        let _ = writeln!(s, "order\t{}", idx.join(" "));
        s
    }

    fn run(text: &str, cases: &[Case], known: &[Deviation]) -> Report {
        let mut report = Report::default();
        check_ours(cases, &mut report);
        let out = parse_peer_output(text, cases.len()).unwrap();
        let mut used = vec![0; known.len()];
        check_peer("fake", cases, &out, known, &mut used, &mut report);
        stale(known, &["fake"], &used, &mut report);
        report
    }

    #[test]
    fn an_agreeing_peer_passes_and_is_counted() {
        let cases = cases();
        let report = run(&honest(&cases), &cases, &[]);
        assert!(report.failures.is_empty(), "{:?}", report.failures);
        assert!(report.ordered["fake"] > 50);
        let total: usize = report
            .per_class
            .iter()
            .filter(|((p, _), _)| p == "fake")
            .map(|(_, (n, _))| n)
            .sum();
        assert_eq!(total, cases.len());
    }

    #[test]
    fn every_kind_of_disagreement_fails() {
        let cases = cases();
        let good = honest(&cases);
        let valid_line = cases.iter().position(|c| c.expect.is_some()).unwrap();
        let invalid_line = cases.iter().position(|c| c.expect.is_none()).unwrap();
        let b = cases[valid_line].expect.unwrap();
        let ts = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
        let mutations = [
            (
                invalid_line,
                "ctor=ok,000000000000000000000000,0\tvalid=false".to_owned(),
            ),
            (invalid_line, "ctor=err,InvalidId\tvalid=true".to_owned()),
            (valid_line, "ctor=err,InvalidId\tvalid=true".to_owned()),
            (valid_line, format!("ctor=ok,{},{ts}\tvalid=false", hex(&b))),
            (
                valid_line,
                format!("ctor=ok,{},{ts}\tvalid=true", hex(&b).to_uppercase()),
            ),
            (
                valid_line,
                format!("ctor=ok,{},{}\tvalid=true", hex(&b), u64::from(ts) + 1),
            ),
        ];
        for (line, replacement) in mutations {
            let text: String = good
                .lines()
                .enumerate()
                .map(|(k, l)| if k == line { replacement.clone() } else { l.to_owned() } + "\n")
                .collect();
            let report = run(&text, &cases, &[]);
            assert!(!report.failures.is_empty(), "not caught: {replacement}");
        }
        // A wrong order.
        let mut lines: Vec<String> = good.lines().map(str::to_owned).collect();
        let last = lines.pop().unwrap();
        let mut idx: Vec<&str> = last.trim_start_matches("order\t").split(' ').collect();
        idx.swap(0, 1);
        lines.push(format!("order\t{}", idx.join(" ")));
        let report = run(&(lines.join("\n") + "\n"), &cases, &[]);
        assert!(report.failures.iter().any(|f| f.contains("order differs")));
        // A missing line.
        let short: String = good.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert!(parse_peer_output(&short, cases.len()).is_err());
    }

    #[test]
    fn documented_deviations_pass_and_stale_ones_fail() {
        let cases = cases();
        let good = honest(&cases);
        let k = cases
            .iter()
            .position(|c| c.class == Class::ValidUpper)
            .unwrap();
        let text: String = good
            .lines()
            .enumerate()
            .map(|(i, l)| {
                if i == k {
                    "ctor=err,X\tvalid=true".to_owned()
                } else if let Some(order) = l.strip_prefix("order\t") {
                    // The peer did not accept case k, so it cannot sort it.
                    let rest: Vec<&str> = order.split(' ').filter(|i| *i != k.to_string()).collect();
                    format!("order\t{}", rest.join(" "))
                } else {
                    l.to_owned()
                }
            } + "\n")
            .collect();
        let known = [Deviation {
            peer: "fake",
            api: "ctor",
            class: Class::ValidUpper,
            what: Disagreement::Rejects,
            reason: "test",
            explains: |_, _| true,
        }];
        let report = run(&text, &cases, &known);
        assert!(report.failures.is_empty(), "{:?}", report.failures);
        assert_eq!(
            report.per_class[&("fake".to_owned(), Class::ValidUpper)].1,
            1
        );
        // The same entry with an honest peer is stale.
        let report = run(&good, &cases, &known);
        assert!(report.failures.iter().any(|f| f.contains("never seen")));
    }

    #[test]
    fn the_js_low_byte_explanation_is_precise() {
        // 'а' (U+0430) has low byte 0x30, '0'.
        let input = "a0d46e33b708\u{430}9475baebdcf";
        assert!(low_bytes_are_hex(input, Some("a0d46e33b70809475baebdcf")));
        assert!(!low_bytes_are_hex(input, Some("a0d46e33b70819475baebdcf")));
        assert!(!low_bytes_are_hex(input, None));
        // 'é' (U+00E9) has low byte 0xe9: not a hex digit, so not this deviation.
        assert!(!low_bytes_are_hex(
            "a0d46e33b708\u{e9}9475baebdcf",
            Some("a0d46e33b70809475baebdcf")
        ));
    }

    #[test]
    fn the_known_table_has_reasons() {
        for d in KNOWN {
            assert!(d.reason.len() > 20, "{} {}", d.peer, d.api);
            assert!(["pymongo", "js-bson"].contains(&d.peer));
        }
    }
}
