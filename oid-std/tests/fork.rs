//! Fork safety with a real `fork()`: the MongoDB specification's prose test ("after a fork,
//! the child's next id has a new random value"). One `#[test]` in this file, so the process
//! has no other test threads while it forks.
#![cfg(unix)]
#![allow(unsafe_code)] // fork, pipe, waitpid, _exit: test scaffolding only

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::FromRawFd;

use oid_std::ObjectId;

/// Runs `body` in a forked child and returns what it wrote; the child exits with 0 only if
/// `body` returned (a panic makes it exit with 101 and the parent fail).
fn in_child(body: impl FnOnce() -> Vec<u8>) -> Vec<u8> {
    let mut fds = [0; 2];
    // SAFETY: `fds` is a valid array of two ints for pipe(2) to fill.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: the child only runs `body` (our library and plain Rust), writes to the pipe and
    // leaves with `_exit`, never returning into the test harness.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0, "fork failed");
    if pid == 0 {
        // SAFETY: fds[0] is the read end we own; closing it in the child is fine.
        unsafe { libc::close(fds[0]) };
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(body));
        let code = match outcome {
            Ok(bytes) => {
                // SAFETY: fds[1] is the pipe's write end, owned by this child from here on.
                let mut w = unsafe { File::from_raw_fd(fds[1]) };
                if w.write_all(&bytes).is_ok() { 0 } else { 102 }
            }
            Err(_) => 101,
        };
        // SAFETY: `_exit` ends the child at once, without running the harness's atexit code.
        unsafe { libc::_exit(code) };
    }
    // SAFETY: fds[1] is the write end, not used by the parent; fds[0] is the read end we own.
    unsafe { libc::close(fds[1]) };
    // SAFETY: as above, ownership of the read end moves into the File.
    let mut r = unsafe { File::from_raw_fd(fds[0]) };
    let mut out = Vec::new();
    assert!(r.read_to_end(&mut out).is_ok(), "reading the child's ids");
    let mut status = 0;
    // SAFETY: `pid` is our child and `status` a valid int.
    assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "child failed with status {status:#x}"
    );
    out
}

fn ids_to_bytes(ids: &[ObjectId]) -> Vec<u8> {
    ids.iter().flat_map(|id| id.bytes()).collect()
}

fn bytes_to_ids(bytes: &[u8]) -> Vec<ObjectId> {
    bytes
        .chunks_exact(12)
        .map(|c| {
            let mut bytes = [0u8; 12];
            bytes.copy_from_slice(c);
            ObjectId::from_bytes(bytes)
        })
        .collect()
}

const fn random(id: ObjectId) -> [u8; 5] {
    id.to_parts().random
}

#[test]
fn a_forked_child_gets_a_new_random_value_and_counter() {
    // 1. Fork before this process made any id: parent and child seed on their own.
    let child = bytes_to_ids(&in_child(|| {
        ids_to_bytes(&[oid_std::new(), oid_std::new()])
    }));
    let parent = oid_std::new();
    assert_ne!(random(child[0]), random(parent));
    assert_eq!(random(child[0]), random(child[1]));

    // 2. Fork while the parent's thread holds a live counter block: the child must not go on
    //    with it (that would repeat the parent's next ids), nor keep the random value.
    let before = oid_std::new();
    let child = bytes_to_ids(&in_child(|| {
        let mut ids = vec![oid_std::new(), oid_std::try_new().unwrap()];
        // 3. A grandchild: the handler runs again in a child of a child.
        ids.extend(bytes_to_ids(&in_child(|| ids_to_bytes(&[oid_std::new()]))));
        ids_to_bytes(&ids)
    }));
    let after: Vec<ObjectId> = (0..3).map(|_| oid_std::new()).collect();
    assert_eq!(
        random(before),
        random(parent),
        "the parent keeps its random value"
    );
    assert_eq!(random(after[0]), random(before));
    assert_ne!(
        random(child[0]),
        random(before),
        "the child has a new random value"
    );
    assert_eq!(random(child[0]), random(child[1]));
    assert_ne!(
        random(child[2]),
        random(child[0]),
        "the grandchild has its own"
    );
    assert_ne!(random(child[2]), random(before));
    for c in &child {
        assert!(!after.contains(c) && *c != before);
    }
    // The parent's own sequence is undisturbed: increasing.
    assert!(before < after[0] && after[0] < after[1]);

    // 4. The legacy layout takes the child's process id.
    #[cfg(feature = "legacy")]
    {
        let child = in_child(|| {
            let id = oid_std::legacy::new();
            let mut out = ids_to_bytes(&[id]);
            out.extend_from_slice(&std::process::id().to_be_bytes());
            out
        });
        let id = bytes_to_ids(&child[..12])[0];
        let child_pid = u32::from_be_bytes([child[12], child[13], child[14], child[15]]);
        assert_eq!(id.to_legacy_parts().process_id, child_pid as u16);
        assert_eq!(id.to_legacy_parts().machine, oid_std::legacy::machine_id());
        assert_eq!(
            oid_std::legacy::new().to_legacy_parts().process_id,
            std::process::id() as u16
        );
    }
}
