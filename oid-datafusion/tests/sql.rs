//! SQL-level behaviour: type coercion (extension column, FixedSizeBinary, binary, text kinds),
//! clear errors without a panic (wrong types, wrong arity, invalid literals), and printing.
// Test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{column, ctx, error, id_table, sample_ids, with_nulls};
use oid_std::ObjectId;

const ID: &str = "65a1b2c3d4e5f60718293a4b";

#[tokio::test]
async fn scalars_of_every_text_and_binary_kind() {
    let ctx = ctx();
    for arg in [
        format!("'{ID}'"),
        format!("'{}'", ID.to_uppercase()),
        format!("arrow_cast('{ID}', 'LargeUtf8')"),
        format!("arrow_cast('{ID}', 'Utf8View')"),
        format!("decode('{ID}', 'hex')"),
        format!("arrow_cast(decode('{ID}', 'hex'), 'FixedSizeBinary(12)')"),
        format!("objectid('{ID}')"),
    ] {
        let got = column(&ctx, &format!("SELECT objectid_hex({arg})")).await;
        assert_eq!(got, [ID], "{arg}");
    }
    let t = ObjectId::parse_str(ID).unwrap().rfc3339();
    assert_eq!(
        column(&ctx, &format!("SELECT objectid_timestamp('{ID}')")).await,
        [t.as_str()]
    );
    assert_eq!(column(&ctx, "SELECT objectid_hex(NULL)").await, ["NULL"]);
    assert_eq!(column(&ctx, "SELECT try_objectid('nope')").await, ["NULL"]);
    assert_eq!(
        column(&ctx, "SELECT objectid_is_valid('nope')").await,
        ["false"]
    );
}

#[tokio::test]
async fn the_return_types() {
    let ctx = ctx();
    let got = column(
        &ctx,
        &format!(
            "SELECT arrow_typeof(objectid('{ID}')) UNION ALL SELECT arrow_typeof(objectid_timestamp('{ID}')) \
             UNION ALL SELECT arrow_typeof(objectid_random('{ID}')) UNION ALL SELECT arrow_typeof(objectid_counter('{ID}')) \
             UNION ALL SELECT arrow_typeof(objectid_hex('{ID}')) UNION ALL SELECT arrow_typeof(objectid_is_valid('{ID}'))"
        ),
    )
    .await;
    let mut got = got;
    got.sort();
    let mut want = [
        "FixedSizeBinary(12)",
        "Timestamp(s, \"UTC\")",
        "FixedSizeBinary(5)",
        "UInt32",
        "Utf8",
        "Boolean",
    ];
    want.sort();
    assert_eq!(got, want);
}

#[tokio::test]
async fn wrong_types_and_arity_are_plan_errors() {
    let ctx = ctx();
    id_table(&ctx, &with_nulls(&sample_ids()));
    let cases = [
        (
            "SELECT objectid_timestamp(1)",
            "objectid_timestamp takes an ObjectId",
        ),
        ("SELECT objectid_hex(1.5)", "objectid_hex takes an ObjectId"),
        (
            "SELECT objectid_counter(TRUE)",
            "objectid_counter takes an ObjectId",
        ),
        (
            "SELECT objectid_random(arrow_cast('x', 'FixedSizeBinary(1)'))",
            "objectid_random takes an ObjectId",
        ),
        (
            "SELECT objectid_is_valid(id) FROM t",
            "objectid_is_valid takes text, got FixedSizeBinary(12)",
        ),
        (
            "SELECT timestamp_objectid(id) FROM t",
            "timestamp_objectid takes a time",
        ),
        ("SELECT objectid_hex()", "objectid_hex takes one argument"),
        (
            "SELECT objectid_hex(id, id) FROM t",
            "objectid_hex takes one argument",
        ),
        ("SELECT objectid_new(1)", "objectid_new"),
    ];
    for (sql, want) in cases {
        let e = error(&ctx, sql).await;
        assert!(e.contains(want), "{sql}: {e}");
    }
}

#[tokio::test]
async fn invalid_literals_name_the_value() {
    let ctx = ctx();
    for (sql, want) in [
        ("SELECT objectid('zz')", "objectid: invalid ObjectId \"zz\""),
        (
            "SELECT objectid_timestamp('65a1b2c3d4e5f60718293a4')",
            "objectid_timestamp: invalid ObjectId \"65a1b2c3d4e5f60718293a4\"",
        ),
        (
            "SELECT objectid_hex(decode('00ff', 'hex'))",
            "FixedSizeBinary",
        ),
    ] {
        let e = error(&ctx, sql).await;
        assert!(e.contains(want), "{sql}: {e}");
    }
}

#[tokio::test]
async fn an_id_column_prints_as_hex() {
    let ctx = ctx();
    let ids = sample_ids();
    id_table(
        &ctx,
        &ids.iter().take(3).copied().map(Some).collect::<Vec<_>>(),
    );
    let out = ctx
        .sql("SELECT id, objectid('65A1B2C3D4E5F60718293A4B') AS parsed FROM t")
        .await
        .unwrap();
    let fields: Vec<_> = out
        .schema()
        .fields()
        .iter()
        .map(|f| f.extension_type_name().map(str::to_owned))
        .collect();
    assert_eq!(
        fields,
        vec![Some(oid_datafusion::OBJECTID_EXTENSION_NAME.to_owned()); 2]
    );
    let text = out.to_string().await.unwrap();
    for id in ids.iter().take(3) {
        assert!(text.contains(id.to_hex().as_str()), "{text}");
    }
    assert!(text.contains(ID), "{text}");
}

#[test]
fn the_registered_formatter_writes_hex_and_the_null_text() {
    use datafusion::arrow::array::FixedSizeBinaryArray;
    use datafusion::arrow::util::display::FormatOptions;
    let id = ObjectId::parse_str(ID).unwrap();
    let array = FixedSizeBinaryArray::try_from_sparse_iter_with_size(
        [Some(id.bytes()), None].into_iter(),
        12,
    )
    .unwrap();
    let options = FormatOptions::default().with_null("∅");
    let ext = oid_datafusion::objectid_registration()
        .create_df_extension_type(&oid_datafusion::objectid_type(), Some(""))
        .unwrap();
    let f = ext
        .create_array_formatter(&array, &options)
        .unwrap()
        .unwrap();
    assert_eq!(f.value(0).to_string(), ID);
    assert_eq!(f.value(1).to_string(), "∅");
    let bad = oid_datafusion::objectid_registration().create_df_extension_type(
        &datafusion::arrow::datatypes::DataType::FixedSizeBinary(16),
        None,
    );
    assert!(
        bad.unwrap_err()
            .to_string()
            .contains("FixedSizeBinary(12), not FixedSizeBinary(16)")
    );
}
