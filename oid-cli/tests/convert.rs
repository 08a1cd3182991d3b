//! `oid convert`: lines in, hex lines out; invalid and unreadable inputs; the progress bar.

#![allow(
    clippy::unwrap_used,
    reason = "test helpers: a failed unwrap is a failed test"
)]

mod common;

use std::process::{Command as StdCommand, Stdio};

use common::{bin, oid, ok, temp_dir};

const A: &str = "507f1f77bcf86cd799439011";
const B: &str = "6553f1003f2a91c8d4003039";

#[test]
fn pasted_forms_become_hex_lines() {
    let dir = temp_dir("convert-pasted");
    let input = dir.join("pasted.txt");
    std::fs::write(
        &input,
        format!(
            "ObjectId(\"{A}\")\n\n{{\"$oid\": \"{B}\"}}\n  {}  \n",
            A.to_uppercase()
        ),
    )
    .unwrap();
    let out = ok(&["convert", input.to_str().unwrap(), "-o", "-"]);
    assert_eq!(out, format!("{A}\n{B}\n{A}\n"));
    // Standard input when there is no IN, and `-` for it among files.
    oid()
        .args(["convert", "-o", "-"])
        .write_stdin(format!("{B}\n"))
        .assert()
        .success()
        .stdout(format!("{B}\n"))
        .stderr("");
    oid()
        .args(["convert", input.to_str().unwrap(), "-", "-o", "-"])
        .write_stdin(format!("{B}\n"))
        .assert()
        .success()
        .stdout(format!("{A}\n{B}\n{A}\n{B}\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn invalid_lines_are_reported_as_validate_reports_them_and_left_out() {
    let dir = temp_dir("convert-invalid");
    let input = dir.join("ids.txt");
    std::fs::write(&input, format!("{A}\nxyz\n{B}\n{A}g\n")).unwrap();
    let name = input.display();
    let validate = oid()
        .args(["validate", "-f", input.to_str().unwrap()])
        .output()
        .unwrap();
    let reports: String = String::from_utf8(validate.stderr)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("oid: "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(
        reports.contains(&format!("oid: {name}:2: \"xyz\": ")),
        "{reports}"
    );
    let output = dir.join("out.txt");
    oid()
        .args(["convert", input.to_str().unwrap(), "-o"])
        .arg(&output)
        .assert()
        .code(1)
        .stdout("")
        .stderr(format!("{reports}oid: 2 ids written, 2 invalid left out\n"));
    assert_eq!(
        std::fs::read_to_string(&output).unwrap(),
        format!("{A}\n{B}\n")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unreadable_input_leaves_the_output_untouched_with_status_2() {
    let dir = temp_dir("convert-unreadable");
    let input = dir.join("ids.txt");
    std::fs::write(&input, format!("{A}\n")).unwrap();
    let output = dir.join("out.txt");
    std::fs::write(&output, "before\n").unwrap();
    let missing = dir.join("missing.txt");
    oid()
        .arg("convert")
        .args([&input, &missing])
        .arg("-o")
        .arg(&output)
        .assert()
        .code(2)
        .stderr(format!(
            "oid: cannot read {}: No such file or directory (os error 2)\n\
             oid: {} not written: an input could not be read\n",
            missing.display(),
            output.display()
        ));
    assert_eq!(std::fs::read_to_string(&output).unwrap(), "before\n");
    // No temporary file is left behind.
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 2, "{left:?}");
    // A read error of standard input (a directory) is exit status 2 as well.
    let output = StdCommand::new(bin())
        .args(["convert", "-o", "-"])
        .stdin(std::fs::File::open("/").unwrap())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_output_may_be_an_input_and_gets_the_usual_mode() {
    let dir = temp_dir("convert-in-place");
    let file = dir.join("ids.txt");
    std::fs::write(&file, format!("ObjectId('{A}')\n{B}\n")).unwrap();
    ok(&[
        "convert",
        file.to_str().unwrap(),
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        format!("{A}\n{B}\n")
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // What `File::create` gives: 0666 less the umask, not a temporary file's 0600.
        let plain = dir.join("plain");
        std::fs::File::create(&plain).unwrap();
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode();
        assert_eq!(mode(&file) & 0o777, mode(&plain) & 0o777);
    }
    // A device is written as it is, not replaced.
    ok(&["convert", file.to_str().unwrap(), "-o", "/dev/null"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_unwritable_output_names_it() {
    let dir = temp_dir("convert-unwritable");
    let output = dir.join("no-such-folder").join("out.txt");
    oid()
        .args(["convert", "-o"])
        .arg(&output)
        .write_stdin(format!("{A}\n"))
        .assert()
        .code(1)
        .stderr(predicates::str::starts_with(format!(
            "oid: cannot write {}: ",
            output.display()
        )));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `sh -c SCRIPT` with `$OID` set, under `script` (a terminal) when `tty`, and returns
/// what it wrote to standard error (with standard output, on a terminal).
fn slow_conversion(tty: bool) -> Option<String> {
    // Ids arrive, then more after a second: the bar is drawn only once a run is half a second
    // old, and only on a terminal.
    let run =
        format!("(echo {A}; sleep 1; echo {B}) | \"$OID\" convert -o \"$OUT\"; echo status $? >&2");
    let dir = temp_dir(if tty { "progress-tty" } else { "progress-pipe" });
    let out = dir.join("out.txt");
    let output = if tty {
        StdCommand::new("script")
            .args(["-qec", &run, "/dev/null"])
            .env("OID", bin())
            .env("OUT", &out)
            .env("TERM", "xterm")
            .stdin(Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())?
    } else {
        StdCommand::new("sh")
            .args(["-c", &run])
            .env("OID", bin())
            .env("OUT", &out)
            .output()
            .unwrap()
    };
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        format!("{A}\n{B}\n")
    );
    std::fs::remove_dir_all(&dir).unwrap();
    Some(String::from_utf8_lossy(if tty { &output.stdout } else { &output.stderr }).into_owned())
}

#[test]
fn no_progress_bar_when_piped() {
    assert_eq!(slow_conversion(false).unwrap(), "status 0\n");
}

#[test]
fn a_progress_bar_on_a_terminal() {
    // `script` (util-linux) gives the command a terminal; without it there is nothing to check.
    let Some(seen) = slow_conversion(true) else {
        return;
    };
    assert!(seen.contains("standard input"), "{seen:?}");
    assert!(seen.contains("status 0"), "{seen:?}");
}
