fn main() {
    let _id = oid_core::oid!("507f1f77bcf86cd79943901");
}
