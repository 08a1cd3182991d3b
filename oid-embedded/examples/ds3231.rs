//! DS3231 example (being written).
fn main() {}
