//! Cortex-M: boot with cortex-m-rt, SysTick as the timer interrupt, semihosting for output and
//! the exit status, and a panic that exits 1 (`panic-semihosting` with `exit`).

use cortex_m::peripheral::SYST;
use cortex_m::peripheral::syst::SystClkSource;
use cortex_m_rt::{entry, exception};
use cortex_m_semihosting::debug;
pub(crate) use cortex_m_semihosting::hprintln;
use panic_semihosting as _;

use crate::selftest::{self, Timer};

/// SysTick reload: an interrupt every 4,000 core cycles.
const SYST_RELOAD: u32 = 4_000;

impl Timer for SYST {
    fn start(&mut self) {
        self.set_clock_source(SystClkSource::Core);
        self.set_reload(SYST_RELOAD);
        self.clear_current();
        self.enable_counter();
        self.enable_interrupt();
    }

    fn stop(&mut self) {
        self.disable_interrupt();
        self.disable_counter();
    }
}

#[exception]
fn SysTick() {
    selftest::on_tick();
}

#[entry]
fn main() -> ! {
    let passed = match cortex_m::Peripherals::take() {
        Some(mut p) => selftest::run(&mut p.SYST),
        None => {
            hprintln!("FAIL: core peripherals already taken");
            false
        }
    };
    hprintln!("selftest: {}", if passed { "ok" } else { "FAILED" });
    debug::exit(if passed {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    #[allow(clippy::empty_loop)] // unreachable: QEMU has exited
    loop {}
}
