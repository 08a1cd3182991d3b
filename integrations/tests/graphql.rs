//! async-graphql: schemas with queries that take and return `ObjectId` (oid-core's and
//! oid-bson's), executed: any-case input, lowercase output, bad input a GraphQL error.

#![allow(
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers outside #[test] fns: a failure there is a test failure"
)]

use async_graphql::{EmptyMutation, EmptySubscription, Object, Request, Schema, Variables};
use serde_json::json;

type CoreId = oid_core::ObjectId;
/// The scalar's description, the same for oid-core's and oid-bson's type (one GraphQL type).
const DESCRIPTION: &str = "A MongoDB ObjectId: 24 hexadecimal digits (12 bytes); input in either case, output in lowercase.";
type BsonId = oid_bson::ObjectId;

struct CoreQuery;

#[Object]
impl CoreQuery {
    /// The id it was given.
    async fn echo(&self, id: CoreId) -> CoreId {
        id
    }

    /// The creation second of `id`.
    async fn timestamp(&self, id: CoreId) -> u32 {
        id.timestamp()
    }

    /// Some ids.
    async fn ids(&self, ids: Vec<CoreId>) -> Vec<CoreId> {
        ids.into_iter().rev().collect()
    }
}

struct BsonQuery;

#[Object]
impl BsonQuery {
    /// The id it was given.
    async fn echo(&self, id: BsonId) -> BsonId {
        id
    }

    /// An optional id.
    async fn maybe(&self, id: Option<BsonId>) -> Option<BsonId> {
        id
    }
}

fn run<Q: async_graphql::ObjectType + 'static>(
    schema: &Schema<Q, EmptyMutation, EmptySubscription>,
    request: impl Into<Request>,
) -> async_graphql::Response {
    futures_executor::block_on(schema.execute(request))
}

fn data(response: async_graphql::Response) -> serde_json::Value {
    assert!(response.errors.is_empty(), "{:?}", response.errors);
    response.data.into_json().expect("data as JSON")
}

fn error(response: async_graphql::Response) -> String {
    assert_eq!(response.errors.len(), 1, "{:?}", response.errors);
    response.errors[0].message.clone()
}

#[test]
fn core_scalar_in_a_schema() {
    let schema = Schema::new(CoreQuery, EmptyMutation, EmptySubscription);
    assert!(schema.sdl().contains("scalar ObjectId"), "{}", schema.sdl());
    // The description `#[Scalar]` registers from the impl's doc attribute, on one line.
    assert!(schema.sdl().contains(DESCRIPTION), "{}", schema.sdl());

    let out = data(run(
        &schema,
        r#"{ echo(id: "507F1F77BCF86CD799439011") timestamp(id: "507f1f77bcf86cd799439011") }"#,
    ));
    assert_eq!(
        out,
        json!({"echo": "507f1f77bcf86cd799439011", "timestamp": 1_350_508_407})
    );

    let request = Request::new("query($ids: [ObjectId!]!) { ids(ids: $ids) }").variables(
        Variables::from_json(
            json!({"ids": ["000000000000000000000001", "ABCDEFABCDEFABCDEFABCDEF"]}),
        ),
    );
    assert_eq!(
        data(run(&schema, request)),
        json!({"ids": ["abcdefabcdefabcdefabcdef", "000000000000000000000001"]})
    );
}

#[test]
fn bad_input_is_a_graphql_error_not_a_panic() {
    let schema = Schema::new(CoreQuery, EmptyMutation, EmptySubscription);
    let msg = error(run(&schema, r#"{ echo(id: "507f1f77bcf86cd79943901g") }"#));
    assert!(msg.contains("ObjectId"), "{msg}");
    assert_eq!(
        msg,
        r#"Failed to parse "ObjectId": invalid character 'g' at index 23: expected a hex digit"#
    );

    let msg = error(run(&schema, r#"{ echo(id: "507f") }"#));
    assert!(
        msg.contains("invalid length: expected 24 hex characters, found 4"),
        "{msg}"
    );

    let msg = error(run(&schema, r#"{ echo(id: 12) }"#));
    assert!(msg.contains("ObjectId"), "{msg}");

    let request = Request::new("query($id: ObjectId!) { echo(id: $id) }")
        .variables(Variables::from_json(json!({"id": "not an id"})));
    let msg = error(run(&schema, request));
    assert!(msg.contains("invalid"), "{msg}");
}

#[test]
fn bson_scalar_in_a_schema() {
    let schema = Schema::new(BsonQuery, EmptyMutation, EmptySubscription);
    assert!(schema.sdl().contains("scalar ObjectId"), "{}", schema.sdl());
    // The description `#[Scalar]` registers from the impl's doc attribute, on one line.
    assert!(schema.sdl().contains(DESCRIPTION), "{}", schema.sdl());
    let out = data(run(
        &schema,
        r#"{ echo(id: "507F1F77BCF86CD799439011") maybe }"#,
    ));
    assert_eq!(
        out,
        json!({"echo": "507f1f77bcf86cd799439011", "maybe": null})
    );
    let msg = error(run(&schema, r#"{ maybe(id: "zz") }"#));
    assert!(msg.contains("invalid length"), "{msg}");
}
