//! The layouts of the id space's three 64-bit words (see [`IdSpace`](super::IdSpace)).
//!
//! * The **era**: `(random << 24) | seq`, the 40-bit random value and a 24-bit sequence number,
//!   odd while the random value changes: a rotation adds 2, a reseed (which sets the counter
//!   back, unlike a rotation) adds 2 + 2^16, so bits 16..24 ([`RESEEDS`]) change with every
//!   reseed (and with every 2^15-th rotation, which costs at most a racing reservation's block).
//! * The **window**: `(second << 32) | start`, the newest second stamped and the counter value
//!   its 2^24 ids start at (`start < 2^31`), or [`UNOPENED`]. No window can equal `UNOPENED`,
//!   whatever the second: its `start` half, `0xFFFFFFFF`, is not a 31-bit value.
//! * The **counter**: `(value << 33) | TAGGED | second`, the next counter value (31 bits, of
//!   which ids use the low 24: 2^31 is a multiple of 2^24, so the word's wrap is also the
//!   specification's `0xFFFFFF` → `0`), and the second of the window it is counted in. The
//!   [`TAGGED`] bit sets every tag apart from the untagged counter of a fresh (or reseeded) id
//!   space, so each of the 2^32 seconds is a tag of its own, `0xFFFFFFFF` included.

/// The window before the first reservation (and after a reseed).
pub(super) const UNOPENED: u64 = u64::MAX;

/// The counter word's flag: tagged with the second in its low 32 bits.
pub(super) const TAGGED: u64 = 1 << 32;

/// The counter word's tag bits: [`TAGGED`] and the second.
pub(super) const TAG_MASK: u64 = (1 << 33) - 1;

/// The counter's values wrap modulo 2^31.
pub(super) const VALUE_MASK: u32 = (1 << 31) - 1;

/// One counter value, in a counter word: adding it wraps the value and never carries into the
/// tag.
pub(super) const ONE: u64 = 1 << 33;

/// A window word for `second` starting at `start` (taken modulo 2^31).
pub(super) const fn window(second: u32, start: u32) -> u64 {
    ((second as u64) << 32) | (start & VALUE_MASK) as u64
}

/// The second and the start of a window word.
pub(super) const fn halves(word: u64) -> (u32, u32) {
    ((word >> 32) as u32, word as u32)
}

/// A counter word with `value` (taken modulo 2^31), tagged with `second`.
pub(super) const fn counted(second: u32, value: u32) -> u64 {
    (((value & VALUE_MASK) as u64) << 33) | TAGGED | second as u64
}

/// An untagged counter word (before the first window).
pub(super) const fn untagged(value: u32) -> u64 {
    ((value & VALUE_MASK) as u64) << 33
}

/// The tag (`None`: untagged) and the value of a counter word.
pub(super) const fn uncounted(word: u64) -> (Option<u32>, u32) {
    let tag = if word & TAGGED != 0 {
        Some(word as u32)
    } else {
        None
    };
    (tag, (word >> 33) as u32)
}

/// How far `value` lies past `start`, modulo the counter's 2^31.
pub(super) const fn distance(value: u32, start: u32) -> u32 {
    value.wrapping_sub(start) & VALUE_MASK
}

/// An era word: the random value and the sequence number.
pub(super) const fn era(random: [u8; 5], seq: u32) -> u64 {
    era_of(
        u64::from_be_bytes([
            0, 0, 0, random[0], random[1], random[2], random[3], random[4],
        ]),
        seq,
    )
}

/// An era word: the random value as a 40-bit number, and the sequence number.
pub(super) const fn era_of(random: u64, seq: u32) -> u64 {
    (random << 24) | (seq & 0xff_ffff) as u64
}

/// The random value of an era word.
pub(super) const fn era_random(word: u64) -> [u8; 5] {
    let b = (word >> 24).to_be_bytes();
    [b[3], b[4], b[5], b[6], b[7]]
}

/// The era word's count of reseeds (bits 16..24): a reservation keeps values it took across a
/// rotation, but not across a reseed.
pub(super) const RESEEDS: u64 = 0xff_0000;

/// Whether a change of the random value (a rotation or a reseed) is running.
pub(super) const fn reseeding(word: u64) -> bool {
    word & 1 != 0
}

/// The even era word `word`, marked: its sequence number made odd.
pub(super) const fn next_seq(word: u64) -> u64 {
    word | 1
}

/// The sequence number after a rotation from the even era word `seen` (wrapping within its 24
/// bits, in [`era`]).
pub(super) const fn rotated_seq(seen: u64) -> u32 {
    (seen as u32).wrapping_add(2)
}

/// The sequence number after a reseed from the even era word `seen`.
pub(super) const fn reseeded_seq(seen: u64) -> u32 {
    (seen as u32).wrapping_add(0x1_0002)
}

/// Whether `now` is a later second than `secs`: serial-number arithmetic on the 32-bit field
/// (RFC 1982), so a reading less than 2^31 seconds ahead is later, and after `0xFFFFFFFF` comes
/// `0`.
pub(super) const fn later(now: u32, secs: u32) -> bool {
    (now.wrapping_sub(secs) as i32) > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_window_equals_unopened() {
        for second in [0, 1, u32::MAX - 1, u32::MAX] {
            for start in [0, 1, VALUE_MASK, u32::MAX] {
                assert_ne!(window(second, start), UNOPENED);
            }
        }
    }

    #[test]
    fn every_second_is_a_tag_of_its_own() {
        for second in [0, 1, u32::MAX - 1, u32::MAX] {
            let word = counted(second, 5);
            assert_eq!(uncounted(word), (Some(second), 5));
            assert_ne!(word & TAG_MASK, untagged(5) & TAG_MASK);
        }
        assert_eq!(uncounted(untagged(u32::MAX)), (None, VALUE_MASK));
    }

    #[test]
    fn one_wraps_the_value_and_keeps_the_tag() {
        let word = counted(u32::MAX, VALUE_MASK).wrapping_add(ONE);
        assert_eq!(uncounted(word), (Some(u32::MAX), 0));
        // The value's wrap is a multiple of 2^24: the id's counter goes 0xFFFFFF -> 0.
        assert_eq!(VALUE_MASK & 0xff_ffff, 0xff_ffff);
    }

    #[test]
    fn later_is_serial_number_arithmetic() {
        assert!(later(1, 0));
        assert!(later(0, u32::MAX));
        assert!(later(5, u32::MAX - 5));
        assert!(!later(u32::MAX, 0));
        assert!(!later(7, 7));
        assert!(later(0x7fff_ffff, 0));
        assert!(!later(0x8000_0000, 0));
    }

    #[test]
    fn era_words_round_trip() {
        let r = [0xff, 1, 2, 3, 0xfe];
        let e = era(r, 0xff_fffe);
        assert_eq!(era_random(e), r);
        assert!(!reseeding(e));
        assert!(reseeding(next_seq(e)));
        assert_eq!(next_seq(e), era(r, 0xff_ffff));
        // A rotation keeps the reseed bits (but every 2^15-th), a reseed moves them on; both
        // wrap within the 24 bits.
        assert_eq!(era(r, rotated_seq(e)), era(r, 0));
        assert_eq!(era(r, reseeded_seq(e)), era(r, 0x01_0000));
        let f = era(r, 0x12_0004);
        let seq = |s: u32| s & 0xff_ffff;
        assert_eq!(
            (seq(rotated_seq(f)), seq(reseeded_seq(f))),
            (0x12_0006, 0x13_0006)
        );
        assert_eq!(era(r, rotated_seq(f)) & RESEEDS, f & RESEEDS);
        assert_ne!(era(r, reseeded_seq(f)) & RESEEDS, f & RESEEDS);
    }
}
