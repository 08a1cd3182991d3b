//! The ids created in a time range, as a pair of bounds for a range query.
//!
//! An id stores only the whole second it was created in, so an id with timestamp `t` may have
//! been created at any instant of `[t, t + 1)`. [`IdRange`] turns a half-open time range
//! `[from, to)` into id bounds that miss no id that may have been created in it: `from` is
//! rounded down to its second and `to` up to the next whole second. The range may therefore hold
//! ids created up to a second before `from` or up to a second after `to`, never fewer.
//!
//! The upper bound is exclusive (`$lt`) except when the range is open-ended or reaches past the
//! last second an id can hold (`0xFFFFFFFF`, 2106-02-07T06:28:15Z): then it is inclusive
//! (`$lte`) on [`ObjectId::MAX`], so ids of that last second are found too.
//!
//! This is the rule shared by every crate of the workspace (the bson filter helpers, the CLI's
//! `range` command, the web page); it lives here, with no allocation and no `std`.

use crate::ObjectId;

const NANOS_PER_SEC: i128 = 1_000_000_000;
const NANOS_PER_MILLI: i128 = 1_000_000;
/// One past the last second an id can hold, in nanoseconds.
const END_NANOS: i128 = (u32::MAX as i128 + 1) * NANOS_PER_SEC;

/// The upper bound of an [`IdRange`]: exclusive (`$lt`) or inclusive (`$lte`).
///
/// # Examples
///
/// ```
/// use oid_core::{IdRange, ObjectId, Upper};
///
/// let closed = IdRange::from_secs(Some(1_700_000_000), Some(1_700_000_060));
/// assert_eq!(closed.upper(), Upper::Lt(ObjectId::min_for_timestamp(1_700_000_060)));
///
/// let open = IdRange::from_secs(Some(1_700_000_000), None);
/// assert_eq!(open.upper(), Upper::Lte(ObjectId::MAX));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Upper {
    /// Ids strictly below this one (`$lt`).
    Lt(ObjectId),
    /// Ids up to and including this one (`$lte`); used for an open end, on [`ObjectId::MAX`].
    Lte(ObjectId),
}

impl Upper {
    /// The bounding id, whichever the kind.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{ObjectId, Upper};
    /// assert_eq!(Upper::Lte(ObjectId::MAX).id(), ObjectId::MAX);
    /// ```
    #[inline]
    pub const fn id(&self) -> ObjectId {
        match *self {
            Upper::Lt(id) | Upper::Lte(id) => id,
        }
    }

    /// `true` for [`Upper::Lte`]: the bounding id itself is in the range.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{ObjectId, Upper};
    /// assert!(Upper::Lte(ObjectId::MAX).is_inclusive());
    /// assert!(!Upper::Lt(ObjectId::MAX).is_inclusive());
    /// ```
    #[inline]
    pub const fn is_inclusive(&self) -> bool {
        matches!(self, Upper::Lte(_))
    }
}

/// The ids that may have been created in a half-open time range `[from, to)`: an inclusive
/// lower bound ([`lower`](IdRange::lower), `$gte`) and an [`Upper`] bound.
///
/// Times are given since the Unix epoch, in seconds, milliseconds or nanoseconds; `None` leaves
/// that end open. Times before 1970 clamp to [`ObjectId::MIN`], times after the last second an
/// id can hold to an inclusive [`ObjectId::MAX`]. An empty time range (`to <= from`, or entirely
/// outside what ids can hold) gives a range that contains no id ([`is_empty`](IdRange::is_empty)).
///
/// # Examples
///
/// ```
/// use oid_core::{oid, IdRange, Upper};
///
/// // One minute, from 2023-11-14T22:13:20.500Z (the fraction rounds down) to 22:14:20Z.
/// let range = IdRange::from_millis(Some(1_700_000_000_500), Some(1_700_000_060_000));
/// assert_eq!(range.lower().to_hex(), "6553f1000000000000000000");
/// assert!(matches!(range.upper(), Upper::Lt(_)));
/// assert_eq!(range.upper().id().to_hex(), "6553f13c0000000000000000");
/// assert!(range.contains(&oid!("6553f1003f2a91c8d4003039")));
/// assert!(!range.contains(&oid!("6553f13c3f2a91c8d4003039")));
///
/// // An open end reaches the last second an id can hold.
/// let since = IdRange::from_secs(Some(1_700_000_000), None);
/// assert_eq!(since.upper(), Upper::Lte(oid_core::ObjectId::MAX));
/// assert!(since.contains(&oid!("ffffffff0000000000000001")));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct IdRange {
    lower: ObjectId,
    upper: Upper,
}

impl IdRange {
    /// Every id: `[ObjectId::MIN, ObjectId::MAX]`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{IdRange, ObjectId};
    /// assert!(IdRange::ALL.contains(&ObjectId::MIN) && IdRange::ALL.contains(&ObjectId::MAX));
    /// assert_eq!(IdRange::from_secs(None, None), IdRange::ALL);
    /// ```
    pub const ALL: IdRange = IdRange {
        lower: ObjectId::MIN,
        upper: Upper::Lte(ObjectId::MAX),
    };

    /// No id: `[MIN, MIN)`.
    const EMPTY: IdRange = IdRange {
        lower: ObjectId::MIN,
        upper: Upper::Lt(ObjectId::MIN),
    };

    /// The ids created in `[from, to)`, times in nanoseconds since the Unix epoch (`None`: open).
    ///
    /// The most precise constructor; [`from_secs`](IdRange::from_secs) and
    /// [`from_millis`](IdRange::from_millis) are this one with other units.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{IdRange, ObjectId, Upper};
    ///
    /// // [10.000000001 s, 12.000000001 s) covers ids of seconds 10, 11 and 12.
    /// let range = IdRange::from_nanos(Some(10_000_000_001), Some(12_000_000_001));
    /// assert_eq!(range.lower(), ObjectId::min_for_timestamp(10));
    /// assert_eq!(range.upper(), Upper::Lt(ObjectId::min_for_timestamp(13)));
    ///
    /// // Before 1970 clamps to the first id; an empty time range holds no id.
    /// assert_eq!(IdRange::from_nanos(Some(-5), None).lower(), ObjectId::MIN);
    /// assert!(IdRange::from_nanos(Some(7), Some(7)).is_empty());
    /// ```
    pub const fn from_nanos(from: Option<i128>, to: Option<i128>) -> IdRange {
        if let (Some(from), Some(to)) = (from, to) {
            if to <= from {
                return IdRange::EMPTY;
            }
        }
        let lower = match from {
            None => ObjectId::MIN,
            Some(from) if from < 0 => ObjectId::MIN,
            Some(from) if from >= END_NANOS => return IdRange::EMPTY,
            // 0 <= from < 2^32 s: the second fits in a u32.
            Some(from) => ObjectId::min_for_timestamp((from / NANOS_PER_SEC) as u32),
        };
        let upper = match to {
            None => Upper::Lte(ObjectId::MAX),
            Some(to) if to <= 0 => return IdRange::EMPTY,
            Some(to) if to > END_NANOS - NANOS_PER_SEC => Upper::Lte(ObjectId::MAX),
            Some(to) => {
                // The first second that starts at or after `to`: ceil(to / 1 s), at most
                // u32::MAX here (0 < to <= u32::MAX s).
                let end = (to + NANOS_PER_SEC - 1) / NANOS_PER_SEC;
                Upper::Lt(ObjectId::min_for_timestamp(end as u32))
            }
        };
        IdRange { lower, upper }
    }

    /// The ids created in `[from, to)`, times in milliseconds since the Unix epoch (as in
    /// `bson::DateTime` and JavaScript's `Date`).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{IdRange, ObjectId, Upper};
    /// let range = IdRange::from_millis(Some(1_000), Some(2_001));
    /// assert_eq!(range.lower(), ObjectId::min_for_timestamp(1));
    /// assert_eq!(range.upper(), Upper::Lt(ObjectId::min_for_timestamp(3)));
    /// ```
    pub const fn from_millis(from: Option<i64>, to: Option<i64>) -> IdRange {
        IdRange::from_nanos(
            match from {
                Some(ms) => Some(ms as i128 * NANOS_PER_MILLI),
                None => None,
            },
            match to {
                Some(ms) => Some(ms as i128 * NANOS_PER_MILLI),
                None => None,
            },
        )
    }

    /// The ids created in `[from, to)`, times in whole seconds since the Unix epoch.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{IdRange, ObjectId, Upper};
    /// let day = IdRange::from_secs(Some(1_700_000_000), Some(1_700_086_400));
    /// assert_eq!(day.lower(), ObjectId::min_for_timestamp(1_700_000_000));
    /// assert_eq!(day.upper(), Upper::Lt(ObjectId::min_for_timestamp(1_700_086_400)));
    ///
    /// // The last second ids can hold is reachable.
    /// let last = IdRange::from_secs(Some(u32::MAX.into()), Some(i64::MAX));
    /// assert_eq!(last.upper(), Upper::Lte(ObjectId::MAX));
    /// assert!(last.contains(&ObjectId::MAX));
    /// ```
    pub const fn from_secs(from: Option<i64>, to: Option<i64>) -> IdRange {
        IdRange::from_nanos(
            match from {
                Some(s) => Some(s as i128 * NANOS_PER_SEC),
                None => None,
            },
            match to {
                Some(s) => Some(s as i128 * NANOS_PER_SEC),
                None => None,
            },
        )
    }

    /// The inclusive lower bound (`$gte`).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{IdRange, ObjectId};
    /// assert_eq!(IdRange::from_secs(Some(1), None).lower(), ObjectId::min_for_timestamp(1));
    /// ```
    #[inline]
    pub const fn lower(&self) -> ObjectId {
        self.lower
    }

    /// The upper bound: [`Upper::Lt`], or [`Upper::Lte`] on [`ObjectId::MAX`] for an open end.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{IdRange, ObjectId, Upper};
    /// assert_eq!(IdRange::from_secs(None, Some(2)).upper(), Upper::Lt(ObjectId::min_for_timestamp(2)));
    /// ```
    #[inline]
    pub const fn upper(&self) -> Upper {
        self.upper
    }

    /// `true` when no id is in the range.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::IdRange;
    /// assert!(IdRange::from_secs(Some(5), Some(5)).is_empty());
    /// assert!(IdRange::from_secs(None, Some(0)).is_empty());
    /// assert!(!IdRange::from_secs(Some(5), Some(6)).is_empty());
    /// ```
    #[inline]
    pub const fn is_empty(&self) -> bool {
        match self.upper {
            Upper::Lt(end) => !less(&self.lower, &end),
            Upper::Lte(end) => less(&end, &self.lower),
        }
    }

    /// `true` when `id` is in the range.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{IdRange, ObjectId};
    /// let range = IdRange::from_secs(Some(10), Some(11));
    /// assert!(range.contains(&ObjectId::from_parts(10, [0xff; 5], 0xffffff)));
    /// assert!(!range.contains(&ObjectId::min_for_timestamp(11)));
    /// ```
    #[inline]
    pub const fn contains(&self, id: &ObjectId) -> bool {
        !less(id, &self.lower)
            && match self.upper {
                Upper::Lt(end) => less(id, &end),
                Upper::Lte(end) => !less(&end, id),
            }
    }
}

/// `a < b` in the ids' byte-wise order, usable in `const fn`.
const fn less(a: &ObjectId, b: &ObjectId) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < 12 {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
        i += 1;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn min(s: u32) -> ObjectId {
        ObjectId::min_for_timestamp(s)
    }

    /// The first and the last id of second `s`.
    fn edge_ids(s: u32) -> [ObjectId; 2] {
        [
            ObjectId::min_for_timestamp(s),
            ObjectId::max_for_timestamp(s),
        ]
    }

    #[test]
    fn whole_seconds_are_half_open() {
        let r = IdRange::from_secs(Some(100), Some(103));
        assert_eq!(r.lower(), min(100));
        assert_eq!(r.upper(), Upper::Lt(min(103)));
        for s in 100..103 {
            for id in edge_ids(s) {
                assert!(r.contains(&id), "{s}");
            }
        }
        for id in edge_ids(99).into_iter().chain(edge_ids(103)) {
            assert!(!r.contains(&id));
        }
    }

    #[test]
    fn fractions_widen_to_whole_seconds() {
        // from 100.5 s: an id of second 100 may have been made at 100.7 s.
        let r = IdRange::from_millis(Some(100_500), Some(102_250));
        assert_eq!(r.lower(), min(100));
        // to 102.25 s: an id of second 102 may have been made at 102.1 s.
        assert_eq!(r.upper(), Upper::Lt(min(103)));
        // One nanosecond past a whole second.
        let r = IdRange::from_nanos(Some(1), Some(1_000_000_001));
        assert_eq!((r.lower(), r.upper()), (min(0), Upper::Lt(min(2))));
        // Inside one second.
        let r = IdRange::from_millis(Some(5_100), Some(5_900));
        assert_eq!((r.lower(), r.upper()), (min(5), Upper::Lt(min(6))));
        assert!(!r.is_empty());
    }

    #[test]
    fn no_id_of_the_range_is_missed_exhaustively_in_small_steps() {
        // Every (from, to) pair on a 250 ms grid over 0..4 s: an id of second t belongs to
        // [from, to) when [t, t+1) meets it, and must then be inside the bounds.
        let grid: [i64; 17] = [
            0, 250, 500, 750, 1000, 1250, 1500, 1750, 2000, 2250, 2500, 2750, 3000, 3250, 3500,
            3750, 4000,
        ];
        for from in grid {
            for to in grid {
                let r = IdRange::from_millis(Some(from), Some(to));
                for t in 0..5_i64 {
                    let meets = from < to && t * 1000 < to && from < (t + 1) * 1000;
                    for id in edge_ids(t as u32) {
                        if meets {
                            assert!(r.contains(&id), "{from} {to} {t}");
                        }
                    }
                    // And nothing more than the seconds the range touches.
                    if !meets {
                        assert!(!r.contains(&min(t as u32)), "{from} {to} {t}");
                    }
                }
            }
        }
    }

    #[test]
    fn open_and_out_of_range_ends() {
        assert_eq!(IdRange::from_secs(None, None), IdRange::ALL);
        let r = IdRange::from_secs(Some(-10), Some(1));
        assert_eq!((r.lower(), r.upper()), (ObjectId::MIN, Upper::Lt(min(1))));
        // The last second is reachable with $lte on the max id.
        let r = IdRange::from_secs(Some(u32::MAX as i64), None);
        assert_eq!(r.lower(), min(u32::MAX));
        assert_eq!(r.upper(), Upper::Lte(ObjectId::MAX));
        assert!(r.contains(&ObjectId::MAX));
        // `to` exactly one past the last second: the same inclusive bound.
        let r = IdRange::from_secs(Some(0), Some(u32::MAX as i64 + 1));
        assert_eq!(r.upper(), Upper::Lte(ObjectId::MAX));
        let r = IdRange::from_secs(Some(0), Some(u32::MAX as i64));
        assert_eq!(r.upper(), Upper::Lt(min(u32::MAX)));
        // Entirely outside what ids can hold: empty.
        for r in [
            IdRange::from_secs(Some(u32::MAX as i64 + 1), None),
            IdRange::from_secs(Some(-20), Some(-10)),
            IdRange::from_secs(None, Some(0)),
            IdRange::from_secs(Some(9), Some(3)),
            IdRange::from_nanos(Some(i128::MIN), Some(i128::MIN)),
            IdRange::from_nanos(Some(i128::MAX), Some(i128::MAX)),
        ] {
            assert!(r.is_empty(), "{r:?}");
            assert!(!r.contains(&ObjectId::MIN) && !r.contains(&ObjectId::MAX));
        }
        // Extremes do not overflow.
        assert_eq!(
            IdRange::from_millis(Some(i64::MIN), Some(i64::MAX)),
            IdRange::ALL
        );
        assert_eq!(
            IdRange::from_secs(Some(i64::MIN), Some(i64::MAX)),
            IdRange::ALL
        );
        assert_eq!(
            IdRange::from_nanos(Some(i128::MIN), Some(i128::MAX)),
            IdRange::ALL
        );
    }

    #[test]
    fn const_usable() {
        // Compiles only while the constructors and `contains` stay `const fn`.
        const R: IdRange = IdRange::from_secs(Some(1), Some(2));
        const { assert!(R.contains(&ObjectId::from_parts(1, [1; 5], 1))) };
        const { assert!(!R.contains(&ObjectId::min_for_timestamp(2))) };
    }
}
