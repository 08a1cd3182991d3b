//! Forks that run no `pthread_atfork` handler: the raw `fork` and `clone` system calls and
//! glibc's `_Fork()`. On Linux the child's generator state lives on a `MADV_WIPEONFORK` page,
//! so the child must still draw its own random value and counter. One `#[test]` in this file,
//! so the process has no other test threads while it forks.
#![cfg(any(target_os = "linux", target_os = "android"))]
#![allow(unsafe_code)] // fork by system call, pipe, write, waitpid, _exit, dlsym: test scaffolding

use oid_std::ObjectId;

/// Forks with `fork` (a function returning 0 in the child, the child's pid in the parent),
/// makes `n` ids in the child and returns them.
fn ids_from_child(fork: &dyn Fn() -> libc::pid_t, n: usize) -> Vec<ObjectId> {
    let mut fds = [0; 2];
    // SAFETY: `fds` is a valid array of two ints for pipe(2) to fill.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    let pid = fork();
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        // In the child: no allocation, no handler ran. Make the ids, write them, leave.
        let mut buf = [0u8; 12 * 4];
        let mut code = 0;
        for k in 0..n.min(4) {
            buf[12 * k..12 * (k + 1)].copy_from_slice(&oid_std::new().bytes());
        }
        let len = 12 * n.min(4);
        // SAFETY: writes `len` initialised bytes of `buf` to the pipe's write end.
        if unsafe { libc::write(fds[1], buf.as_ptr().cast(), len) } != len as isize {
            code = 102;
        }
        // SAFETY: ends the child at once, running none of the parent's exit handlers.
        unsafe { libc::_exit(code) };
    }
    // SAFETY: the parent does not use the write end.
    unsafe { libc::close(fds[1]) };
    let mut out = vec![0u8; 12 * n];
    let mut off = 0;
    while off < out.len() {
        // SAFETY: reads into the unfilled part of `out`, which is valid for that many bytes.
        let r = unsafe { libc::read(fds[0], out[off..].as_mut_ptr().cast(), out.len() - off) };
        assert!(r > 0, "reading the child's ids");
        off += r as usize;
    }
    // SAFETY: fds[0] is our read end.
    unsafe { libc::close(fds[0]) };
    let mut status = 0;
    // SAFETY: `pid` is our child and `status` a valid int.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "child failed with status {status:#x}"
    );
    out.chunks_exact(12)
        .map(|c| {
            let mut bytes = [0u8; 12];
            bytes.copy_from_slice(c);
            ObjectId::from_bytes(bytes)
        })
        .collect()
}

/// glibc's `_Fork` (2.34 and later): a fork that runs no atfork handlers. `None` if absent.
fn underscore_fork() -> Option<extern "C" fn() -> libc::pid_t> {
    // SAFETY: dlsym with RTLD_DEFAULT and a NUL-terminated name only looks the symbol up.
    let sym = unsafe { libc::dlsym(libc::RTLD_DEFAULT, c"_Fork".as_ptr()) };
    if sym.is_null() {
        return None;
    }
    // SAFETY: glibc declares `pid_t _Fork(void)`; the symbol has exactly that C signature.
    Some(unsafe { std::mem::transmute::<*mut libc::c_void, extern "C" fn() -> libc::pid_t>(sym) })
}

#[test]
fn children_of_raw_forks_draw_their_own_random_value_and_counter() {
    type Fork = Box<dyn Fn() -> libc::pid_t>;
    let mut forks: Vec<(&str, Fork)> = Vec::new();
    #[cfg(target_arch = "x86_64")]
    forks.push((
        "syscall(SYS_fork)",
        Box::new(|| {
            // SAFETY: the raw fork system call; the child only makes ids, writes and `_exit`s.
            let pid = unsafe { libc::syscall(libc::SYS_fork) };
            pid as libc::pid_t
        }),
    ));
    forks.push((
        "syscall(SYS_clone, SIGCHLD) (clone without CLONE_VM)",
        Box::new(|| {
            // SAFETY: clone with only SIGCHLD and no new stack is a plain fork (the other
            // arguments are zero, whatever their order on this architecture); the child only
            // makes ids, writes and `_exit`s.
            let pid = unsafe { libc::syscall(libc::SYS_clone, libc::SIGCHLD, 0, 0, 0, 0) };
            pid as libc::pid_t
        }),
    ));
    match underscore_fork() {
        Some(f) => forks.push(("_Fork()", Box::new(move || f()))),
        None => println!("note: this C library has no _Fork(); that case is skipped"),
    }
    for (name, fork) in &forks {
        // The parent's thread holds a live block when it forks.
        let before: Vec<ObjectId> = (0..10).map(|_| oid_std::new()).collect();
        let child = ids_from_child(fork.as_ref(), 3);
        let after: Vec<ObjectId> = (0..3).map(|_| oid_std::new()).collect();
        let parent_random = before[0].to_parts().random;
        assert_ne!(
            child[0].to_parts().random,
            parent_random,
            "{name}: the child kept the parent's random value"
        );
        assert!(
            child
                .iter()
                .all(|id| id.to_parts().random == child[0].to_parts().random)
        );
        assert!(
            after.iter().all(|id| id.to_parts().random == parent_random),
            "{name}: the parent's random value changed"
        );
        assert!(
            before[9] < after[0],
            "{name}: the parent goes on where it was"
        );
        // Nor the parent's counter range: the child's counters are not the parent's next ones.
        let next = before[9].to_parts().counter.wrapping_add(1) & 0xff_ffff;
        assert_ne!(child[0].to_parts().counter, next, "{name}");
        println!(
            "{name}: child random {:02x?}, parent {:02x?}",
            child[0].to_parts().random,
            parent_random
        );
    }
}
