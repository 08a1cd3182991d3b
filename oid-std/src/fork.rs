//! Knowing, per id and cheaply, whether this process drew the seed in use, whatever made the
//! process.
//!
//! A [`Guard`] is two words: the *epoch* of the seed this process drew (0: none yet) and the
//! seeding lock (0: free, else the process id of the holder). Both must read 0 in a new child,
//! so that the child draws its own seed and cannot inherit a lock that a parent thread held:
//!
//! * **Linux, Android** ([`GuardKind::WipeOnFork`]): the words live on a page marked
//!   `MADV_WIPEONFORK` (Linux 4.14 and later), which the kernel zeroes in every child: after
//!   `fork()`, glibc's `_Fork()`, `clone()` without `CLONE_VM`, and the raw
//!   `fork`/`clone` system calls alike.
//! * **Other Unixes, and older Linux kernels** ([`GuardKind::AtFork`]): static words that a
//!   `pthread_atfork` child handler zeroes. The C library's `fork()` runs it; a raw system call
//!   or `_Fork()` does not, so such a child is not detected there.
//! * **Neither available** ([`GuardKind::Pid`]: `pthread_atfork` failed for lack of memory):
//!   the generator compares the process id with the seed's for every id (a system call, and
//!   blocks of one id).
//! * **Windows and other systems without `fork`**: static words ([`GuardKind::AtFork`] with
//!   nothing to register); nothing can copy a process there.

use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicU8, AtomicU32};

use crate::sys::{self, WipeWords};

/// How a child is told apart from its parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GuardKind {
    /// A `MADV_WIPEONFORK` page: every child, however made.
    WipeOnFork,
    /// A `pthread_atfork` handler (or no `fork` at all): children of the C library's `fork()`.
    AtFork,
    /// The process id, compared per id.
    Pid,
}

/// The epoch word and the seeding lock of this process (see the module doc).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Guard {
    pub(crate) epoch: &'static AtomicU32,
    pub(crate) lock: &'static AtomicU32,
    pub(crate) kind: GuardKind,
}

impl Guard {
    pub(crate) const fn new(words: &'static WipeWords, kind: GuardKind) -> Guard {
        Guard {
            epoch: &words[0],
            lock: &words[1],
            kind,
        }
    }
}

/// The words of [`GuardKind::AtFork`] and [`GuardKind::Pid`].
static STATIC_WORDS: WipeWords = [AtomicU32::new(0), AtomicU32::new(0)];

const UNDECIDED: u8 = 0;
const WIPE: u8 = 1;
const ATFORK: u8 = 2;
const PID: u8 = 3;

/// Which guard this process uses, decided with the first seed.
static KIND: AtomicU8 = AtomicU8::new(UNDECIDED);

/// Runs in the child after the C library's `fork()`, where only the forking thread exists.
/// Only async-signal-safe work: two atomic stores.
extern "C" fn after_fork_in_child() {
    STATIC_WORDS[0].store(0, Relaxed);
    STATIC_WORDS[1].store(0, Release);
}

/// The guard of this process: the wipe-on-fork page where the kernel has it, else the
/// `pthread_atfork` words, else the process id check.
pub(crate) fn process_guard() -> Guard {
    loop {
        match KIND.load(Acquire) {
            WIPE => {
                if let Some(words) = sys::wipe_on_fork_words() {
                    return Guard::new(words, GuardKind::WipeOnFork);
                }
                // Unreachable: the page, once mapped, stays. Decide again if it ever happens.
                KIND.store(UNDECIDED, Release);
            }
            ATFORK => return Guard::new(&STATIC_WORDS, GuardKind::AtFork),
            PID => return Guard::new(&STATIC_WORDS, GuardKind::Pid),
            _ => {
                let kind = if sys::wipe_on_fork_words().is_some() {
                    WIPE
                } else if sys::register_fork_handler(after_fork_in_child) {
                    // Racing first seeds may register twice: the handler is idempotent.
                    ATFORK
                } else {
                    PID
                };
                KIND.store(kind, Release);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(any(target_os = "linux", target_os = "android"))]
    fn linux_uses_the_wipe_on_fork_page() {
        let g = process_guard();
        assert_eq!(g.kind, GuardKind::WipeOnFork);
        // The same page every time.
        assert!(std::ptr::eq(g.epoch, process_guard().epoch));
    }
}
