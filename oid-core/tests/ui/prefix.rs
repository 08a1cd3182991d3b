fn main() {
    let _id = oid_core::oid!("0x507f1f77bcf86cd799439011");
}
