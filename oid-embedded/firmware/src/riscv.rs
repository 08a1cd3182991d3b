//! RISC-V on QEMU's `sifive_e` machine (FE310): boot with riscv-rt, the CLINT's machine timer
//! as the timer interrupt, semihosting for output and the exit status. A panic, an unexpected
//! trap (an atomic instruction on a core without the A extension traps as an illegal
//! instruction) or an unexpected interrupt prints what happened and exits 1: never a hang.

use riscv::interrupt::Interrupt;
use riscv::register::{mcause, mepc, mtval};
use riscv_rt::{core_interrupt, entry};
use riscv_semihosting::debug;
pub(crate) use riscv_semihosting::hprintln;

use crate::selftest::{self, Timer};

/// The FE310's CLINT (core-local interruptor), as QEMU's `sifive_e` maps it: hart 0's 64-bit
/// `mtimecmp` and the 64-bit `mtime` counter.
const MTIMECMP: usize = 0x0200_4000;
const MTIME: usize = 0x0200_bff8;

/// `mtime` ticks between two timer interrupts: 10 kHz with QEMU's CLINT, which counts at
/// 10 MHz. (One tick apart, the interrupts came so fast that the main loop never ran again.)
const PERIOD: u64 = 1_000;

/// The machine timer of the CLINT.
struct MachineTimer;

impl MachineTimer {
    fn now() -> u64 {
        // SAFETY: MTIME is the CLINT's memory-mapped `mtime` register on this machine (aligned,
        // always readable); a volatile read has no side effect. The high half is read twice so
        // that a carry between the two reads is seen.
        unsafe {
            loop {
                let hi = core::ptr::read_volatile((MTIME + 4) as *const u32);
                let lo = core::ptr::read_volatile(MTIME as *const u32);
                if core::ptr::read_volatile((MTIME + 4) as *const u32) == hi {
                    return (u64::from(hi) << 32) | u64::from(lo);
                }
            }
        }
    }

    /// Sets hart 0's compare value: the timer interrupt is pending while `mtime >= at`.
    fn fire_at(at: u64) {
        // SAFETY: MTIMECMP is hart 0's memory-mapped `mtimecmp` register on this machine, only
        // written here (from the main loop before the interrupt is enabled, then from the
        // interrupt itself). The low half is set to all ones first, so that no value between
        // the old and the new one can fire an early interrupt.
        unsafe {
            core::ptr::write_volatile(MTIMECMP as *mut u32, u32::MAX);
            core::ptr::write_volatile((MTIMECMP + 4) as *mut u32, (at >> 32) as u32);
            core::ptr::write_volatile(MTIMECMP as *mut u32, at as u32);
        }
    }
}

impl Timer for MachineTimer {
    fn start(&mut self) {
        MachineTimer::fire_at(MachineTimer::now() + PERIOD);
        // SAFETY: the only interrupt enabled is the machine timer, whose handler touches only
        // atomics and the generator, both made for sharing with interrupts.
        unsafe {
            riscv::interrupt::enable_interrupt(Interrupt::MachineTimer);
            riscv::interrupt::enable();
        }
    }

    fn stop(&mut self) {
        riscv::interrupt::disable_interrupt(Interrupt::MachineTimer);
    }
}

#[core_interrupt(Interrupt::MachineTimer)]
fn machine_timer() {
    MachineTimer::fire_at(MachineTimer::now() + PERIOD);
    selftest::on_tick();
}

#[entry]
fn main() -> ! {
    let passed = selftest::run(&mut MachineTimer);
    hprintln!("selftest: {}", if passed { "ok" } else { "FAILED" });
    exit(passed)
}

fn exit(passed: bool) -> ! {
    debug::exit(if passed {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    #[allow(clippy::empty_loop)] // unreachable: QEMU has exited
    loop {}
}

/// Any exception (riscv-rt's default would spin forever; riscv-rt calls it with the C ABI): an illegal instruction (mcause 2)
/// is what a stray atomic instruction causes on a core without the A extension.
#[unsafe(export_name = "ExceptionHandler")]
extern "C" fn exception_handler(_frame: &riscv_rt::TrapFrame) -> ! {
    hprintln!(
        "FAIL: trap mcause={:#x} mepc={:#x} mtval={:#x}",
        mcause::read().bits(),
        mepc::read(),
        mtval::read()
    );
    hprintln!("selftest: FAILED");
    exit(false)
}

/// An interrupt nobody asked for.
#[unsafe(export_name = "DefaultHandler")]
extern "C" fn default_handler() -> ! {
    hprintln!(
        "FAIL: unexpected interrupt mcause={:#x}",
        mcause::read().bits()
    );
    hprintln!("selftest: FAILED");
    exit(false)
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo<'_>) -> ! {
    hprintln!("FAIL: panic {}", info);
    hprintln!("selftest: FAILED");
    exit(false)
}
