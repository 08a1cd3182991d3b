//! juniper: a schema whose query takes and returns `ObjectId` (oid-core's, also through oid-std,
//! and oid-bson's),
//! executed with a good id (any case in, lowercase out, as an argument literal and as a variable)
//! and with bad ones (a GraphQL error naming the parse error, not a panic).

#![allow(
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers outside #[test] fns: a failure there is a test failure"
)]

use juniper::{
    DefaultScalarValue, EmptyMutation, EmptySubscription, ExecutionError, GraphQLError,
    GraphQLObject, InputValue, RootNode, Value, Variables, graphql_object, graphql_value,
};

type CoreId = oid_core::ObjectId;

/// An order, with an id field.
#[derive(GraphQLObject)]
struct Order {
    id: CoreId,
    parent: Option<CoreId>,
    items: Vec<oid_std::ObjectId>,
}

struct Query;

#[graphql_object]
impl Query {
    /// The order with this id (made up from it).
    fn order(id: CoreId, items: Option<Vec<CoreId>>) -> Order {
        Order {
            id,
            parent: None,
            items: items.unwrap_or_default(),
        }
    }

    /// The creation second of `id`.
    fn timestamp(id: CoreId) -> f64 {
        f64::from(id.timestamp())
    }
}

/// The same query over oid-bson's `ObjectId` (a schema has one of the two: both are `ObjectID`).
struct BsonQuery;

#[graphql_object]
impl BsonQuery {
    /// The id it was given, and an optional one.
    fn echo(id: oid_bson::ObjectId, other: Option<oid_bson::ObjectId>) -> Vec<oid_bson::ObjectId> {
        std::iter::once(id).chain(other).collect()
    }
}

type Schema = RootNode<Query, EmptyMutation<()>, EmptySubscription<()>>;

fn schema() -> Schema {
    Schema::new(Query, EmptyMutation::new(), EmptySubscription::new())
}

fn run(
    query: &str,
    vars: &Variables,
) -> Result<(Value, Vec<ExecutionError<DefaultScalarValue>>), GraphQLError> {
    juniper::execute_sync(query, None, &schema(), vars, &())
}

#[test]
fn a_good_id_in_any_case_comes_back_lowercase() {
    let (data, errors) = run(
        r#"{ order(id: "507F1F77BCF86CD799439011", items: ["65A0000000000000000000FF"]) { id parent items } timestamp(id: "507f1f77bcf86cd799439011") }"#,
        &Variables::new(),
    )
    .expect("a valid query");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        data,
        graphql_value!({
            "order": {
                "id": "507f1f77bcf86cd799439011",
                "parent": None,
                "items": ["65a0000000000000000000ff"],
            },
            "timestamp": 1_350_508_407.0,
        })
    );

    // As a variable of type ObjectID!.
    let mut vars = Variables::new();
    vars.insert(
        "id".to_owned(),
        InputValue::scalar("6553F1003F2A91C8D4003039"),
    );
    let (data, errors) =
        run("query Q($id: ObjectID!) { order(id: $id) { id } }", &vars).expect("a valid query");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        data,
        graphql_value!({ "order": { "id": "6553f1003f2a91c8d4003039" } })
    );
}

#[test]
fn a_bad_id_is_a_graphql_error_with_the_parse_message() {
    // A literal: rejected while validating the query, before anything runs.
    let err = run(
        r#"{ timestamp(id: "507f1f77bcf86cd79943901g") }"#,
        &Variables::new(),
    )
    .expect_err("an invalid literal fails validation");
    let GraphQLError::ValidationError(errors) = &err else {
        panic!("expected a validation error, got {err:?}");
    };
    assert!(!errors.is_empty());

    // A variable: the parse error's message reaches the client.
    for (bad, message) in [
        (
            "507f1f77bcf86cd79943901g",
            "invalid character 'g' at index 23: expected a hex digit",
        ),
        (
            "507f",
            "invalid length: expected 24 hex characters, found 4",
        ),
    ] {
        let mut vars = Variables::new();
        vars.insert("id".to_owned(), InputValue::scalar(bad));
        let err = run("query Q($id: ObjectID!) { order(id: $id) { id } }", &vars)
            .expect_err("a bad variable fails");
        let text = format!("{err:?}");
        assert!(text.contains("Failed to parse `ObjectID`"), "{text}");
        assert!(text.contains(message), "{text}");
    }

    // Not a string at all.
    let mut vars = Variables::new();
    vars.insert("id".to_owned(), InputValue::scalar(12));
    assert!(run("query Q($id: ObjectID!) { order(id: $id) { id } }", &vars).is_err());
}

#[test]
fn the_schema_declares_the_scalar_as_juniper_bson_does() {
    let (data, errors) = run(
        r#"{ __type(name: "ObjectID") { name kind specifiedByURL } }"#,
        &Variables::new(),
    )
    .expect("a valid query");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        data,
        graphql_value!({
            "__type": {
                "name": "ObjectID",
                "kind": "SCALAR",
                "specifiedByURL": "https://graphql-scalars.dev/docs/scalars/object-id",
            }
        })
    );
}

#[test]
fn oid_bson_ids_are_the_same_scalar() {
    let schema = RootNode::new(
        BsonQuery,
        EmptyMutation::<()>::new(),
        EmptySubscription::<()>::new(),
    );
    let (data, errors) = juniper::execute_sync(
        r#"{ echo(id: "507F1F77BCF86CD799439011", other: "65a0000000000000000000ff") }"#,
        None,
        &schema,
        &Variables::new(),
        &(),
    )
    .expect("a valid query");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        data,
        graphql_value!({ "echo": ["507f1f77bcf86cd799439011", "65a0000000000000000000ff"] })
    );
    // The same declaration as oid-core's scalar: name, kind, URL and description.
    let introspect = r#"{ __type(name: "ObjectID") { name kind specifiedByURL description } }"#;
    let (bson_type, errors) =
        juniper::execute_sync(introspect, None, &schema, &Variables::new(), &())
            .expect("a valid query");
    assert!(errors.is_empty(), "{errors:?}");
    let (core_type, _) = run(introspect, &Variables::new()).expect("a valid query");
    assert_eq!(bson_type, core_type);
    assert!(
        format!("{bson_type:?}").contains("graphql-scalars.dev"),
        "{bson_type:?}"
    );
    let mut vars = Variables::new();
    vars.insert("id".to_owned(), InputValue::scalar("nope"));
    let err = juniper::execute_sync(
        "query Q($id: ObjectID!) { echo(id: $id) }",
        None,
        &schema,
        &vars,
        &(),
    )
    .expect_err("a bad variable fails");
    let text = format!("{err:?}");
    assert!(
        text.contains(
            "Failed to parse `ObjectID`: invalid length: expected 24 hex characters, found 4"
        ),
        "{text}"
    );
}
