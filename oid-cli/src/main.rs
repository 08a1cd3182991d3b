//! The `oid` command (not implemented yet).

fn main() {
    eprintln!("oid: not implemented yet");
    std::process::exit(2);
}
