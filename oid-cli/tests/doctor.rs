//! `oid doctor`: what oid-std uses on this machine, as text and as JSON; exit status 0.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

mod common;

use common::{oid, ok, temp_dir};

#[test]
fn doctor_prints_every_detector_for_a_person() {
    let text = ok(&["doctor"]);
    for label in [
        "fork detection",
        "vmclock",
        "boot clock",
        "entropy           getrandom: ok",
        "cpu random",
        "cycle counter",
        "capacity policy   wait",
        "snapshot policy   signals",
    ] {
        assert!(text.contains(label), "{label:?} not in {text}");
    }
    #[cfg(target_os = "linux")]
    assert!(text.contains("fork detection    wipe-on-fork"), "{text}");
}

#[test]
fn doctor_json_has_stable_fields() {
    let v: serde_json::Value = serde_json::from_str(&ok(&["doctor", "--format", "json"])).unwrap();
    for key in [
        "fork_detection",
        "vmclock",
        "boot_clock",
        "entropy",
        "cpu_random",
        "cycle_counter",
        "monotonic_raw",
        "capacity_policy",
        "snapshot_policy",
        "restore_always_seen",
    ] {
        assert!(v.get(key).is_some(), "{key} missing in {v}");
    }
    assert_eq!(v["entropy"]["ok"], true);
    assert_eq!(v["capacity_policy"], "wait");
    #[cfg(target_os = "linux")]
    {
        assert_eq!(v["fork_detection"], "wipe-on-fork");
        assert_eq!(v["boot_clock"], true);
    }
}

#[cfg(target_os = "linux")]
#[test]
fn doctor_reads_the_vmclock_page_named_by_the_variable() {
    let dir = temp_dir("doctor");
    let path = dir.join("vmclock");
    let mut page = vec![0u8; 4096];
    page[0..4].copy_from_slice(&0x4b4c_4356u32.to_le_bytes()); // "VCLK"
    page[4..8].copy_from_slice(&4096u32.to_le_bytes());
    page[8..10].copy_from_slice(&1u16.to_le_bytes());
    page[24..32].copy_from_slice(&(1u64 << 8).to_le_bytes()); // VM_GEN_COUNTER_PRESENT
    page[104..112].copy_from_slice(&9u64.to_le_bytes());
    std::fs::write(&path, page).unwrap();
    let v = doctor_json_with_page(&path);
    assert_eq!(v["vmclock"]["status"], "active");
    assert_eq!(v["vmclock"]["in_use"], true);
    assert_eq!(v["vmclock"]["generation"], 9);
    assert_eq!(v["restore_always_seen"], true);
    let text = doctor_text_with_page(&path);
    assert!(text.contains("active at"), "{text}");
    assert!(
        text.contains("share no id except the one\neach thread is making"),
        "{text}"
    );
    assert!(text.contains("a replacement by rename is seen"), "{text}");
    assert_eq!(v["vmclock"]["rechecked"], true);
    assert_eq!(v["vmclock"]["replacement_seen"], true);
    // Mid-update through every read (sequence count odd): said so, not "cannot be read".
    let mut odd = std::fs::read(&path).unwrap();
    odd[12..16].copy_from_slice(&3u32.to_le_bytes());
    std::fs::write(&path, odd).unwrap();
    let v = doctor_json_with_page(&path);
    assert_eq!(v["vmclock"]["status"], "mid-update");
    assert_eq!(v["vmclock"]["in_use"], false);
    let text = doctor_text_with_page(&path);
    assert!(text.contains("stayed odd through every read"), "{text}");
    assert!(!text.contains("permissions"), "{text}");
    // Not a page: said so, still exit 0.
    std::fs::write(&path, [0u8; 4096]).unwrap();
    let v = doctor_json_with_page(&path);
    assert_eq!(v["vmclock"]["status"], "invalid");
    assert_eq!(v["restore_always_seen"], false);
    let _ = std::fs::remove_dir_all(dir);
}

/// `oid doctor --format json` with `OID_STD_VMCLOCK` naming `page`: exit status 0, the JSON read.
/// `oid doctor`'s text with the VMClock page at `page`.
fn doctor_text_with_page(page: &std::path::Path) -> String {
    let out = oid()
        .arg("doctor")
        .env("OID_STD_VMCLOCK", page)
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

fn doctor_json_with_page(page: &std::path::Path) -> serde_json::Value {
    let out = oid()
        .args(["doctor", "--format", "json"])
        .env("OID_STD_VMCLOCK", page)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}
