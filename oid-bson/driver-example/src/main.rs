//! The driver example of oid-bson's README: the text between the two marker comments is the
//! README's `rust,ignore` block, word for word (a tidy test compares them). Compiled by
//! `cargo xtask driver` (a CI step), not run: it needs a MongoDB server.

// README begin
use mongodb::Collection;
use mongodb::bson::doc;
use oid_bson::{ObjectId, oid};
use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug)]
struct Order {
    #[serde(rename = "_id")]
    id: ObjectId,
    customer: ObjectId,
    items: Vec<ObjectId>,
    replaces: Option<ObjectId>,
}

async fn save_and_find(orders: &Collection<Order>) -> mongodb::error::Result<()> {
    let customer = oid!("507f1f77bcf86cd799439011");
    let order = Order {
        id: ObjectId::new(),
        customer,
        items: vec![ObjectId::new()],
        replaces: None,
    };
    orders.insert_one(&order).await?;

    // Filters take ids directly.
    let found = orders.find_one(doc! { "_id": order.id }).await?;
    println!("{found:?}");

    // Orders created in the last hour: { _id: { $gte: ..., $lt: ... } }, whole seconds.
    let hour_ago = mongodb::bson::DateTime::now().saturating_add_millis(-3_600_000);
    let recent = doc! { "_id": oid_bson::created_between(Some(hour_ago), None) };
    let count = orders.count_documents(recent).await?;
    println!("{count} orders in the last hour");
    Ok(())
}
// README end

fn main() {
    // Compiled only: `save_and_find` needs a collection of a running server.
    let _ = save_and_find;
}
