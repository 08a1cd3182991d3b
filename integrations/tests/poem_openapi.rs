//! poem-openapi: an API with `ObjectId` (oid-core's, also through oid-std, and oid-bson's) in a
//! path parameter, a
//! query parameter, a JSON request body and a JSON response: the generated OpenAPI document
//! gives each the string schema with the 24-hex pattern, and requests with a good id (any case
//! in, lowercase out) and with bad ones (400, the parse error's message) are served by poem.

#![allow(
    clippy::expect_used,
    clippy::unused_async,
    reason = "test helpers outside #[test] fns; poem-openapi handlers are async"
)]

use oid_core::ObjectId;
use poem::http::StatusCode;
use poem::test::TestClient;
use poem_openapi::param::{Path, Query};
use poem_openapi::payload::Json;
use poem_openapi::{Object, OpenApi, OpenApiService};
use serde_json::{Value, json};

/// An order.
#[derive(Object)]
struct Order {
    id: ObjectId,
    parent: Option<oid_std::ObjectId>,
    items: Vec<ObjectId>,
    customer: Option<oid_bson::ObjectId>,
}

struct Api;

#[OpenApi]
impl Api {
    /// The order with this id, its items replaced by the body's and its parent by `parent`.
    #[oai(path = "/orders/:id", method = "put")]
    async fn put(
        &self,
        id: Path<ObjectId>,
        parent: Query<Option<ObjectId>>,
        body: Json<Order>,
    ) -> Json<Order> {
        Json(Order {
            id: id.0,
            parent: parent.0,
            items: body.0.items,
            customer: body.0.customer,
        })
    }
}

fn service() -> OpenApiService<Api, ()> {
    OpenApiService::new(Api, "orders", "1.0")
}

#[test]
fn the_document_has_the_string_schema_with_the_pattern() {
    let spec: Value = serde_json::from_str(&service().spec()).expect("a JSON document");
    let expected = json!({
        "type": "string",
        "format": "oid",
        "pattern": "^[0-9a-fA-F]{24}$",
        "description": "A MongoDB ObjectId: 24 hexadecimal digits (12 bytes), written in lowercase.",
        "example": "507f1f77bcf86cd799439011",
    });
    let put = &spec["paths"]["/orders/{id}"]["put"];
    assert_eq!(put["parameters"][0]["name"], "id");
    assert_eq!(put["parameters"][0]["in"], "path");
    assert_eq!(put["parameters"][0]["schema"], expected);
    assert_eq!(put["parameters"][1]["in"], "query");
    assert_eq!(put["parameters"][1]["schema"], expected);
    let order = &spec["components"]["schemas"]["Order"];
    assert_eq!(order["properties"]["id"], expected, "{order}");
    assert_eq!(order["properties"]["parent"], expected, "{order}");
    assert_eq!(order["properties"]["items"]["items"], expected, "{order}");
    assert_eq!(order["properties"]["customer"], expected, "{order}");
    assert_eq!(order["required"], json!(["id", "items"]));
}

#[tokio::test(flavor = "current_thread")]
async fn requests_with_good_and_bad_ids() {
    let client = TestClient::new(poem::Route::new().nest("/", service()));

    let response = client
        .put("/orders/507F1F77BCF86CD799439011")
        .query("parent", &"65a0000000000000000000ff")
        .body_json(
            &json!({ "id": "65a0000000000000000000ff", "items": ["6553F1003F2A91C8D4003039"], "customer": "507F1F77BCF86CD799439011" }),
        )
        .send()
        .await;
    response.assert_status_is_ok();
    response
        .assert_json(json!({
            "id": "507f1f77bcf86cd799439011",
            "parent": "65a0000000000000000000ff",
            "items": ["6553f1003f2a91c8d4003039"],
            "customer": "507f1f77bcf86cd799439011",
        }))
        .await;

    // A bad path parameter, a bad query parameter, a bad id in the body: 400, with the message.
    for (path, query, body, message) in [
        (
            "/orders/507f",
            None,
            json!({ "id": "65a0000000000000000000ff", "items": [] }),
            "invalid length: expected 24 hex characters, found 4",
        ),
        (
            "/orders/507f1f77bcf86cd799439011",
            Some("507f1f77bcf86cd79943901g"),
            json!({ "id": "65a0000000000000000000ff", "items": [] }),
            "invalid character 'g' at index 23",
        ),
        (
            "/orders/507f1f77bcf86cd799439011",
            None,
            json!({ "id": 12, "items": [] }),
            "Expected input type \"string_oid\", found 12",
        ),
        (
            "/orders/507f1f77bcf86cd799439011",
            None,
            json!({ "id": "65a0000000000000000000ff", "items": ["nope"] }),
            "invalid length: expected 24 hex characters, found 4",
        ),
        (
            "/orders/507f1f77bcf86cd799439011",
            None,
            json!({ "id": "65a0000000000000000000ff", "items": [], "customer": "507f1f77bcf86cd79943901g" }),
            "invalid character 'g' at index 23",
        ),
    ] {
        let mut request = client.put(path).body_json(&body);
        if let Some(q) = query {
            request = request.query("parent", &q);
        }
        let response = request.send().await;
        response.assert_status(StatusCode::BAD_REQUEST);
        let text = response
            .0
            .into_body()
            .into_string()
            .await
            .expect("a text body");
        assert!(text.contains(message), "{path} {query:?} {body}: {text}");
    }
}
