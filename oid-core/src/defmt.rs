//! `::defmt::Format` (feature `defmt`): ids print as their hex form, formatted on the stack.

use crate::ObjectId;

impl ::defmt::Format for ObjectId {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        let hex = self.to_hex();
        ::defmt::write!(f, "ObjectId({=str})", hex.as_str())
    }
}

impl ::defmt::Format for crate::ParseError {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        match (self.len(), self.invalid_char()) {
            (Some(n), _) => ::defmt::write!(
                f,
                "invalid length: expected 24 hex characters, found {=usize}",
                n
            ),
            (None, Some((c, i))) => {
                ::defmt::write!(
                    f,
                    "invalid character {=char} at index {=usize}: expected a hex digit",
                    c,
                    i
                )
            }
            (None, None) => ::defmt::write!(f, "invalid ObjectId"),
        }
    }
}

impl ::defmt::Format for crate::FromSliceError {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        ::defmt::write!(
            f,
            "invalid length: expected 12 bytes, found {=usize}",
            self.len()
        )
    }
}

impl ::defmt::Format for crate::Hex {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        ::defmt::write!(f, "{=str}", self.as_str())
    }
}

impl ::defmt::Format for crate::ErrorKind {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        ::defmt::write!(f, "{=str}", self.as_str())
    }
}

impl ::defmt::Format for crate::GenerateError {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        ::defmt::write!(f, "{=str}", self.kind().as_str())
    }
}

impl ::defmt::Format for crate::EntropyError {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        ::defmt::write!(f, "{=str}: {=str}", self.kind().as_str(), self.reason())
    }
}

impl ::defmt::Format for crate::Form {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        ::defmt::write!(f, "{=str}", self.as_str())
    }
}

impl ::defmt::Format for crate::Pasted {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        ::defmt::write!(f, "{} as {}", self.id(), self.form())
    }
}

impl ::defmt::Format for crate::PastedError {
    fn format(&self, f: ::defmt::Formatter<'_>) {
        match self.hint() {
            Some(id) => ::defmt::write!(f, "{} (did you mean {}?)", self.parse_error(), id),
            None => ::defmt::write!(f, "{}", self.parse_error()),
        }
    }
}
