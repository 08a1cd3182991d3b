const ID: oid_core::ObjectId = oid_core::oid!("507F1F77bcf86cd799439011");

fn main() {
    assert_eq!(ID.timestamp(), 1_350_508_407);
}
