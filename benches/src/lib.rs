//! Hand-written floors the benchmarks compare against: the least work an operation can do,
//! written for the benchmarks alone. The benches themselves are in `benches/`; the measured
//! tables and the commands are in this crate's README.

/// A validated decode of 24 hex digits eight at a time, in `u64` lanes (SWAR): range checks and
/// nibble values for eight bytes per operation, then the pairs joined by shifts. Safe code, no
/// table. A candidate for the floor, measured beside [`floor_decode`] in the `hex` and
/// `text_loop` benches: slower there (the compiler's vector code for `floor_decode` does 16 bytes
/// at a time), so `floor_decode` stays the floor.
///
/// # Examples
///
/// ```
/// let hex = "507f1f77bcf86cd799439011";
/// assert_eq!(oid_benches::swar_decode(hex), oid_benches::floor_decode(hex));
/// assert_eq!(oid_benches::swar_decode("507f1f77bcf86cd79943901g"), None);
/// ```
#[inline]
pub fn swar_decode(s: &str) -> Option<[u8; 12]> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    /// Four decoded bytes (low 32 bits) of eight hex digits, and a mask that is not zero when
    /// one of them is not a hex digit.
    #[inline(always)]
    fn eight(x: u64) -> (u32, u64) {
        let x7 = x & !HIGH;
        // Per byte below 0x80, without carries between bytes: b >= lo and b <= hi.
        let ge = |b: u64, lo: u64| b + ONES * (0x80 - lo);
        let le = |b: u64, hi: u64| ONES * (0x80 + hi) - b;
        let digit = ge(x7, 0x30) & le(x7, 0x39) & HIGH;
        let lower = x7 | (ONES * 0x20);
        let letter = ge(lower, 0x61) & le(lower, 0x66) & HIGH;
        let invalid = (x & HIGH) | (!(digit | letter) & HIGH);
        let v = (x & (ONES * 0x0f)) + (letter >> 7) * 9;
        let t = ((v << 4) | (v >> 8)) & 0x00ff_00ff_00ff_00ff;
        let t = (t | (t >> 8)) & 0x0000_ffff_0000_ffff;
        let t = t | (t >> 16);
        (t as u32, invalid)
    }
    let b: &[u8; 24] = s.as_bytes().try_into().ok()?;
    let word = |k: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[8 * k..8 * k + 8]);
        u64::from_le_bytes(w)
    };
    let (a, ia) = eight(word(0));
    let (b2, ib) = eight(word(1));
    let (c, ic) = eight(word(2));
    if ia | ib | ic != 0 {
        return None;
    }
    let mut out = [0u8; 12];
    out[..4].copy_from_slice(&a.to_le_bytes());
    out[4..8].copy_from_slice(&b2.to_le_bytes());
    out[8..].copy_from_slice(&c.to_le_bytes());
    Some(out)
}

/// The floor for parsing: a validated decode of 24 hex digits by arithmetic alone (no table, no
/// branch per digit; the compiler vectorises it), returning plain bytes: no error value, no
/// diagnostics, no `ObjectId`. The fastest safe code we know for the work `parse_str` does on
/// valid input; [`table_decode`] is the classic table-driven one, kept as a reference.
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
    let mut values = [0u8; 24];
    let mut invalid = 0u8;
    for (v, &c) in values.iter_mut().zip(b) {
        let d = c.wrapping_sub(b'0');
        let l = (c | 0x20).wrapping_sub(b'a');
        let (is_digit, is_letter) = (u8::from(d < 10), u8::from(l < 6));
        // Multiplications by the 0/1 flags, not selects: this form is the one LLVM vectorises.
        *v = d.wrapping_mul(is_digit) + l.wrapping_add(10).wrapping_mul(is_letter);
        invalid |= (is_digit | is_letter) ^ 1;
    }
    let mut out = [0u8; 12];
    for (o, pair) in out.iter_mut().zip(values.chunks_exact(2)) {
        *o = (pair[0] << 4) | pair[1];
    }
    (invalid == 0).then_some(out)
}

/// Hex digit values, `0xf0` for every byte that is not a hex digit.
static DECODE_TABLE: [u8; 256] = {
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

/// A reference, not the floor: the classic table-driven validated decode (a 256-entry table
/// lookup per digit, validity collected and checked once). oid-core's parser worked this way
/// before it moved to [`floor_decode`]'s arithmetic.
///
/// # Examples
///
/// ```
/// let hex = "507f1f77bcf86cd799439011";
/// assert_eq!(oid_benches::table_decode(hex), oid_benches::floor_decode(hex));
/// assert_eq!(oid_benches::table_decode("507f1f77bcf86cd79943901g"), None);
/// ```
#[inline]
pub fn table_decode(s: &str) -> Option<[u8; 12]> {
    let b: &[u8; 24] = s.as_bytes().try_into().ok()?;
    let mut out = [0u8; 12];
    let mut seen = 0u8;
    for (o, pair) in out.iter_mut().zip(b.chunks_exact(2)) {
        let (hi, lo) = (
            DECODE_TABLE[pair[0] as usize],
            DECODE_TABLE[pair[1] as usize],
        );
        seen |= hi | lo;
        *o = (hi << 4) | (lo & 0x0f);
    }
    (seen & 0xf0 == 0).then_some(out)
}

/// The floor for encoding: 12 bytes to 24 lowercase hex digits by arithmetic (nibbles split, then
/// `'0' + n`, plus `'a' - '0' - 10` for the letters), on the stack.
///
/// # Examples
///
/// ```
/// assert_eq!(&oid_benches::floor_encode(&[0xab; 12]), b"abababababababababababab");
/// ```
#[inline]
pub fn floor_encode(bytes: &[u8; 12]) -> [u8; 24] {
    let mut out = [0u8; 24];
    for (pair, b) in out.chunks_exact_mut(2).zip(bytes) {
        pair[0] = b >> 4;
        pair[1] = b & 0x0f;
    }
    for c in &mut out {
        *c += b'0' + u8::from(*c > 9) * (b'a' - b'0' - 10);
    }
    out
}

/// A reference, not the floor: encoding through a 16-character table.
///
/// # Examples
///
/// ```
/// let bytes = [0x50, 0x7f, 0x1f, 0x77, 0xbc, 0xf8, 0x6c, 0xd7, 0x99, 0x43, 0x90, 0x11];
/// assert_eq!(&oid_benches::table_encode(&bytes), b"507f1f77bcf86cd799439011");
/// ```
#[inline]
pub fn table_encode(bytes: &[u8; 12]) -> [u8; 24] {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = [0u8; 24];
    for (pair, b) in out.chunks_exact_mut(2).zip(bytes) {
        pair[0] = DIGITS[usize::from(b >> 4)];
        pair[1] = DIGITS[usize::from(b & 0x0f)];
    }
    out
}

/// The floor for `to_string()`: [`floor_encode`] on the stack, one allocation of exactly 24 bytes,
/// one copy, and no UTF-8 check (the digits are ASCII by construction). Safe code cannot skip that
/// check (`str::from_utf8`, about 5 ns on 24 bytes here, see the README), so this floor is below
/// what oid-core, which forbids `unsafe`, can reach.
///
/// # Examples
///
/// ```
/// let id = oid_core::oid!("507f1f77bcf86cd799439011");
/// assert_eq!(oid_benches::floor_to_string(&id), id.to_string());
/// ```
#[inline]
pub fn floor_to_string(id: &oid_core::ObjectId) -> String {
    let mut v = Vec::with_capacity(24);
    v.extend_from_slice(&floor_encode(id.as_bytes()));
    // SAFETY: `floor_encode` writes only the ASCII bytes `0-9a-f` (its test below checks all
    // 256 byte values), and ASCII is UTF-8. Unchecked because this is the floor: the least work.
    unsafe { String::from_utf8_unchecked(v) }
}

/// The same as [`floor_to_string`] in safe code: the UTF-8 check included.
///
/// # Examples
///
/// ```
/// let id = oid_core::oid!("507f1f77bcf86cd799439011");
/// assert_eq!(oid_benches::safe_to_string(&id), id.to_string());
/// ```
#[inline]
pub fn safe_to_string(id: &oid_core::ObjectId) -> String {
    let hex = floor_encode(id.as_bytes());
    String::from(core::str::from_utf8(&hex).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The floor and the table reference decode like `parse_str` on every single-byte change of
    /// an id, so the benchmark compares the same work.
    #[test]
    fn decoders_agree_with_parse_str() {
        for base in [*b"507f1f77bcf86cd799439011", *b"ABCDEF0123456789aBcDeF09"] {
            for i in 0..24 {
                for c in 0..=255u8 {
                    let mut s = base;
                    s[i] = c;
                    let Ok(s) = core::str::from_utf8(&s) else {
                        continue;
                    };
                    let ours = oid_core::ObjectId::parse_str(s).ok().map(|id| id.bytes());
                    assert_eq!(floor_decode(s), ours, "{s:?}");
                    assert_eq!(swar_decode(s), ours, "{s:?}");
                    assert_eq!(table_decode(s), ours, "{s:?}");
                }
            }
        }
        for s in ["507f1f77bcf86cd79943901", "507f1f77bcf86cd7994390111", ""] {
            assert_eq!(floor_decode(s), None);
            assert_eq!(swar_decode(s), None);
            assert_eq!(table_decode(s), None);
        }
    }

    #[test]
    fn encoders_agree_with_to_hex_on_every_byte_value() {
        for v in 0..=255u8 {
            for pos in 0..12 {
                let mut bytes = [0u8; 12];
                bytes[pos] = v;
                let id = oid_core::ObjectId::from_bytes(bytes);
                assert_eq!(&floor_encode(&bytes), id.to_hex().as_bytes());
                assert_eq!(&table_encode(&bytes), id.to_hex().as_bytes());
                assert!(floor_encode(&bytes).is_ascii());
                assert_eq!(floor_to_string(&id), id.to_string());
                assert_eq!(safe_to_string(&id), id.to_string());
            }
        }
    }
}

/// The workspace README's examples, run as doc tests (this crate already depends on every
/// crate they use).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
