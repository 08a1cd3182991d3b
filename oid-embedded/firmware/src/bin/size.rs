//! The flash-size probe for `cargo xtask size`: prints one id over semihosting and exits.
//!
//! Built twice per target, without and with the `ids` feature: without it, the firmware prints
//! a 24-byte constant the same way, so the difference in `.text + .rodata` between the two is
//! the cost of generating and hex-formatting ids (a `static` `SharedGenerator` over a
//! `SyncedClock`, seeded once from a hardware RNG; with `device-id`, from the device id and
//! boot count through SipHash-2-4 instead). Inputs go through `black_box`, standing in for
//! peripheral reads, so that the compiler cannot fold the id into a constant.
//!
//! On the host this binary is a stub.
#![cfg_attr(target_os = "none", no_std, no_main)]

#[cfg(target_os = "none")]
mod probe {
    // The critical-section implementation portable-atomic needs on the Cortex-M0 and on
    // riscv32imc (and oid-core's generator on every target without 64-bit atomics).
    #[cfg(target_arch = "arm")]
    use cortex_m as _;
    #[cfg(target_arch = "arm")]
    use cortex_m_rt::entry;
    #[cfg(target_arch = "arm")]
    use cortex_m_semihosting::{debug, hio};
    #[cfg(target_arch = "riscv32")]
    use riscv as _;
    #[cfg(target_arch = "riscv32")]
    use riscv_rt::entry;
    #[cfg(target_arch = "riscv32")]
    use riscv_semihosting::{debug, hio};

    #[cfg(feature = "ids")]
    mod ids {
        use core::hint::black_box;
        use core::sync::atomic::{AtomicU32, Ordering};

        #[cfg(not(feature = "device-id"))]
        use oid_embedded::HardwareRng;
        use oid_embedded::{SharedGenerator, SyncedClock, TickSource};

        /// A tick counter as a timer interrupt would keep it.
        static TICKS: AtomicU32 = AtomicU32::new(0);

        /// The tick source as a unit struct: its reads inline, and the generator `static`
        /// starts all zeros, so it lands in `.bss` (no flash for its initial value).
        struct Ticks;

        impl TickSource for Ticks {
            fn ticks(&self) -> u64 {
                u64::from(TICKS.load(Ordering::Relaxed))
            }
        }

        static GENERATOR: SharedGenerator<SyncedClock<Ticks, 1000>> =
            SharedGenerator::new(SyncedClock::new(Ticks));

        /// Seeds the generator, sets the clock, makes an id and hex-formats it into `out`.
        pub(super) fn make(out: &mut [u8; 24]) -> bool {
            #[cfg(not(feature = "device-id"))]
            let seeded = GENERATOR.init(&mut HardwareRng::new(|buf: &mut [u8]| {
                for b in buf {
                    *b = black_box(0x5a); // an RNG data register read
                }
            }));
            #[cfg(feature = "device-id")]
            let seeded = {
                let uid: [u8; 12] = black_box(*b"unique-id-12"); // the UID registers
                GENERATOR.init(&mut oid_embedded::DeviceIdEntropy::new(
                    &uid,
                    black_box(7), // the boot counter from flash
                ))
            };
            if seeded.is_err()
                || GENERATOR
                    .clock()
                    .set_unix_time(black_box(1_700_000_000))
                    .is_err()
            {
                return false;
            }
            match GENERATOR.try_next() {
                Ok(id) => {
                    *out = *id.to_hex().as_bytes();
                    true
                }
                Err(_) => false,
            }
        }
    }

    #[entry]
    fn main() -> ! {
        #[cfg(feature = "ids")]
        let (ok, text) = {
            let mut text = [0u8; 24];
            (ids::make(&mut text), text)
        };
        #[cfg(not(feature = "ids"))]
        let (ok, text) = (true, core::hint::black_box(*b"000000000000000000000000"));
        let printed = hio::hstdout()
            .and_then(|mut out| {
                out.write_all(&text)?;
                out.write_all(b"\n")
            })
            .is_ok();
        debug::exit(if ok && printed {
            debug::EXIT_SUCCESS
        } else {
            debug::EXIT_FAILURE
        });
        #[allow(clippy::empty_loop)] // unreachable: QEMU has exited
        loop {}
    }

    /// A trap (riscv-rt's default handler would spin) exits with status 1 too.
    #[cfg(target_arch = "riscv32")]
    #[unsafe(export_name = "ExceptionHandler")]
    extern "C" fn exception_handler(_: &riscv_rt::TrapFrame) -> ! {
        debug::exit(debug::EXIT_FAILURE);
        #[allow(clippy::empty_loop)]
        loop {}
    }

    /// No formatting machinery: a panic just exits with status 1.
    #[panic_handler]
    fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
        debug::exit(debug::EXIT_FAILURE);
        #[allow(clippy::empty_loop)]
        loop {}
    }
}

#[cfg(not(target_os = "none"))]
fn main() {
    eprintln!("oid-embedded-firmware runs on thumb and riscv32 targets: use `cargo xtask size`");
}
