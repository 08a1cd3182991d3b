//! The `oid!` macro.

/// An [`ObjectId`](crate::ObjectId) literal, checked at compile time.
///
/// The argument must be a string literal of exactly 24 hex digits (any case); anything else
/// fails to compile. The result is a constant, so it can initialise a `const` or `static`.
///
/// # Examples
///
/// ```
/// use oid_core::{oid, ObjectId};
///
/// const ID: ObjectId = oid!("507f1f77bcf86cd799439011");
/// assert_eq!(ID.timestamp(), 1_350_508_407);
/// ```
///
/// A bad literal is a compile error:
///
/// ```compile_fail
/// let id = oid_core::oid!("507f1f77bcf86cd79943901z");
/// ```
#[macro_export]
macro_rules! oid {
    ($s:literal) => {{
        const OUTPUT: $crate::ObjectId = match $crate::ObjectId::parse_str($s) {
            ::core::result::Result::Ok(id) => id,
            ::core::result::Result::Err(err) => err.panic_const(),
        };
        OUTPUT
    }};
}
