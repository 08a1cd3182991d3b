//! `use oid_std::prelude::*;` brings [`ObjectId`], the [`ObjectIdExt`] extension trait (so
//! that `ObjectId::new()` and friends work) and [`UnixTime`] (a time to a timestamp).
//!
//! # Examples
//!
//! ```
//! use std::time::{Duration, SystemTime};
//! use oid_std::prelude::*;
//!
//! let id = ObjectId::new();
//! let now = SystemTime::now();
//! assert!(now.duration_since(id.generation_time()).unwrap() < Duration::from_secs(2));
//!
//! let yesterday = now - Duration::from_secs(86_400);
//! let lo = ObjectId::min_for_timestamp(yesterday.to_oid_timestamp()?);
//! let hi = ObjectId::max_for_timestamp(now.to_oid_timestamp()?);
//! assert!(lo <= id && id <= hi);
//! # Ok::<(), oid_std::TimeOutOfRange>(())
//! ```

pub use crate::ext::ObjectIdExt;
pub use crate::unix_time::UnixTime;
pub use oid_core::ObjectId;
