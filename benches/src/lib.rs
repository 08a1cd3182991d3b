//! Hand-written floors the benchmarks compare against: the least work an operation can do,
//! written for the benchmarks alone. The benches themselves are in `benches/`; the measured
//! tables and the commands are in this crate's README.

pub mod before;
pub mod before_std;

/// Hex digit values, `0xf0` for every byte that is not a hex digit.
static FLOOR_TABLE: [u8; 256] = {
    let mut t = [0xf0u8; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        t[i] = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => 0xf0,
        };
        i += 1;
    }
    t
};

/// The floor for parsing: a validated, branch-free decode of 24 hex digits (a table lookup per
/// digit, validity collected and checked once), returning plain bytes: no error value, no
/// diagnostics, no `ObjectId`.
///
/// # Examples
///
/// ```
/// assert_eq!(
///     oid_benches::floor_decode("507f1f77bcf86cd799439011"),
///     Some([0x50, 0x7f, 0x1f, 0x77, 0xbc, 0xf8, 0x6c, 0xd7, 0x99, 0x43, 0x90, 0x11])
/// );
/// assert_eq!(oid_benches::floor_decode("507f1f77bcf86cd79943901g"), None);
/// ```
#[inline]
pub fn floor_decode(s: &str) -> Option<[u8; 12]> {
    let b: &[u8; 24] = s.as_bytes().try_into().ok()?;
    let mut out = [0u8; 12];
    let mut seen = 0u8;
    for (o, pair) in out.iter_mut().zip(b.chunks_exact(2)) {
        let (hi, lo) = (FLOOR_TABLE[pair[0] as usize], FLOOR_TABLE[pair[1] as usize]);
        seen |= hi | lo;
        *o = (hi << 4) | (lo & 0x0f);
    }
    (seen & 0xf0 == 0).then_some(out)
}

/// The floor for `to_string()`: encode into the stack ([`oid_core::ObjectId::to_hex`]) and copy
/// into one `String` allocation of the exact length.
///
/// # Examples
///
/// ```
/// let id = oid_core::oid!("507f1f77bcf86cd799439011");
/// assert_eq!(oid_benches::floor_to_string(&id), id.to_string());
/// ```
#[inline]
pub fn floor_to_string(id: &oid_core::ObjectId) -> String {
    String::from(id.to_hex().as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The floor decodes like `parse_str` on every single-character change of an id, so the
    /// benchmark compares the same work.
    #[test]
    fn floor_decode_agrees_with_parse_str() {
        let base = *b"507f1f77bcf86cd799439011";
        for i in 0..24 {
            for c in 0..=255u8 {
                let mut s = base;
                s[i] = c;
                let Ok(s) = core::str::from_utf8(&s) else {
                    continue;
                };
                let ours = oid_core::ObjectId::parse_str(s).ok().map(|id| id.bytes());
                assert_eq!(floor_decode(s), ours, "{s:?}");
            }
        }
        assert_eq!(floor_decode("507f1f77bcf86cd79943901"), None);
        assert_eq!(floor_decode("507f1f77bcf86cd7994390111"), None);
    }

    #[test]
    fn floor_to_string_is_lower_hex() {
        let id = oid_core::ObjectId::from_bytes([0xab; 12]);
        assert_eq!(floor_to_string(&id), "abababababababababababab");
        assert_eq!(floor_to_string(&id), id.to_string());
    }
}

/// The workspace README's examples, run as doc tests (this crate already depends on every
/// crate they use).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
