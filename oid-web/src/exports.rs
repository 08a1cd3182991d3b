//! The C ABI the page's script calls. Arguments and results are numbers; text goes through
//! one shared buffer in linear memory, which the script reads and writes between calls at
//! the address [`oid_buffer`] returns.
//!
//! The buffer is a `static` array of `AtomicU8`: Rust reaches it only through atomic loads and
//! stores (plain memory accesses on single-threaded wasm), so it needs no `static mut` and no
//! `unsafe` block. The only `unsafe` here is the `#[unsafe(no_mangle)]` attribute on each
//! export, which edition 2024 requires for a function with a fixed symbol name.
#![allow(
    unsafe_code,
    reason = "`#[unsafe(no_mangle)]` on the exports; no unsafe blocks"
)]

use core::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};

use oid_core::{Generator, ManualClock};

use crate::logic::{self, BATCH, Error, HEX_LEN, Seed, record, when_record};

/// Size of the shared buffer: one full batch of hex ids.
const BUF_LEN: usize = BATCH * HEX_LEN;

static BUF: [AtomicU8; BUF_LEN] = [const { AtomicU8::new(0) }; BUF_LEN];

/// Set by the page from `Date.now()` before each batch.
static CLOCK: ManualClock = ManualClock::new();

/// The page's generator: one random value per page load, like one per process.
static GENERATOR: Generator<&ManualClock> = Generator::from_seed(&CLOCK, [0; 5], 0);

/// Whether [`oid_seed`] ran; the generator refuses to work with the all-zero placeholder seed.
static SEEDED: AtomicBool = AtomicBool::new(false);

/// Copies the first `dst.len()` bytes of the shared buffer into `dst`.
fn load(dst: &mut [u8]) {
    for (d, s) in dst.iter_mut().zip(&BUF) {
        *d = s.load(Relaxed);
    }
}

/// Copies `src` to the start of the shared buffer.
fn store(src: &[u8]) {
    for (s, d) in src.iter().zip(&BUF) {
        d.store(*s, Relaxed);
    }
}

/// `Ok(n)` as `n`; an error as minus the length of its message, which goes to the buffer.
fn report(result: Result<usize, Error>) -> i32 {
    match result {
        Ok(n) => n as i32,
        Err(e) => {
            let mut message = [0u8; 256];
            let len = logic::write_message(&mut message, &e);
            store(&message[..len]);
            -(len as i32)
        }
    }
}

/// The address of the shared buffer in linear memory.
///
/// # Examples
///
/// ```js
/// const buffer = new Uint8Array(exports.memory.buffer, exports.oid_buffer(), exports.oid_buffer_len());
/// ```
// SAFETY: the name is unique in this binary (every export starts with `oid_`) and the
// signature matches what the page's script expects.
#[unsafe(no_mangle)]
pub extern "C" fn oid_buffer() -> *const u8 {
    BUF.as_ptr().cast()
}

/// The size of the shared buffer in bytes (98,304: room for 4,096 hex ids).
///
/// # Examples
///
/// ```js
/// exports.oid_buffer_len(); // 98304
/// ```
// SAFETY: as for `oid_buffer`.
#[unsafe(no_mangle)]
pub const extern "C" fn oid_buffer_len() -> u32 {
    BUF_LEN as u32
}

/// Seeds the generator, once per page load, from two random 32-bit words (the page draws them
/// with `crypto.getRandomValues`): 5 bytes become the random value, 3 the counter's start.
/// Returns 0, or minus the length of an error message in the buffer (a second call is refused:
/// the random value is chosen once, as the specification asks for once per process).
///
/// # Examples
///
/// ```js
/// const [a, b] = crypto.getRandomValues(new Uint32Array(2));
/// exports.oid_seed(a, b); // 0
/// ```
// SAFETY: as for `oid_buffer`.
#[unsafe(no_mangle)]
pub extern "C" fn oid_seed(a: u32, b: u32) -> i32 {
    report(seed(a, b).map(|()| 0))
}

fn seed(a: u32, b: u32) -> Result<(), Error> {
    if SEEDED.load(Relaxed) {
        return Err(Error::AlreadySeeded);
    }
    GENERATOR
        .ids()
        .reseed_from(&mut Seed::from_words(a, b))
        .map_err(Error::Entropy)?;
    SEEDED.store(true, Relaxed);
    Ok(())
}

/// Generates up to `count` ids at `secs` seconds since the epoch and writes their hex forms
/// back to back (24 bytes each, no separator) into the buffer. Returns how many it wrote (at
/// most 4,096 per call: call again for the rest, with the same `secs` so one click's ids share
/// their timestamp), or minus the length of an error message in the buffer ("clock time not
/// available" for a `secs` that is NaN or negative, or a generator that was never seeded).
///
/// # Examples
///
/// ```js
/// const n = exports.oid_generate(Math.floor(Date.now() / 1000), 100); // 100
/// ```
// SAFETY: as for `oid_buffer`.
#[unsafe(no_mangle)]
pub extern "C" fn oid_generate(secs: f64, count: u32) -> i32 {
    report(generate(secs, count))
}

fn generate(secs: f64, count: u32) -> Result<usize, Error> {
    if !SEEDED.load(Relaxed) {
        return Err(Error::NotSeeded);
    }
    logic::set_clock(&CLOCK, secs);
    let mut out = [0u8; BUF_LEN];
    let n = logic::generate(&GENERATOR, count, &mut out)?;
    store(&out[..n * HEX_LEN]);
    Ok(n)
}

/// Reads the first `len` bytes of the buffer (UTF-8 text) as an ObjectId in any pasted form
/// (oid-core's `ObjectId::parse_pasted`: bare or quoted hex, `ObjectId("…")`, `ObjectId('…')`,
/// `new ObjectId("…")`, `{"$oid": "…"}`, whitespace around ignored). A `len` larger than the
/// buffer (the page passes the full length of a longer paste) is reported as too long. Returns
/// 0 with the decoded fields in the buffer (a 78-byte record: the canonical hex at 0, then
/// little-endian `u32`s: timestamp at 24, counter at 28, legacy machine id at 32, legacy process
/// id at 36; the 5 random-value bytes at 40; at 45 the length of the form's name, which starts at
/// 46), or minus the length of oid-core's error message; when the text holds an id in another
/// shape, the message has a second line, `did you mean <id>?`, as the CLI's hint.
///
/// # Examples
///
/// ```js
/// const len = new TextEncoder().encodeInto("507f1f77bcf86cd799439011", buffer).written;
/// exports.oid_inspect(len); // 0
/// new DataView(exports.memory.buffer, exports.oid_buffer()).getUint32(24, true); // 1350508407
/// ```
// SAFETY: as for `oid_buffer`.
#[unsafe(no_mangle)]
pub extern "C" fn oid_inspect(len: u32) -> i32 {
    report(inspect(len as usize).map(|()| 0))
}

fn inspect(len: usize) -> Result<(), Error> {
    let mut input = [0u8; BUF_LEN];
    let input = input.get_mut(..len).ok_or(Error::TooLong(BUF_LEN))?;
    load(input);
    let mut out = [0u8; record::LEN];
    logic::inspect(input, &mut out)?;
    store(&out);
    Ok(())
}

/// Reads the first `len` bytes of the buffer as a pasted time, as the `oid` command's time
/// arguments read it (oid-core's `PastedDate`: an id in any pasted form, its second;
/// `ISODate("…")`, `new Date(…)`, `{"$date": …}`). Returns 0 with a 37-byte record in the buffer
/// (the seconds since the epoch as a little-endian `u32` at 0, at 4 the length of the form's
/// name, which starts at 5), or minus the length of an error message (for text that is none of
/// the forms, the id reader's, with its `did you mean` line).
///
/// # Examples
///
/// ```js
/// const len = new TextEncoder().encodeInto("ISODate('2012-10-17T21:13:27Z')", buffer).written;
/// exports.oid_when(len); // 0
/// new DataView(exports.memory.buffer, exports.oid_buffer()).getUint32(0, true); // 1350508407
/// ```
// SAFETY: as for `oid_buffer`.
#[unsafe(no_mangle)]
pub extern "C" fn oid_when(len: u32) -> i32 {
    report(when(len as usize).map(|()| 0))
}

fn when(len: usize) -> Result<(), Error> {
    let mut input = [0u8; BUF_LEN];
    let input = input.get_mut(..len).ok_or(Error::TooLong(BUF_LEN))?;
    load(input);
    let mut out = [0u8; when_record::LEN];
    logic::when(input, &mut out)?;
    store(&out);
    Ok(())
}

/// The id bounds of the time range `[from, to)` (milliseconds since the epoch, `NaN` for an open
/// end), by oid-core's `IdRange` rule: writes the lower bound's hex (24 bytes), the upper bound's
/// hex (24 bytes) and `<` (`$lt`) or `=` (`$lte`) into the buffer. Returns 49, or minus the
/// length of an error message for a time that is not finite.
///
/// # Examples
///
/// ```js
/// exports.oid_range(1350508407000, 1350508408000); // 49
/// // the buffer holds "507f1f770000000000000000" "507f1f780000000000000000" "<"
/// ```
// SAFETY: as for `oid_buffer`.
#[unsafe(no_mangle)]
pub extern "C" fn oid_range(from_ms: f64, to_ms: f64) -> i32 {
    report(logic::range(from_ms, to_ms).map(|range| {
        let mut out = [0u8; 2 * HEX_LEN + 1];
        out[..HEX_LEN].copy_from_slice(range.lower().to_hex().as_bytes());
        out[HEX_LEN..2 * HEX_LEN].copy_from_slice(range.upper().id().to_hex().as_bytes());
        out[2 * HEX_LEN] = if range.upper().is_inclusive() {
            b'='
        } else {
            b'<'
        };
        store(&out);
        out.len()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::String;
    use std::vec::Vec;

    fn buffer(len: usize) -> Vec<u8> {
        let mut v = std::vec![0u8; len];
        load(&mut v);
        v
    }

    fn message(ret: i32) -> String {
        assert!(ret < 0, "expected an error, got {ret}");
        String::from_utf8(buffer(ret.unsigned_abs() as usize)).unwrap()
    }

    /// The exports share one buffer and one generator, so they are exercised in one test, in
    /// the order the page calls them.
    #[test]
    fn exports_in_page_order() {
        assert_eq!(oid_buffer_len() as usize, BUF_LEN);
        assert_eq!(oid_buffer(), BUF.as_ptr().cast());

        assert_eq!(
            message(oid_generate(1e9, 1)),
            "generator not seeded: call oid_seed first"
        );
        assert_eq!(oid_seed(0x3f2a_91c8, 0xd4ff_fffe), 0);
        assert_eq!(
            message(oid_seed(1, 2)),
            "generator already seeded: the random value is chosen once"
        );

        assert_eq!(oid_generate(1_700_000_000.0, 3), 3);
        assert_eq!(
            buffer(72),
            b"6553f1003f2a91c8d4fffffe6553f1003f2a91c8d4ffffff6553f1003f2a91c8d4000000"
        );
        assert_eq!(oid_generate(1_700_000_000.0, 10_000), BATCH as i32);
        assert_eq!(&buffer(24)[18..], b"000001");
        assert_eq!(
            message(oid_generate(f64::NAN, 1)),
            "clock time not available"
        );

        store(b"507f1f77bcf86cd799439011");
        assert_eq!(oid_inspect(24), 0);
        let rec = buffer(record::LEN);
        assert_eq!(&rec[..24], b"507f1f77bcf86cd799439011");
        assert_eq!(
            rec[record::TIMESTAMP..record::TIMESTAMP + 4],
            1_350_508_407u32.to_le_bytes()
        );
        store("ObjectId('507f1f77bcf86cd799439011')".as_bytes());
        assert_eq!(oid_inspect(36), 0);
        let rec = buffer(record::LEN);
        assert_eq!(&rec[..24], b"507f1f77bcf86cd799439011");
        let name = usize::from(rec[record::FORM_LEN]);
        assert_eq!(
            &rec[record::FORM..record::FORM + name],
            "mongosh ObjectId(\"…\")".as_bytes()
        );
        store(b"{\"oid\": \"507f1f77bcf86cd799439011\"}");
        assert_eq!(
            message(oid_inspect(35)),
            "invalid length: expected 24 hex characters, found 35\n\
             did you mean 507f1f77bcf86cd799439011?"
        );
        store("zz".as_bytes());
        assert_eq!(
            message(oid_inspect(2)),
            "invalid length: expected 24 hex characters, found 2"
        );
        // A length past the buffer is reported, never read beyond the buffer.
        assert_eq!(
            message(oid_inspect(BUF_LEN as u32 + 1)),
            "invalid length: expected 24 hex characters, found more than 98304 bytes"
        );

        assert_eq!(oid_range(1_350_508_407_000.0, 1_350_508_408_000.0), 49);
        assert_eq!(
            buffer(49),
            b"507f1f770000000000000000507f1f780000000000000000<"
        );
        assert_eq!(oid_range(0.0, f64::NAN), 49);
        assert_eq!(buffer(49)[24..], *b"ffffffffffffffffffffffff=");
        assert_eq!(
            message(oid_range(f64::INFINITY, f64::NAN)),
            "time out of range: expected 1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z"
        );
    }
}
