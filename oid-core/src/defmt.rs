//! `::defmt::Format` (feature `defmt`): ids print as their hex form, formatted on the stack.

use crate::ObjectId;
use crate::error::{EXPECTED_12, EXPECTED_24, EXPECTED_HEX, TIME_RANGE};

impl ::defmt::Format for ObjectId {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        let hex = self.to_hex();
        ::defmt::write!(f, "ObjectId({=str})", hex.as_str())
    }
}

impl ::defmt::Format for crate::ParseError {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        let kind = self.kind().as_str();
        if let Some((c, i)) = self.invalid_char() {
            ::defmt::write!(
                f,
                "{=str} {=char} at index {=usize}: {=str}",
                kind,
                c,
                i,
                EXPECTED_HEX
            );
        } else {
            let n = self.len().unwrap_or_default();
            ::defmt::write!(f, "{=str}: {=str} {=usize}", kind, EXPECTED_24, n);
        }
    }
}

impl ::defmt::Format for crate::FromSliceError {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        let kind = self.kind().as_str();
        ::defmt::write!(f, "{=str}: {=str} {=usize}", kind, EXPECTED_12, self.len());
    }
}

impl ::defmt::Format for crate::TimeOutOfRange {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        ::defmt::write!(f, "{=str}: {=str}", self.kind().as_str(), TIME_RANGE);
    }
}

impl ::defmt::Format for crate::error::Error {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        ::defmt::write!(f, "{=str}", self.kind().as_str());
        if let Some(detail) = self.detail() {
            ::defmt::write!(f, ": {=str}", detail);
        }
        if let Some(code) = self.entropy().and_then(|e| e.code()) {
            ::defmt::write!(f, " (code {=i32})", code);
        }
    }
}

impl ::defmt::Format for crate::fmt::Hex {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        ::defmt::write!(f, "{=str}", self.as_str())
    }
}

impl ::defmt::Format for crate::ErrorKind {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        ::defmt::write!(f, "{=str}", self.as_str())
    }
}

#[cfg(any(feature = "portable-atomic", target_has_atomic = "64"))]
impl ::defmt::Format for crate::CapacityPolicy {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        let name = match self {
            crate::CapacityPolicy::Wait => "wait",
            crate::CapacityPolicy::Rotate => "rotate",
            crate::CapacityPolicy::Fixed => "fixed",
        };
        ::defmt::write!(f, "{=str}", name)
    }
}

impl ::defmt::Format for crate::GenerateError {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        ::defmt::write!(f, "{=str}", self.kind().as_str())
    }
}

impl ::defmt::Format for crate::EntropyError {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        ::defmt::write!(f, "{=str}: {=str}", self.kind().as_str(), self.reason());
        if let Some(code) = self.code() {
            ::defmt::write!(f, " (code {=i32})", code);
        }
    }
}

#[cfg(feature = "pasted")]
impl ::defmt::Format for crate::Form {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        ::defmt::write!(f, "{=str}", self.as_str())
    }
}

#[cfg(feature = "pasted")]
impl ::defmt::Format for crate::Pasted {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        ::defmt::write!(f, "{} as {}", self.id(), self.form())
    }
}

#[cfg(feature = "pasted")]
impl ::defmt::Format for crate::PastedError {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        match self.hint() {
            Some(id) => ::defmt::write!(f, "{} (did you mean {}?)", self.parse_error(), id),
            None => ::defmt::write!(f, "{}", self.parse_error()),
        }
    }
}
