//! The text forms of an id, formatted into stack buffers with no allocation: [`Hex`] (from
//! [`ObjectId::to_hex`]) and [`Rfc3339`] (from [`ObjectId::rfc3339`]). Like uuid's `fmt`
//! module, it holds the types those methods return; `Display` writes the lowercase hex.

use core::fmt;

use crate::ObjectId;

/// `'a' - '0' - 10`: added to nibbles 10..=15 for lower-case letters.
const LOWER: u8 = b'a' - b'0' - 10;
/// `'A' - '0' - 10`: the same for upper case.
const UPPER: u8 = b'A' - b'0' - 10;

/// Encodes 12 bytes as 24 hex digits. Written as two simple byte loops without branches so
/// that LLVM vectorises them (SSE2 on x86_64: about 40 instructions, no table, no unsafe).
#[inline]
fn encode(bytes: &[u8; 12], letter_offset: u8) -> [u8; 24] {
    let mut out = [0u8; 24];
    for (i, b) in bytes.iter().enumerate() {
        out[2 * i] = b >> 4;
        out[2 * i + 1] = b & 0x0f;
    }
    for c in out.iter_mut() {
        let n = *c;
        *c = n + b'0' + if n > 9 { letter_offset } else { 0 };
    }
    out
}

/// Views an encoded buffer as `&str`. The buffer only ever holds ASCII hex digits, so the
/// check cannot fail; the fallback keeps this path free of panics all the same.
#[inline]
const fn as_str(buf: &[u8; 24]) -> &str {
    match core::str::from_utf8(buf) {
        Ok(s) => s,
        Err(_) => "",
    }
}

/// An ObjectId's 24-character hex form, held on the stack.
///
/// Returned by [`ObjectId::to_hex`] and [`ObjectId::to_hex_upper`]. It dereferences to
/// [`str`], implements [`Display`](fmt::Display), and compares equal to string slices.
///
/// # Examples
///
/// ```
/// use oid_core::oid;
/// let hex = oid!("507F1F77BCF86CD799439011").to_hex();
/// assert_eq!(hex, "507f1f77bcf86cd799439011");
/// assert_eq!(hex.len(), 24);
/// assert!(hex.starts_with("507f"));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hex([u8; 24]);

impl Hex {
    /// The length of the hex form: 24.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(oid_core::fmt::Hex::LENGTH, 24);
    /// ```
    pub const LENGTH: usize = 24;

    /// The hex form as a string slice.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// assert_eq!(ObjectId::MIN.to_hex().as_str(), "000000000000000000000000");
    /// ```
    #[inline]
    pub const fn as_str(&self) -> &str {
        as_str(&self.0)
    }

    /// The hex form as ASCII bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// assert_eq!(ObjectId::MAX.to_hex().as_bytes(), b"ffffffffffffffffffffffff");
    /// ```
    #[inline]
    pub const fn as_bytes(&self) -> &[u8; 24] {
        &self.0
    }
}

impl core::ops::Deref for Hex {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Hex {
    #[inline]
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl fmt::Debug for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl PartialEq<str> for Hex {
    fn eq(&self, other: &str) -> bool {
        self.0.as_slice() == other.as_bytes()
    }
}

impl PartialEq<&str> for Hex {
    fn eq(&self, other: &&str) -> bool {
        self.0.as_slice() == other.as_bytes()
    }
}

impl PartialEq<Hex> for str {
    fn eq(&self, other: &Hex) -> bool {
        other == self
    }
}

impl PartialEq<Hex> for &str {
    fn eq(&self, other: &Hex) -> bool {
        other == *self
    }
}

impl ObjectId {
    /// Writes the lowercase hex form into `buf` and returns it as a `&str`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::oid;
    /// let mut buf = [0u8; 24];
    /// let s = oid!("507F1F77BCF86CD799439011").encode_hex(&mut buf);
    /// assert_eq!(s, "507f1f77bcf86cd799439011");
    /// ```
    #[inline]
    pub fn encode_hex<'b>(&self, buf: &'b mut [u8; 24]) -> &'b str {
        *buf = encode(self.as_bytes(), LOWER);
        as_str(buf)
    }

    /// Writes the uppercase hex form into `buf` and returns it as a `&str`.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::oid;
    /// let mut buf = [0u8; 24];
    /// let s = oid!("507f1f77bcf86cd799439011").encode_hex_upper(&mut buf);
    /// assert_eq!(s, "507F1F77BCF86CD799439011");
    /// ```
    #[inline]
    pub fn encode_hex_upper<'b>(&self, buf: &'b mut [u8; 24]) -> &'b str {
        *buf = encode(self.as_bytes(), UPPER);
        as_str(buf)
    }

    /// The lowercase hex form, on the stack (no allocation).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::ObjectId;
    /// let id = ObjectId::from_parts(1_700_000_000, [0x3f, 0x2a, 0x91, 0xc8, 0xd4], 12345);
    /// assert_eq!(id.to_hex(), "6553f1003f2a91c8d4003039");
    /// let s: &str = &id.to_hex();
    /// assert_eq!(s.len(), 24);
    /// ```
    #[inline]
    pub fn to_hex(&self) -> Hex {
        Hex(encode(self.as_bytes(), LOWER))
    }

    /// The uppercase hex form, on the stack (no allocation).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::oid;
    /// assert_eq!(oid!("507f1f77bcf86cd799439011").to_hex_upper(), "507F1F77BCF86CD799439011");
    /// ```
    #[inline]
    pub fn to_hex_upper(&self) -> Hex {
        Hex(encode(self.as_bytes(), UPPER))
    }
}

/// Lowercase hex, e.g. `507f1f77bcf86cd799439011`. Width, fill and alignment are honoured.
///
/// # Examples
///
/// ```
/// use oid_core::oid;
/// let id = oid!("507f1f77bcf86cd799439011");
/// assert_eq!(format!("{id}"), "507f1f77bcf86cd799439011");
/// assert_eq!(format!("[{id:>26}]"), "[  507f1f77bcf86cd799439011]");
/// ```
/// An id's creation second as RFC 3339 in UTC, `2012-10-17T21:13:27Z`: 20 bytes on the stack, no
/// allocation and no time crate. From [`ObjectId::rfc3339`].
///
/// # Examples
///
/// ```
/// use oid_core::oid;
/// let time = oid!("507f1f77bcf86cd799439011").rfc3339();
/// assert_eq!(time.as_str(), "2012-10-17T21:13:27Z");
/// assert_eq!(time.to_string(), "2012-10-17T21:13:27Z");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rfc3339([u8; 20]);

impl Rfc3339 {
    /// The text, `YYYY-MM-DDTHH:MM:SSZ`.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(oid_core::ObjectId::MIN.rfc3339().as_str(), "1970-01-01T00:00:00Z");
    /// ```
    pub const fn as_str(&self) -> &str {
        match core::str::from_utf8(&self.0) {
            Ok(s) => s,
            // Unreachable: only ASCII digits and separators are written.
            Err(_) => "",
        }
    }
}

impl fmt::Display for Rfc3339 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl fmt::Debug for Rfc3339 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl ObjectId {
    /// The second this id was created in, as RFC 3339 in UTC (`2012-10-17T21:13:27Z`), for
    /// people and logs; [`timestamp`](ObjectId::timestamp) gives the number. Any id has one:
    /// the 4-byte field reaches 2106-02-07T06:28:15Z.
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_core::{ObjectId, oid};
    /// assert_eq!(oid!("507f1f77bcf86cd799439011").rfc3339().as_str(), "2012-10-17T21:13:27Z");
    /// assert_eq!(ObjectId::MAX.rfc3339().to_string(), "2106-02-07T06:28:15Z");
    /// ```
    pub const fn rfc3339(&self) -> Rfc3339 {
        let secs = self.timestamp();
        let days = (secs / 86_400) as i64;
        let rem = secs % 86_400;
        // Howard Hinnant's `civil_from_days`, for days since 1970-01-01 (never negative here).
        let z = days + 719_468;
        let era = z / 146_097;
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + if month <= 2 { 1 } else { 0 };
        let mut out = *b"0000-00-00T00:00:00Z";
        let fields = [
            (0, 4, year as u32),
            (5, 2, month as u32),
            (8, 2, day as u32),
            (11, 2, rem / 3_600),
            (14, 2, rem / 60 % 60),
            (17, 2, rem % 60),
        ];
        let mut f = 0;
        while f < fields.len() {
            let (at, len, mut value) = fields[f];
            let mut k = len;
            while k > 0 {
                k -= 1;
                out[at + k] = b'0' + (value % 10) as u8;
                value /= 10;
            }
            f += 1;
        }
        Rfc3339(out)
    }
}

impl fmt::Display for ObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex = self.to_hex();
        // `pad` honours width, fill and precision (`{:>30}`); without them a plain write is
        // several times cheaper, and `to_string()` takes this path.
        if f.width().is_none() && f.precision().is_none() {
            f.write_str(hex.as_str())
        } else {
            f.pad(hex.as_str())
        }
    }
}

/// `{:x}`: lowercase hex (`{:#x}` adds a `0x` prefix).
///
/// # Examples
///
/// ```
/// use oid_core::oid;
/// let id = oid!("507F1F77BCF86CD799439011");
/// assert_eq!(format!("{id:x}"), "507f1f77bcf86cd799439011");
/// assert_eq!(format!("{id:#x}"), "0x507f1f77bcf86cd799439011");
/// ```
impl fmt::LowerHex for ObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            f.write_str("0x")?;
        }
        f.write_str(self.to_hex().as_str())
    }
}

/// `{:X}`: uppercase hex (`{:#X}` adds a `0x` prefix).
///
/// # Examples
///
/// ```
/// use oid_core::oid;
/// let id = oid!("507f1f77bcf86cd799439011");
/// assert_eq!(format!("{id:X}"), "507F1F77BCF86CD799439011");
/// ```
impl fmt::UpperHex for ObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            f.write_str("0x")?;
        }
        f.write_str(self.to_hex_upper().as_str())
    }
}

/// `ObjectId("507f1f77bcf86cd799439011")`, as mongosh prints it.
///
/// # Examples
///
/// ```
/// use oid_core::oid;
/// let id = oid!("507f1f77bcf86cd799439011");
/// assert_eq!(format!("{id:?}"), r#"ObjectId("507f1f77bcf86cd799439011")"#);
/// ```
impl fmt::Debug for ObjectId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ObjectId(\"")?;
        f.write_str(self.to_hex().as_str())?;
        f.write_str("\")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_value_encodes_like_core_fmt() {
        for v in 0..=255u8 {
            for pos in 0..12 {
                let mut bytes = [0u8; 12];
                bytes[pos] = v;
                let id = ObjectId::from_bytes(bytes);
                let expected = std::format!("{:02x}", v);
                assert_eq!(&id.to_hex()[2 * pos..2 * pos + 2], expected);
                assert_eq!(
                    &id.to_hex_upper()[2 * pos..2 * pos + 2],
                    expected.to_uppercase()
                );
            }
        }
    }
}
