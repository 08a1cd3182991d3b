//! The one `Sealed` trait of the crate: implemented for the types this crate's sealed traits
//! ([`UnixTime`](crate::UnixTime), [`ObjectIdExt`](crate::prelude::ObjectIdExt)) cover,
//! nameable only inside the crate.

/// Implemented only inside this crate.
#[allow(
    unreachable_pub,
    reason = "sealed trait pattern: nameable only inside this crate"
)]
pub trait Sealed {}
