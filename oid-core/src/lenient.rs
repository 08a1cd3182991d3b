//! Reading an id as people paste it: from mongosh, Compass, drivers' logs and JSON.
//!
//! [`ObjectId::parse_pasted`] accepts, with any surrounding whitespace: bare hex (any case),
//! hex in double or single quotes, `ObjectId("…")`, `ObjectId('…')`, `new ObjectId("…")`, and
//! extended JSON `{"$oid": "…"}` (any spacing; the key may also be `'$oid'` or bare `$oid`, as
//! mongosh prints it). The hex inside must be exactly an id: this reads the listed forms, it
//! does not search. When the input is none of them, the error offers the id the input holds,
//! if any, as a "did you mean" hint. [`ObjectId::parse_str`] stays strict.

use core::fmt;

use crate::{ObjectId, ParseError};

/// The form a pasted id was written in.
///
/// # Examples
///
/// ```
/// use oid_core::{Form, ObjectId};
///
/// let pasted = ObjectId::parse_pasted("ObjectId('507f1f77bcf86cd799439011')")?;
/// assert_eq!(pasted.form(), Form::Shell);
/// assert_eq!(pasted.form().to_string(), "mongosh ObjectId(\"…\")");
/// # Ok::<(), oid_core::PastedError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Form {
    /// Bare hex, any case: `507f1f77bcf86cd799439011`.
    Hex,
    /// Hex in double or single quotes: `"507f1f77bcf86cd799439011"`.
    Quoted,
    /// The mongosh literal: `ObjectId("…")`, `ObjectId('…')` or `new ObjectId("…")`.
    Shell,
    /// MongoDB extended JSON: `{"$oid": "…"}`, also with `'$oid'` or `$oid` as the key.
    ExtendedJson,
}

impl Form {
    /// A short name for messages: `hex`, `quoted hex`, `mongosh ObjectId("…")` or
    /// `extended JSON {"$oid": "…"}`.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(oid_core::Form::Quoted.as_str(), "quoted hex");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Form::Hex => "hex",
            Form::Quoted => "quoted hex",
            Form::Shell => "mongosh ObjectId(\"…\")",
            Form::ExtendedJson => "extended JSON {\"$oid\": \"…\"}",
        }
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An id read by [`ObjectId::parse_pasted`], with the form it was written in.
///
/// # Examples
///
/// ```
/// use oid_core::{Form, ObjectId, oid};
///
/// let pasted = ObjectId::parse_pasted(r#" {"$oid": "507f1f77bcf86cd799439011"} "#)?;
/// assert_eq!(pasted.id(), oid!("507f1f77bcf86cd799439011"));
/// assert_eq!(pasted.form(), Form::ExtendedJson);
/// # Ok::<(), oid_core::PastedError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pasted {
    id: ObjectId,
    form: Form,
}

impl Pasted {
    /// The id.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let pasted = ObjectId::parse_pasted("'507f1f77bcf86cd799439011'")?;
    /// assert_eq!(pasted.id().to_hex(), "507f1f77bcf86cd799439011");
    /// # Ok::<(), oid_core::PastedError>(())
    /// ```
    pub const fn id(&self) -> ObjectId {
        self.id
    }

    /// The form the id was written in.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Form, ObjectId};
    /// let pasted = ObjectId::parse_pasted("'507f1f77bcf86cd799439011'")?;
    /// assert_eq!(pasted.form(), Form::Quoted);
    /// # Ok::<(), oid_core::PastedError>(())
    /// ```
    pub const fn form(&self) -> Form {
        self.form
    }
}

/// Why a pasted text is not an id: the strict parser's reason, the form recognised around it
/// (if any), and the id the text holds in some other shape (if any), for a "did you mean" hint.
///
/// Its message is the strict parser's: for the text inside the quotes when a form was
/// recognised (`ObjectId("xyz")`: length 3), for the whole input (trimmed) otherwise. The hint
/// is not part of the message; [`hint`](PastedError::hint) gives it.
///
/// # Examples
///
/// ```
/// use oid_core::{ObjectId, oid};
///
/// let err = ObjectId::parse_pasted("id=507f1f77bcf86cd799439011").unwrap_err();
/// assert_eq!(err.to_string(), "invalid length: expected 24 hex characters, found 27");
/// assert_eq!(err.hint(), Some(oid!("507f1f77bcf86cd799439011")));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PastedError {
    error: ParseError,
    form: Option<Form>,
    hint: Option<ObjectId>,
}

impl PastedError {
    /// The strict parser's error, as [`ObjectId::parse_str`] gives it for the text inside the
    /// recognised form, or for the whole trimmed input.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let err = ObjectId::parse_pasted("ObjectId(\"xyz\")").unwrap_err();
    /// assert_eq!(err.parse_error().len(), Some(3));
    /// ```
    pub const fn parse_error(&self) -> ParseError {
        self.error
    }

    /// The form recognised around text that is not an id (`ObjectId("xyz")`: [`Form::Shell`]),
    /// or `None` when no wrapping form was recognised (bare text such as `xyz`, or a near miss
    /// such as `ObjectID("…")`).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Form, ObjectId};
    /// assert_eq!(ObjectId::parse_pasted("ObjectId('xyz')").unwrap_err().form(), Some(Form::Shell));
    /// assert_eq!(ObjectId::parse_pasted("ObjectID('xyz')").unwrap_err().form(), None);
    /// ```
    pub const fn form(&self) -> Option<Form> {
        self.form
    }

    /// The id the input most likely holds: its first run of exactly 24 hex digits that no
    /// other hex digit touches. `None` when there is no such run.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{ObjectId, oid};
    /// let near_miss = r#"ObjectID("507f1f77bcf86cd799439011")"#;
    /// let err = ObjectId::parse_pasted(near_miss).unwrap_err();
    /// assert_eq!(err.hint(), Some(oid!("507f1f77bcf86cd799439011")));
    /// assert_eq!(ObjectId::parse_pasted("0507f1f77bcf86cd799439011").unwrap_err().hint(), None);
    /// ```
    pub const fn hint(&self) -> Option<ObjectId> {
        self.hint
    }
}

impl fmt::Display for PastedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl core::error::Error for PastedError {}

impl ObjectId {
    /// Reads an id as people paste it: bare hex (any case), hex in double or single quotes,
    /// `ObjectId("…")`, `ObjectId('…')`, `new ObjectId("…")`, or extended JSON `{"$oid": "…"}`
    /// (with `'$oid'` or `$oid` as the key too), with any whitespace around and between the
    /// parts, and says which [`Form`] the id was in. The hex inside must be exactly an id;
    /// anything else is an error, which offers the id the text holds in another shape as a
    /// hint. Needs no allocation.
    ///
    /// Use [`ObjectId::parse_str`] where only the canonical 24 hex digits are acceptable.
    ///
    /// # Errors
    ///
    /// A [`PastedError`] with the strict parser's reason (for the text inside a recognised form,
    /// or the whole trimmed input) and, when the input holds an id in some other shape, that
    /// id as [`PastedError::hint`].
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{Form, ObjectId, oid};
    ///
    /// let id = oid!("507f1f77bcf86cd799439011");
    /// for (text, form) in [
    ///     ("507F1F77BCF86CD799439011", Form::Hex),
    ///     ("\"507f1f77bcf86cd799439011\"", Form::Quoted),
    ///     ("ObjectId(\"507f1f77bcf86cd799439011\")", Form::Shell),
    ///     ("new ObjectId('507f1f77bcf86cd799439011')", Form::Shell),
    ///     ("{\"$oid\": \"507f1f77bcf86cd799439011\"}", Form::ExtendedJson),
    /// ] {
    ///     let pasted = ObjectId::parse_pasted(text)?;
    ///     assert_eq!((pasted.id(), pasted.form()), (id, form));
    /// }
    ///
    /// let err = ObjectId::parse_pasted("\"507f1f77bcf86cd799439011\",").unwrap_err();
    /// assert_eq!(err.to_string(), "invalid length: expected 24 hex characters, found 27");
    /// assert_eq!(err.hint(), Some(id));
    /// # Ok::<(), oid_core::PastedError>(())
    /// ```
    pub fn parse_pasted(s: &str) -> Result<Pasted, PastedError> {
        let s = s.trim();
        let (form, inner) = unwrap(s).map_or((None, s), |(form, inner)| (Some(form), inner));
        match ObjectId::parse_str(inner) {
            Ok(id) => Ok(Pasted {
                id,
                form: form.unwrap_or(Form::Hex),
            }),
            Err(error) => Err(PastedError {
                error,
                form,
                hint: find(s),
            }),
        }
    }
}

/// The first run of exactly 24 hex digits in `s` that no other hex digit touches.
fn find(s: &str) -> Option<ObjectId> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_hexdigit() {
            let start = i;
            while i < b.len() && b[i].is_ascii_hexdigit() {
                i += 1;
            }
            if i - start == 24 {
                // ASCII on both ends of the run, so these are character boundaries.
                return s.get(start..i).and_then(|h| ObjectId::parse_str(h).ok());
            }
        } else {
            i += 1;
        }
    }
    None
}

/// The form of `s` and the text inside it, or `None` when `s` is not wrapped.
fn unwrap(s: &str) -> Option<(Form, &str)> {
    quoted(s)
        .map(|inner| (Form::Quoted, inner))
        .or_else(|| call(s).map(|inner| (Form::Shell, inner)))
        .or_else(|| oid_map(s).map(|inner| (Form::ExtendedJson, inner)))
}

/// `"…"` or `'…'`: the text inside.
fn quoted(s: &str) -> Option<&str> {
    ['"', '\''].into_iter().find_map(|quote| {
        let inner = s.strip_prefix(quote)?.strip_suffix(quote)?;
        // One quoted string, not `"a" "b"`.
        (!inner.contains(quote)).then_some(inner)
    })
}

/// `ObjectId("…")`, `ObjectId('…')`, `new ObjectId("…")`, spaces allowed around the parts.
fn call(s: &str) -> Option<&str> {
    let s = match s.strip_prefix("new") {
        Some(rest) if rest.starts_with(char::is_whitespace) => rest.trim_start(),
        Some(_) => return None,
        None => s,
    };
    let args = s.strip_prefix("ObjectId")?.trim_start();
    let inner = args.strip_prefix('(')?.strip_suffix(')')?;
    quoted(inner.trim())
}

/// `{"$oid": "…"}`, also with `'$oid'` or `$oid` as the key and single-quoted values.
fn oid_map(s: &str) -> Option<&str> {
    let body = s.strip_prefix('{')?.strip_suffix('}')?.trim();
    let rest = ["\"$oid\"", "'$oid'", "$oid"]
        .iter()
        .find_map(|key| body.strip_prefix(key))?;
    quoted(rest.trim_start().strip_prefix(':')?.trim())
}

#[cfg(test)]
mod tests;
