//! Small sets of source indexes, for evidence.

/// The most sources a set names; more are counted.
const MAX: usize = 16;

/// Source indexes, sorted, at most [`MAX`]; `more` counts the ones left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SrcSet {
    srcs: Vec<u32>,
    more: bool,
}

impl SrcSet {
    pub(crate) fn one(src: u32) -> SrcSet {
        SrcSet {
            srcs: vec![src],
            more: false,
        }
    }

    pub(crate) fn add(&mut self, src: u32) {
        match self.srcs.binary_search(&src) {
            Ok(_) => {}
            Err(_) if self.srcs.len() >= MAX => self.more = true,
            Err(at) => self.srcs.insert(at, src),
        }
    }

    pub(crate) fn extend(&mut self, other: &SrcSet) {
        for &s in &other.srcs {
            self.add(s);
        }
        self.more |= other.more;
    }

    /// The names, with `…` for the ones left out.
    pub(crate) fn names(&self, names: &[String]) -> Vec<String> {
        let mut out: Vec<String> = self
            .srcs
            .iter()
            .map(|&s| names.get(s as usize).cloned().unwrap_or_default())
            .collect();
        if self.more {
            out.push("…".to_owned());
        }
        out
    }
}
