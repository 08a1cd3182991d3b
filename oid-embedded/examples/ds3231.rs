//! An example `Clock` that reads a DS3231-style I²C real-time clock through
//! `embedded_hal::i2c::I2c`, and the pattern to use it with: read the RTC once at boot and
//! whenever you like, and set a [`SyncedClock`] from it, so that ids are stamped from a tick
//! counter and not from a bus transaction each.
//!
//! The DS3231 (and DS3232, DS1307-style parts) keep the time in BCD registers 0x00..=0x06
//! (seconds, minutes, hours in 12- or 24-hour mode, day of week, date, month with a century
//! bit, year) and flag a stopped oscillator (a lost time) in bit 7 of the status register
//! 0x0F. This file is an example, not part of the library's API: embedded-hal is only a
//! dev-dependency, so that `oid-embedded` does not tie its semver to a HAL version, and
//! most projects already have an RTC driver whose reading is one line to adapt.
//!
//! Run it on the host against a mock bus: `cargo run -p oid-embedded --example ds3231`;
//! its tests run with `cargo test -p oid-embedded`.

use core::cell::RefCell;
use core::fmt;

use embedded_hal::i2c::I2c;
use oid_embedded::{Clock, SharedGenerator, SyncedClock};

/// The DS3231's 7-bit I²C address.
const ADDRESS: u8 = 0x68;
/// The status register; bit 7 is the oscillator-stop flag (OSF).
const STATUS: u8 = 0x0f;
const OSF: u8 = 0x80;

/// Why the RTC gave no time.
#[derive(Debug, PartialEq, Eq)]
enum RtcError<E> {
    /// The I²C transaction failed.
    Bus(E),
    /// The oscillator stopped since the time was last set: the time is not valid.
    OscillatorStopped,
    /// The registers hold no valid date and time (not BCD, or out of range).
    InvalidRegisters,
    /// The time cannot be stored (the DS3231 holds years 2000 to 2199).
    OutOfRange,
    /// The bus was already borrowed (a re-entrant call from an interrupt).
    Busy,
}

impl<E: fmt::Debug> fmt::Display for RtcError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RtcError::Bus(e) => write!(f, "rtc bus error: {e:?}"),
            RtcError::OscillatorStopped => f.write_str("rtc oscillator stopped: time not valid"),
            RtcError::InvalidRegisters => f.write_str("rtc registers hold no valid date"),
            RtcError::OutOfRange => f.write_str("time out of the rtc's range (2000..=2199)"),
            RtcError::Busy => f.write_str("rtc bus busy"),
        }
    }
}

impl<E: fmt::Debug> std::error::Error for RtcError<E> {}

/// A DS3231 on an I²C bus. The bus sits in a `RefCell` because [`Clock`] reads through `&self`.
struct Ds3231<I2C> {
    bus: RefCell<I2C>,
}

impl<I2C: I2c> Ds3231<I2C> {
    const fn new(bus: I2C) -> Self {
        Ds3231 {
            bus: RefCell::new(bus),
        }
    }

    /// Gives the bus back.
    fn release(self) -> I2C {
        self.bus.into_inner()
    }

    /// Reads registers 0x00..=0x0F in one transaction and decodes the time.
    fn read_unix_time(&self) -> Result<u64, RtcError<I2C::Error>> {
        let mut regs = [0u8; 16];
        self.bus
            .try_borrow_mut()
            .map_err(|_| RtcError::Busy)?
            .write_read(ADDRESS, &[0x00], &mut regs)
            .map_err(RtcError::Bus)?;
        if regs[usize::from(STATUS)] & OSF != 0 {
            return Err(RtcError::OscillatorStopped);
        }
        let mut time = [0u8; 7];
        time.copy_from_slice(&regs[..7]);
        decode(time).ok_or(RtcError::InvalidRegisters)
    }

    /// Writes the time (24-hour mode) and clears the oscillator-stop flag.
    fn set_unix_time(&self, secs: u64) -> Result<(), RtcError<I2C::Error>> {
        let regs = encode(secs).ok_or(RtcError::OutOfRange)?;
        let mut bus = self.bus.try_borrow_mut().map_err(|_| RtcError::Busy)?;
        let mut frame = [0u8; 8];
        frame[1..].copy_from_slice(&regs);
        bus.write(ADDRESS, &frame).map_err(RtcError::Bus)?;
        let mut status = [0u8];
        bus.write_read(ADDRESS, &[STATUS], &mut status)
            .map_err(RtcError::Bus)?;
        bus.write(ADDRESS, &[STATUS, status[0] & !OSF])
            .map_err(RtcError::Bus)
    }
}

/// Reads the RTC on every call: fine for a few ids, but each id then costs a bus transaction
/// (about 2 ms at 100 kHz). Prefer syncing a [`SyncedClock`] from it, as `main` does.
impl<I2C: I2c> Clock for Ds3231<I2C> {
    fn unix_seconds(&self) -> Option<u64> {
        self.read_unix_time().ok()
    }
}

fn bcd(b: u8) -> Option<u8> {
    let (hi, lo) = (b >> 4, b & 0x0f);
    (hi <= 9 && lo <= 9).then_some(hi * 10 + lo)
}

const fn to_bcd(v: u8) -> u8 {
    ((v / 10) << 4) | (v % 10)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: u8, d: u8) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day count since 1970-01-01 (Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u8, u8) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

const fn days_in_month(y: i64, m: u8) -> u8 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Registers 0x00..=0x06 to seconds since the epoch, or `None` if they hold no valid time.
fn decode(r: [u8; 7]) -> Option<u64> {
    let sec = bcd(r[0] & 0x7f)?;
    let min = bcd(r[1] & 0x7f)?;
    let hour = if r[2] & 0x40 != 0 {
        // 12-hour mode: bit 5 is PM, 12 AM is midnight.
        let h = bcd(r[2] & 0x1f)?;
        if !(1..=12).contains(&h) {
            return None;
        }
        h % 12 + if r[2] & 0x20 != 0 { 12 } else { 0 }
    } else {
        bcd(r[2] & 0x3f)?
    };
    let date = bcd(r[4] & 0x3f)?;
    let month = bcd(r[5] & 0x1f)?;
    let year = 2000 + i64::from(bcd(r[6])?) + if r[5] & 0x80 != 0 { 100 } else { 0 };
    if sec > 59
        || min > 59
        || hour > 23
        || !(1..=12).contains(&month)
        || date == 0
        || date > days_in_month(year, month)
    {
        return None;
    }
    let days = days_from_civil(year, month, date);
    let secs = days * 86_400 + i64::from(hour) * 3600 + i64::from(min) * 60 + i64::from(sec);
    u64::try_from(secs).ok()
}

/// Seconds since the epoch to registers 0x00..=0x06 (24-hour mode, Monday = 1), for years
/// 2000..=2199.
fn encode(secs: u64) -> Option<[u8; 7]> {
    let secs = i64::try_from(secs).ok()?;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (year, month, date) = civil_from_days(days);
    if !(2000..=2199).contains(&year) {
        return None;
    }
    let weekday = (days + 3).rem_euclid(7) as u8 + 1; // 1970-01-01 was a Thursday
    let century = if year >= 2100 { 0x80 } else { 0 };
    Some([
        to_bcd((rem % 60) as u8),
        to_bcd((rem / 60 % 60) as u8),
        to_bcd((rem / 3600) as u8),
        weekday,
        to_bcd(date),
        century | to_bcd(month),
        to_bcd((year % 100) as u8),
    ])
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    use embedded_hal_mock::eh1::i2c::{Mock, Transaction};

    // What the mock RTC answers: first with its oscillator-stop flag set (a board whose backup
    // battery ran flat), then, after we set it, 2023-11-14 22:13:20 UTC (a Tuesday).
    let mut stopped = vec![0u8; 16];
    stopped[usize::from(STATUS)] = OSF;
    let bus = Mock::new(&[
        Transaction::write_read(ADDRESS, vec![0x00], stopped),
        Transaction::write(
            ADDRESS,
            vec![0x00, 0x20, 0x13, 0x22, 0x02, 0x14, 0x11, 0x23],
        ),
        Transaction::write_read(ADDRESS, vec![STATUS], vec![OSF]),
        Transaction::write(ADDRESS, vec![STATUS, 0x00]),
        Transaction::write_read(
            ADDRESS,
            vec![0x00],
            vec![
                0x20, 0x13, 0x22, 0x02, 0x14, 0x11, 0x23, 0, 0, 0, 0, 0, 0, 0, 0x1c, 0,
            ],
        ),
    ]);
    let rtc = Ds3231::new(bus);

    // Firmware would count a hardware timer here; the example's ticks stand still.
    const fn ticks() -> u64 {
        0
    }
    static GENERATOR: SharedGenerator<SyncedClock<fn() -> u64, 1000>> =
        SharedGenerator::new(SyncedClock::new(ticks));
    GENERATOR.init(&mut oid_embedded::DeviceIdEntropy::new(
        b"example-device",
        1,
    ))?;

    // At boot: the RTC has no valid time, so the clock stays unset and ids are refused.
    match rtc.read_unix_time() {
        Ok(now) => GENERATOR.clock().set_unix_time(now)?,
        Err(e) => println!("boot: {e}"),
    }
    if let Err(e) = GENERATOR.try_next() {
        println!("try_next: {e}");
    }

    // Later, network time arrives: store it in the RTC and read it back into the clock. From
    // then on ids are stamped from the tick counter, never from a bus transaction.
    rtc.set_unix_time(1_700_000_000)?;
    GENERATOR.clock().set_unix_time(rtc.read_unix_time()?)?;
    let id = GENERATOR.try_next()?;
    println!("id {id}, timestamp {}", id.timestamp());
    rtc.release().done();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use embedded_hal::i2c::ErrorKind;
    use embedded_hal_mock::eh1::i2c::{Mock, Transaction};
    use oid_embedded::Generator;
    use proptest::prelude::*;

    const TIME_1_7E9: [u8; 7] = [0x20, 0x13, 0x22, 0x02, 0x14, 0x11, 0x23];

    fn regs(time: [u8; 7], status: u8) -> Vec<u8> {
        let mut r = time.to_vec();
        r.resize(15, 0);
        r.push(status);
        r
    }

    fn rtc_answering(time: [u8; 7], status: u8) -> Ds3231<Mock> {
        Ds3231::new(Mock::new(&[Transaction::write_read(
            ADDRESS,
            vec![0x00],
            regs(time, status),
        )]))
    }

    #[test]
    fn reads_the_worked_example_time() {
        let rtc = rtc_answering(TIME_1_7E9, 0);
        assert_eq!(rtc.read_unix_time(), Ok(1_700_000_000));
        rtc.release().done();
    }

    #[test]
    fn twelve_hour_mode_and_century_bit() {
        // 10 PM in 12-hour mode is 22:00.
        let mut t = TIME_1_7E9;
        t[2] = 0x40 | 0x20 | 0x10;
        assert_eq!(decode(t), Some(1_700_000_000));
        // 12 AM is midnight, 12 PM is noon.
        t[2] = 0x40 | 0x12;
        assert_eq!(decode(t), Some(1_700_000_000 - 22 * 3600));
        t[2] = 0x40 | 0x20 | 0x12;
        assert_eq!(decode(t), Some(1_700_000_000 - 10 * 3600));
        // Year 05 with the century bit is 2105 (past the 2106 timestamp wrap: still decoded).
        let t2105 = [0x00, 0x00, 0x00, 0x04, 0x01, 0x80 | 0x01, 0x05];
        assert_eq!(decode(t2105), Some(4_260_211_200)); // 2105-01-01T00:00:00Z
    }

    #[test]
    fn invalid_registers_are_rejected() {
        let cases: [(usize, u8); 7] = [
            (0, 0x60), // 60 seconds
            (0, 0x1a), // not BCD
            (2, 0x24), // hour 24
            (2, 0x40), // hour 0 in 12-hour mode
            (4, 0x00), // date 0
            (5, 0x13), // month 13
            (6, 0xa0), // year not BCD
        ];
        for (i, v) in cases {
            let mut t = TIME_1_7E9;
            t[i] = v;
            assert_eq!(decode(t), None, "register {i} = {v:#04x}");
        }
        // 2023-02-29 does not exist; 2024-02-29 does.
        assert_eq!(decode([0, 0, 0, 1, 0x29, 0x02, 0x23]), None);
        assert_eq!(decode([0, 0, 0, 1, 0x29, 0x02, 0x24]), Some(1_709_164_800));
        let rtc = rtc_answering([0x00, 0x00, 0x00, 0x01, 0x31, 0x04, 0x24], 0);
        assert_eq!(rtc.read_unix_time(), Err(RtcError::InvalidRegisters));
        rtc.release().done();
    }

    #[test]
    fn stopped_oscillator_means_time_not_set() {
        let rtc = rtc_answering(TIME_1_7E9, OSF);
        assert_eq!(rtc.read_unix_time(), Err(RtcError::OscillatorStopped));
        let mut bus = rtc.release();
        bus.done();

        // Used directly as a generator's clock, the stopped RTC makes `try_next` fail.
        bus.update_expectations(&[Transaction::write_read(
            ADDRESS,
            vec![0x00],
            regs(TIME_1_7E9, OSF),
        )]);
        let generator = Generator::from_seed(Ds3231::new(bus), [1; 5], 0);
        assert_eq!(
            generator.try_next().unwrap_err().kind(),
            oid_core::ErrorKind::ClockUnavailable
        );
        generator.clock().bus.borrow_mut().done();
    }

    #[test]
    fn bus_errors_are_reported_and_mean_no_time() {
        let rtc = Ds3231::new(Mock::new(&[
            Transaction::write_read(ADDRESS, vec![0x00], vec![0; 16]).with_error(ErrorKind::Other),
            Transaction::write_read(ADDRESS, vec![0x00], vec![0; 16]).with_error(
                ErrorKind::NoAcknowledge(embedded_hal::i2c::NoAcknowledgeSource::Address),
            ),
        ]));
        assert_eq!(rtc.read_unix_time(), Err(RtcError::Bus(ErrorKind::Other)));
        assert_eq!(rtc.unix_seconds(), None);
        rtc.release().done();
    }

    #[test]
    fn a_clock_read_on_every_id() {
        let mut expectations = Vec::new();
        for _ in 0..3 {
            expectations.push(Transaction::write_read(
                ADDRESS,
                vec![0x00],
                regs(TIME_1_7E9, 0),
            ));
        }
        let generator = Generator::from_seed(
            Ds3231::new(Mock::new(&expectations)),
            [0x3f, 0x2a, 0x91, 0xc8, 0xd4],
            12345,
        );
        assert_eq!(generator.next().to_hex(), "6553f1003f2a91c8d4003039");
        assert_eq!(generator.next().to_hex(), "6553f1003f2a91c8d400303a");
        assert_eq!(generator.try_next().unwrap().timestamp(), 1_700_000_000);
        generator.clock().bus.borrow_mut().done();
    }

    #[test]
    fn boot_sync_pattern() {
        use std::sync::atomic::{AtomicU64, Ordering};
        static TICKS: AtomicU64 = AtomicU64::new(0);
        fn ticks() -> u64 {
            TICKS.load(Ordering::Relaxed)
        }
        static GENERATOR: SharedGenerator<SyncedClock<fn() -> u64, 1000>> =
            SharedGenerator::new(SyncedClock::new(ticks));
        GENERATOR.init_with_seed([1; 5], 0).unwrap();

        // First boot read: the oscillator had stopped, so the clock stays unset.
        let rtc = Ds3231::new(Mock::new(&[
            Transaction::write_read(ADDRESS, vec![0x00], regs(TIME_1_7E9, OSF)),
            Transaction::write_read(ADDRESS, vec![0x00], regs(TIME_1_7E9, 0)),
        ]));
        if let Ok(now) = rtc.read_unix_time() {
            GENERATOR.clock().set_unix_time(now).unwrap();
        }
        assert_eq!(
            GENERATOR.try_next().unwrap_err().kind(),
            oid_embedded::ErrorKind::ClockUnavailable
        );

        // After the time was restored, the next sync sets the clock; ticks carry it on.
        TICKS.store(500, Ordering::Relaxed);
        GENERATOR
            .clock()
            .set_unix_time(rtc.read_unix_time().unwrap())
            .unwrap();
        TICKS.store(500 + 61_000, Ordering::Relaxed);
        assert_eq!(GENERATOR.try_next().unwrap().timestamp(), 1_700_000_061);
        rtc.release().done();
    }

    #[test]
    fn set_time_writes_bcd_and_clears_the_stop_flag() {
        let rtc = Ds3231::new(Mock::new(&[
            Transaction::write(
                ADDRESS,
                vec![0x00, 0x20, 0x13, 0x22, 0x02, 0x14, 0x11, 0x23],
            ),
            Transaction::write_read(ADDRESS, vec![STATUS], vec![0x88]),
            Transaction::write(ADDRESS, vec![STATUS, 0x08]),
        ]));
        rtc.set_unix_time(1_700_000_000).unwrap();
        assert_eq!(rtc.set_unix_time(946_684_799), Err(RtcError::OutOfRange)); // 1999
        rtc.release().done();
    }

    #[test]
    fn calendar_anchors() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(civil_from_days(19_675), (2023, 11, 14));
        assert_eq!(encode(946_684_800), Some([0, 0, 0, 6, 0x01, 0x01, 0x00])); // Sat 2000-01-01
        assert_eq!(encode(7_258_118_400), None); // 2200-01-01
    }

    proptest! {
        /// Every second from 2000-01-01 to 2199-12-31 survives encode then decode.
        #[test]
        fn encode_decode_round_trip(secs in 946_684_800u64..7_258_118_400) {
            let regs = encode(secs).unwrap();
            prop_assert_eq!(decode(regs), Some(secs));
        }
    }
}
