//! `embassy-time` as a tick source (feature `embassy-time`).

use embassy_time::{Instant, TICK_HZ};

use crate::{SyncedClock, TickSource};

/// A [`TickSource`] that reads `embassy_time::Instant::now()`: the ticks of whatever time driver
/// the firmware links (the HAL's timer on an STM32, nRF, RP2040 or ESP chip, the std or mock
/// driver on a host).
///
/// **Width and wrap.** Embassy's ticks are a 64-bit count since boot at
/// [`TICK_HZ`](embassy_time::TICK_HZ) (1 MHz unless a `tick-hz-*` feature of embassy-time says
/// otherwise). The drivers extend their 16- or 32-bit hardware timers to those 64 bits, so the
/// count never wraps in practice (at 1 MHz, after about 584,000 years) and is monotonic, which
/// is all [`SyncedClock`] needs. Rates above `u32::MAX` ticks per second do not compile with
/// [`EmbassyClock`] (its `HZ` is a `u32`).
///
/// # Examples
///
/// A task that sets the clock (from an RTC, GNSS or SNTP) and a task that makes ids, sharing
/// one `static` generator. With `embassy-executor`, each `async fn` below would be a
/// `#[embassy_executor::task]` spawned from `main`; here they run on `embassy_futures`'
/// `block_on` so that the example is tested on the host (with embassy-time's mock driver).
///
/// ```
/// use embassy_futures::{block_on, select::select, yield_now};
/// use embassy_time::Timer;
/// use oid_embedded::{EmbassyClock, EmbassyTicks, ErrorKind, HardwareRng, SharedGenerator};
///
/// static GENERATOR: SharedGenerator<EmbassyClock> =
///     SharedGenerator::new(EmbassyClock::new(EmbassyTicks));
///
/// /// Stands in for an RTC read or an SNTP exchange.
/// async fn network_time() -> Option<u64> {
///     Some(1_700_000_000)
/// }
///
/// async fn clock_task() {
///     loop {
///         if let Some(secs) = network_time().await {
///             // Busy only if another context sets it at this very moment: next round, then.
///             let _ = GENERATOR.clock().set_unix_time(secs);
///         }
///         Timer::after_secs(3600).await; // resync every hour; ticks count in between
///     }
/// }
///
/// async fn id_task(ids: &mut [oid_embedded::ObjectId]) {
///     for slot in ids.iter_mut() {
///         loop {
///             match GENERATOR.try_next() {
///                 Ok(id) => {
///                     *slot = id;
///                     break;
///                 }
///                 // Not synced yet (or this second's ids are spent): let the others run.
///                 Err(e) if e.kind() == ErrorKind::ClockUnavailable
///                     || e.kind() == ErrorKind::CapacityExhausted =>
///                 {
///                     yield_now().await
///                 }
///                 Err(e) => panic!("{e}"),
///             }
///         }
///     }
/// }
///
/// // At boot, once.
/// GENERATOR.init(&mut HardwareRng::new(|buf: &mut [u8]| buf.fill(0x42)))?; // your RNG here
/// let mut ids = [oid_embedded::ObjectId::MIN; 3];
/// block_on(select(clock_task(), id_task(&mut ids)));
/// assert!(ids.iter().all(|id| id.timestamp() == 1_700_000_000));
/// assert!(ids[0] < ids[1] && ids[1] < ids[2]);
/// # Ok::<(), oid_embedded::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EmbassyTicks;

impl EmbassyTicks {
    /// embassy-time's tick rate as a `u32`, for [`SyncedClock`]'s `HZ` parameter (it does not
    /// compile where embassy-time is configured for more than `u32::MAX` ticks per second).
    ///
    /// # Examples
    ///
    /// ```
    /// use oid_embedded::EmbassyTicks;
    /// assert_eq!(u64::from(EmbassyTicks::HZ), embassy_time::TICK_HZ);
    /// ```
    pub const HZ: u32 = {
        assert!(
            TICK_HZ <= u32::MAX as u64,
            "embassy-time's TICK_HZ does not fit SyncedClock's u32 rate"
        );
        TICK_HZ as u32
    };
}

impl TickSource for EmbassyTicks {
    #[inline]
    fn ticks(&self) -> u64 {
        Instant::now().as_ticks()
    }
}

/// A [`SyncedClock`] counting embassy-time's ticks: set it from an RTC or the network, and it
/// carries the time on with the embassy time driver in between. See [`EmbassyTicks`] for an
/// async example.
///
/// # Examples
///
/// ```
/// use oid_embedded::{Clock, EmbassyClock, EmbassyTicks};
/// static CLOCK: EmbassyClock = EmbassyClock::new(EmbassyTicks);
/// assert_eq!(CLOCK.unix_seconds(), None); // until set
/// CLOCK.set_unix_time(1_700_000_000)?;
/// assert!(CLOCK.unix_seconds() >= Some(1_700_000_000));
/// # Ok::<(), oid_embedded::Error>(())
/// ```
pub type EmbassyClock = SyncedClock<EmbassyTicks, { EmbassyTicks::HZ }>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Clock, SharedGenerator};
    use embassy_time::{Duration, MockDriver};

    /// One test owns the mock driver's global time (tests run in parallel threads).
    #[test]
    fn the_clock_follows_the_embassy_driver() {
        let driver = MockDriver::get();
        driver.reset();
        assert_eq!(EmbassyTicks.ticks(), 0);
        assert_eq!(u64::from(EmbassyTicks::HZ), TICK_HZ);

        let generator: SharedGenerator<EmbassyClock> =
            SharedGenerator::new(EmbassyClock::new(EmbassyTicks));
        generator.init_with_seed([1, 2, 3, 4, 5], 0).unwrap();
        driver.advance(Duration::from_millis(250));
        assert_eq!(EmbassyTicks.ticks(), TICK_HZ / 4);
        generator.clock().set_unix_time(1_700_000_000).unwrap();

        // Within the second of the set, then whole seconds later, by the driver's ticks.
        driver.advance(Duration::from_millis(999));
        assert_eq!(generator.clock().unix_seconds(), Some(1_700_000_000));
        driver.advance(Duration::from_millis(1));
        assert_eq!(generator.clock().unix_seconds(), Some(1_700_000_001));
        driver.advance(Duration::from_secs(3600));
        let id = generator.try_next().unwrap().to_parts();
        assert_eq!((id.timestamp, id.counter), (1_700_003_601, 0));

        // A resync at a known tick (the tick of an SNTP reply, say) replaces the anchor.
        let at = Instant::now().as_ticks() - 2 * TICK_HZ;
        generator
            .clock()
            .set_unix_time_at(1_800_000_000, at)
            .unwrap();
        assert_eq!(generator.clock().unix_seconds(), Some(1_800_000_002));
    }
}
