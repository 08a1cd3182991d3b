//! The self-test itself, the same on every target: the platform module (`cortex_m.rs` or
//! `riscv.rs`) boots, starts a periodic timer interrupt that calls [`on_tick`], runs [`run`] and
//! reports its result as the semihosting exit status.

use core::fmt::Write;
use core::sync::atomic::{AtomicBool, AtomicU32 as PlainAtomicU32, Ordering};

use oid_core::FixedClock;
use oid_embedded::{DeviceIdEntropy, Entropy, ErrorKind, ObjectId, SharedGenerator, SyncedClock};
// Read-modify-write atomics: native on Cortex-M3/M4 and riscv32imac, a critical section on the
// Cortex-M0 and riscv32imc (whose implementation the platform module links).
use portable_atomic::AtomicU32;

use crate::platform::hprintln;

/// What the self-test needs from the platform: a periodic interrupt that calls [`on_tick`].
pub(crate) trait Timer {
    /// Starts the interrupt.
    fn start(&mut self);
    /// Stops it.
    fn stop(&mut self);
}

/// Ids made by the main loop.
const MAIN_IDS: u32 = 10_000;
/// At most this many ids are made by the SysTick interrupt.
const ISR_MAX: u32 = 500;
/// Every counter value this run may use, as bits.
const WORDS: usize = (MAIN_IDS + ISR_MAX).div_ceil(32) as usize;
/// The counter starts this close to 0xFFFFFF, so that the run crosses the wrap to 0.
const COUNTER_START: u32 = 0x00ff_ffff - 4_999;
/// The time the clock is set to (as if read from an RTC).
const SET_TIME: u64 = 1_700_000_000;
/// Ticks per second of the tick source (one tick per SysTick interrupt).
const TICK_HZ: u32 = 1_000;
/// A stand-in for the chip's unique id register (these QEMU machines model none that all
/// share); a real board reads its UID here.
const DEVICE_ID: [u8; 12] = *b"qemu-device1";
/// A stand-in for the boot counter a real board keeps in flash and increments each boot.
const BOOT_COUNT: u32 = 1;

/// Monotonic ticks, advanced only by the timer interrupt (so a plain load and store suffice).
static TICKS: PlainAtomicU32 = PlainAtomicU32::new(0);

fn ticks() -> u64 {
    u64::from(TICKS.load(Ordering::Relaxed))
}

/// The generator: a `static`, seeded once at boot, shared by the main loop and the timer
/// interrupt.
static GENERATOR: SharedGenerator<SyncedClock<fn() -> u64, TICK_HZ>> =
    SharedGenerator::new(SyncedClock::new(ticks));

/// One bit per counter value, offset from `COUNTER_START`: set once by whoever made the id.
static SEEN: [AtomicU32; WORDS] = [const { AtomicU32::new(0) }; WORDS];
/// Ids made by the interrupt; written only by it.
static ISR_IDS: PlainAtomicU32 = PlainAtomicU32::new(0);
/// Interrupt calls that found the generator not ready yet (not seeded, or time not set).
static ISR_NOT_READY: PlainAtomicU32 = PlainAtomicU32::new(0);
/// Checks that failed in the interrupt.
static ISR_FAILURES: PlainAtomicU32 = PlainAtomicU32::new(0);
/// Whether the interrupt should make ids.
static ISR_GENERATES: AtomicBool = AtomicBool::new(true);

/// Marks a counter value as used; false if it was used before or is outside this run's range.
fn mark(counter: u32) -> bool {
    let offset = counter.wrapping_sub(COUNTER_START) & 0x00ff_ffff;
    if offset >= MAIN_IDS + ISR_MAX {
        return false;
    }
    let bit = 1 << (offset % 32);
    SEEN[(offset / 32) as usize].fetch_or(bit, Ordering::Relaxed) & bit == 0
}

/// The timer interrupt's work: advance the ticks, and make an id with the shared generator.
pub(crate) fn on_tick() {
    TICKS.store(
        TICKS.load(Ordering::Relaxed).wrapping_add(1),
        Ordering::Relaxed,
    );
    let made = ISR_IDS.load(Ordering::Relaxed);
    if !ISR_GENERATES.load(Ordering::Relaxed) || made >= ISR_MAX {
        return;
    }
    match GENERATOR.try_next() {
        Ok(id) => {
            ISR_IDS.store(made + 1, Ordering::Relaxed);
            if !mark(id.to_parts().counter) || u64::from(id.timestamp()) < SET_TIME {
                ISR_FAILURES.store(ISR_FAILURES.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
            }
        }
        // Not seeded yet, or the clock not set yet: what the main loop is about to do.
        Err(e)
            if e.kind() == ErrorKind::NotInitialized || e.kind() == ErrorKind::ClockUnavailable =>
        {
            ISR_NOT_READY.store(ISR_NOT_READY.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
        }
        Err(_) => {
            ISR_FAILURES.store(ISR_FAILURES.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
        }
    }
}

/// Counts failed checks, printing each.
struct Checks {
    failed: u32,
}

impl Checks {
    fn check(&mut self, ok: bool, what: &str) {
        if !ok {
            hprintln!("FAIL: {}", what);
            self.failed += 1;
        }
    }
}

/// Runs every check; true if all passed.
pub(crate) fn run(timer: &mut impl Timer) -> bool {
    let mut c = Checks { failed: 0 };
    hprintln!("oid-embedded selftest on {}", env!("FIRMWARE_TARGET"));

    worked_example(&mut c);
    legacy_layout(&mut c);
    text_round_trips(&mut c);

    // The interrupt runs from here on, before the generator is ready: it must get errors.
    timer.start();

    c.check(
        GENERATOR
            .try_next()
            .is_err_and(|e| e.kind() == ErrorKind::NotInitialized),
        "an unseeded generator must refuse",
    );
    // Let the interrupt meet the unseeded generator too.
    let mut spins = 0u32;
    while ISR_NOT_READY.load(Ordering::Relaxed) == 0 && spins < 50_000_000 {
        spins += 1;
        core::hint::spin_loop();
    }
    c.check(
        ISR_NOT_READY.load(Ordering::Relaxed) > 0 && ISR_FAILURES.load(Ordering::Relaxed) == 0,
        "the interrupt is refused by the unseeded generator",
    );

    // Boot: seed the random value from the device id and boot count. (A board with an RNG
    // would use `HardwareRng`; `init` would also draw the counter start, which here is put
    // near the wrap instead.)
    let mut random = [0u8; 5];
    if DeviceIdEntropy::new(&DEVICE_ID, BOOT_COUNT)
        .fill(&mut random)
        .is_err()
    {
        hprintln!("FAIL: device-id entropy");
        return false;
    }
    c.check(
        GENERATOR.init_with_seed(random, COUNTER_START).is_ok(),
        "first init",
    );
    c.check(
        GENERATOR
            .init_with_seed([0; 5], 0)
            .is_err_and(|e| e.kind() == ErrorKind::AlreadyInitialized),
        "a second init must refuse",
    );
    c.check(
        GENERATOR
            .try_next()
            .is_err_and(|e| e.kind() == ErrorKind::ClockUnavailable),
        "try_next before the clock is set must fail with ClockUnavailable",
    );
    c.check(
        GENERATOR.clock().set_unix_time(SET_TIME).is_ok(),
        "set the clock",
    );

    // The main loop: 5,000 ids one by one, then 50 batches of 100.
    let mut state = MainLoop {
        random,
        prev: None,
        made: 0,
        wrapped_at: None,
        wraps: 0,
    };
    for _ in 0..MAIN_IDS / 2 {
        match GENERATOR.try_next() {
            Ok(id) => state.accept(&mut c, id),
            Err(_) => c.check(false, "try_next after setup"),
        }
    }
    // Let the interrupt make some ids if it has not yet (QEMU may run the loop above
    // faster than the timer fires), so that both contexts really share the generator.
    let mut spins = 0u32;
    while ISR_IDS.load(Ordering::Relaxed) < 10 && spins < 50_000_000 {
        spins += 1;
        core::hint::spin_loop();
    }
    let mut batch = [ObjectId::MIN; 100];
    for _ in 0..MAIN_IDS / 2 / 100 {
        match GENERATOR.try_fill(&mut batch) {
            Ok(()) => batch.iter().for_each(|id| state.accept(&mut c, *id)),
            Err(_) => c.check(false, "try_fill after setup"),
        }
    }
    ISR_GENERATES.store(false, Ordering::Relaxed);
    timer.stop();

    let isr = ISR_IDS.load(Ordering::Relaxed);
    let total = state.made + isr;
    c.check(state.made == MAIN_IDS, "the main loop made 10,000 ids");
    c.check(isr > 0, "the interrupt made ids with the shared generator");
    c.check(
        ISR_FAILURES.load(Ordering::Relaxed) == 0,
        "ids made in the interrupt are new and stamped with the set time",
    );
    c.check(state.wraps == 1, "the counter wrapped exactly once");
    // Unique: each id's counter bit was set by exactly one id (checked as it was marked);
    // and no gaps: every counter value from the start to start + total - 1 was used.
    let used = SEEN
        .iter()
        .map(|w| w.load(Ordering::Relaxed).count_ones())
        .sum::<u32>();
    c.check(used == total, "every id has its own counter value");
    c.check(
        (0..total).all(|i| SEEN[(i / 32) as usize].load(Ordering::Relaxed) & (1 << (i % 32)) != 0),
        "the counter values used are consecutive",
    );

    hprintln!(
        "{} ids from the main loop and {} from the timer interrupt ({} calls before the generator was ready)",
        state.made,
        isr,
        ISR_NOT_READY.load(Ordering::Relaxed)
    );
    if let Some((before, after)) = state.wrapped_at {
        hprintln!("counter wrap: {} -> {}", before, after);
    }
    if let Some(last) = state.prev {
        hprintln!("last id:      {}", last);
    }
    c.failed == 0
}

/// What the main loop checks id by id.
struct MainLoop {
    random: [u8; 5],
    prev: Option<ObjectId>,
    made: u32,
    wrapped_at: Option<(ObjectId, ObjectId)>,
    wraps: u32,
}

impl MainLoop {
    fn accept(&mut self, c: &mut Checks, id: ObjectId) {
        let parts = id.to_parts();
        if self.made < 3 {
            hprintln!("id {}:         {}", self.made, id);
        }
        self.made += 1;
        c.check(
            parts.random == self.random,
            "every id carries the seeded random value",
        );
        c.check(
            u64::from(parts.timestamp) >= SET_TIME,
            "ids are stamped with the time set",
        );
        c.check(mark(parts.counter), "a counter value is used once");
        c.check(
            ObjectId::parse_str(id.to_hex().as_str()) == Ok(id),
            "every id parses back from its hex",
        );
        if let Some(prev) = self.prev {
            let before = prev.to_parts();
            // The next counter is 1 higher, or a few more if the interrupt took some between.
            let step = parts.counter.wrapping_sub(before.counter) & 0x00ff_ffff;
            c.check((1..=ISR_MAX + 1).contains(&step), "counters increase");
            c.check(parts.timestamp >= before.timestamp, "time does not go back");
            let wrapped = parts.counter < before.counter;
            if wrapped {
                self.wraps += 1;
                self.wrapped_at = Some((prev, id));
            }
            // Ids increase, except where the counter wraps within one second.
            c.check(
                id > prev || (wrapped && parts.timestamp == before.timestamp),
                "ids increase",
            );
        }
        self.prev = Some(id);
    }
}

/// The worked example of DEVELOPERS.md: time 1700000000, random 3f2a91c8d4, counter 12345.
fn worked_example(c: &mut Checks) {
    let generator = SharedGenerator::new(FixedClock::at(1_700_000_000));
    c.check(
        generator
            .init_with_seed([0x3f, 0x2a, 0x91, 0xc8, 0xd4], 12345)
            .is_ok(),
        "seed the worked example",
    );
    let first = generator.try_next();
    let second = generator.try_next();
    c.check(
        first.is_ok_and(|id| id.to_hex().as_str() == "6553f1003f2a91c8d4003039"),
        "worked example: first id 6553f1003f2a91c8d4003039",
    );
    c.check(
        second.is_ok_and(|id| id.to_hex().as_str() == "6553f1003f2a91c8d400303a"),
        "worked example: next id 6553f1003f2a91c8d400303a",
    );
    // A batch continues the count, across the wrap.
    let wrapping = SharedGenerator::new(FixedClock::at(1_700_000_000));
    let mut batch = [ObjectId::MIN; 4];
    c.check(
        wrapping.init_with_seed([1; 5], 0xfffffe).is_ok() && wrapping.try_fill(&mut batch).is_ok(),
        "fill a batch",
    );
    let counters = batch.map(|id| id.to_parts().counter);
    c.check(
        counters == [0xfffffe, 0xffffff, 0, 1],
        "a batch counts on and wraps from 0xffffff to 0",
    );
}

/// The legacy layout: machine id and process id in place of the random value.
fn legacy_layout(c: &mut Checks) {
    let generator = SharedGenerator::new(FixedClock::at(0x507f1f77));
    c.check(
        generator.init_legacy(0xbcf86c, 0xd799, 0x439011).is_ok(),
        "seed the legacy layout",
    );
    let id = generator.try_next();
    c.check(
        id.is_ok_and(|id| {
            id.to_hex().as_str() == "507f1f77bcf86cd799439011"
                && id.to_legacy_parts().machine == 0xbcf86c
                && id.to_legacy_parts().process_id == 0xd799
        }),
        "legacy layout: 507f1f77bcf86cd799439011",
    );
}

/// Parsing and formatting: any case in, lowercase out, `Display` equal to `to_hex`, and the
/// errors for bad input.
fn text_round_trips(c: &mut Checks) {
    let id = ObjectId::from_parts(1_700_000_000, [0x3f, 0x2a, 0x91, 0xc8, 0xd4], 12345);
    c.check(
        ObjectId::parse_str("6553F1003F2A91C8D4003039") == Ok(id),
        "upper-case hex parses",
    );
    c.check(
        id.to_hex_upper().as_str() == "6553F1003F2A91C8D4003039",
        "upper-case hex formats",
    );
    let mut text = Buf::new();
    c.check(
        write!(text, "{id}").is_ok() && text.as_str() == Some("6553f1003f2a91c8d4003039"),
        "Display is the lowercase hex",
    );
    c.check(
        ObjectId::parse_str("abc").is_err_and(|e| e.len() == Some(3)),
        "a short string is refused with its length",
    );
    c.check(
        ObjectId::parse_str("6553f1003f2a91c8d400303g")
            .is_err_and(|e| e.invalid_char() == Some(('g', 23))),
        "a non-hex character is refused with its index",
    );
}

/// A small text buffer for `write!`.
struct Buf {
    bytes: [u8; 32],
    len: usize,
}

impl Buf {
    const fn new() -> Buf {
        Buf {
            bytes: [0; 32],
            len: 0,
        }
    }

    fn as_str(&self) -> Option<&str> {
        core::str::from_utf8(&self.bytes[..self.len]).ok()
    }
}

impl Write for Buf {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        let dest = self.bytes.get_mut(self.len..end).ok_or(core::fmt::Error)?;
        dest.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}
