//! schemars and utoipa: the generated schemas, checked as JSON by the `jsonschema` validator,
//! accept real ids (and the JSON our serde impls write) and reject bad ones, alone and as a
//! field of a derived struct, for oid-core's and oid-bson's types.

#![allow(
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers outside #[test] fns: a failure there is a test failure"
)]

use jsonschema::Validator;
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::{OpenApi, PartialSchema, ToSchema};

type CoreId = oid_core::ObjectId;
type BsonId = oid_bson::ObjectId;

const GOOD: &[&str] = &[
    "507f1f77bcf86cd799439011",
    "507F1F77BCF86CD799439011",
    "000000000000000000000000",
    "ffffffffffffffffffffffff",
];

const BAD: &[&str] = &[
    "",
    "507f1f77bcf86cd79943901",   // 23 digits
    "507f1f77bcf86cd7994390111", // 25 digits
    "507f1f77bcf86cd79943901g",
    " 507f1f77bcf86cd799439011",
    "507f1f77bcf86cd799439011\n",
    "0x507f1f77bcf86cd7994390",
];

fn validator(schema: &Value) -> Validator {
    jsonschema::validator_for(schema)
        .unwrap_or_else(|e| panic!("not a valid schema: {e}\n{schema:#}"))
}

/// The schema must agree with `parse_str` on every sample: no id rejected, no bad string let in.
fn check_id_schema(schema: &Value) {
    let v = validator(schema);
    for s in GOOD {
        assert!(CoreId::parse_str(s).is_ok());
        assert!(v.is_valid(&json!(s)), "{s:?} rejected by {schema:#}");
    }
    for s in BAD {
        assert!(CoreId::parse_str(s).is_err());
        assert!(!v.is_valid(&json!(s)), "{s:?} accepted by {schema:#}");
    }
    for not_a_string in [
        json!(12),
        json!(null),
        json!({"$oid": GOOD[0]}),
        json!([1, 2]),
    ] {
        assert!(!v.is_valid(&not_a_string), "{not_a_string} accepted");
    }
    // What serde writes for real ids validates.
    for i in 0..50u8 {
        let id = CoreId::from_bytes([i.wrapping_mul(37); 12]);
        assert!(v.is_valid(&serde_json::to_value(id).expect("to JSON")));
        assert!(v.is_valid(&serde_json::to_value(BsonId::from(id)).expect("to JSON")));
    }
}

#[derive(Serialize, schemars::JsonSchema, ToSchema)]
struct User {
    id: CoreId,
    owner: Option<BsonId>,
    name: String,
}

fn users(v: &Validator) {
    let user = User {
        id: oid_std::new(),
        owner: Some(oid_bson::ObjectId::new()),
        name: "ada".into(),
    };
    let written = serde_json::to_value(&user).expect("to JSON");
    assert!(v.is_valid(&written), "{written}");
    assert!(v.is_valid(&json!({"id": GOOD[1], "owner": null, "name": "x"})));
    for bad in BAD {
        assert!(
            !v.is_valid(&json!({"id": bad, "owner": null, "name": "x"})),
            "{bad:?}"
        );
        assert!(
            !v.is_valid(&json!({"id": GOOD[0], "owner": bad, "name": "x"})),
            "{bad:?}"
        );
    }
}

#[test]
fn schemars_id_schema() {
    for schema in [schemars::schema_for!(CoreId), schemars::schema_for!(BsonId)] {
        let schema = schema.to_value();
        assert_eq!(schema["type"], "string");
        assert_eq!(schema["pattern"], "^[0-9a-fA-F]{24}$");
        assert!(
            schema["description"]
                .as_str()
                .is_some_and(|d| !d.is_empty())
        );
        check_id_schema(&schema);
    }
}

#[test]
fn schemars_struct_with_an_id_field() {
    let schema = schemars::schema_for!(User).to_value();
    assert_eq!(schema["properties"]["id"]["pattern"], "^[0-9a-fA-F]{24}$");
    users(&validator(&schema));
}

#[test]
fn utoipa_id_schema() {
    assert_eq!(CoreId::name(), "ObjectId");
    assert_eq!(BsonId::name(), "ObjectId");
    for schema in [CoreId::schema(), BsonId::schema()] {
        let schema = serde_json::to_value(schema).expect("to JSON");
        assert_eq!(schema["type"], "string");
        assert_eq!(schema["pattern"], "^[0-9a-fA-F]{24}$");
        let example = schema["examples"][0].as_str().expect("an example");
        assert!(CoreId::parse_str(example).is_ok());
        check_id_schema(&schema);
    }
}

#[derive(OpenApi)]
#[openapi(components(schemas(User)))]
struct Api;

#[test]
fn utoipa_struct_with_an_id_field_in_an_openapi_document() {
    let doc = serde_json::to_value(Api::openapi()).expect("to JSON");
    let schemas = &doc["components"]["schemas"];
    // The id is a named component, referenced from the struct.
    assert_eq!(
        schemas["ObjectId"]["pattern"], "^[0-9a-fA-F]{24}$",
        "{doc:#}"
    );
    assert_eq!(
        schemas["User"]["properties"]["id"]["$ref"],
        "#/components/schemas/ObjectId"
    );
    // Validate against the User schema with the document's components in scope.
    let root = json!({
        "$ref": "#/components/schemas/User",
        "components": doc["components"],
    });
    users(&validator(&root));
}
