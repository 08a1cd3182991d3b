//! The scalar functions: one implementation of `ScalarUDFImpl`, one [`Kind`] per SQL name.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

use arrow::array::{Array, ArrayRef, AsArray};
use arrow::datatypes::{DataType, Field, FieldRef, TimeUnit};
use datafusion_common::{
    DataFusionError, Result, ScalarValue, exec_datafusion_err, exec_err, plan_err,
};
use datafusion_expr::interval_arithmetic::Interval;
use datafusion_expr::preimage::PreimageResult;
use datafusion_expr::simplify::SimplifyContext;
use datafusion_expr::{
    ColumnarValue, DocSection, Documentation, Expr, ExprSchemable, ReturnFieldArgs,
    ScalarFunctionArgs, ScalarUDFImpl, Signature, Volatility,
};
use oid_arrow::ObjectIdArray;
use oid_std::ObjectId;

use crate::extension::{objectid_field_metadata, objectid_type};
use crate::kernels;

/// Which function a [`OidFunction`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    ObjectId,
    TryObjectId,
    Timestamp,
    TimestampObjectId,
    MaxForTime,
    Hex,
    Random,
    Counter,
    IsValid,
    New,
}

/// What a function reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Input {
    /// An id: the extension column, FixedSizeBinary(12), 12-byte binary or 24-digit hex text.
    Id,
    /// Text only.
    Text,
    /// A point in time (timestamps, dates, text, whole seconds).
    Time,
    /// Nothing.
    None,
}

impl Kind {
    pub(crate) const ALL: [Kind; 10] = [
        Kind::ObjectId,
        Kind::TryObjectId,
        Kind::Timestamp,
        Kind::TimestampObjectId,
        Kind::MaxForTime,
        Kind::Hex,
        Kind::Random,
        Kind::Counter,
        Kind::IsValid,
        Kind::New,
    ];

    const fn name(self) -> &'static str {
        match self {
            Kind::ObjectId => "objectid",
            Kind::TryObjectId => "try_objectid",
            Kind::Timestamp => "objectid_timestamp",
            Kind::TimestampObjectId => "timestamp_objectid",
            Kind::MaxForTime => "objectid_max_for_time",
            Kind::Hex => "objectid_hex",
            Kind::Random => "objectid_random",
            Kind::Counter => "objectid_counter",
            Kind::IsValid => "objectid_is_valid",
            Kind::New => "objectid_new",
        }
    }

    const fn input(self) -> Input {
        match self {
            Kind::ObjectId | Kind::TryObjectId => Input::Id,
            Kind::Timestamp | Kind::Hex | Kind::Random | Kind::Counter => Input::Id,
            Kind::TimestampObjectId | Kind::MaxForTime => Input::Time,
            Kind::IsValid => Input::Text,
            Kind::New => Input::None,
        }
    }

    fn return_type(self) -> DataType {
        match self {
            Kind::ObjectId
            | Kind::TryObjectId
            | Kind::TimestampObjectId
            | Kind::MaxForTime
            | Kind::New => objectid_type(),
            Kind::Timestamp => timestamp_type(),
            Kind::Hex => DataType::Utf8,
            Kind::Random => DataType::FixedSizeBinary(5),
            Kind::Counter => DataType::UInt32,
            Kind::IsValid => DataType::Boolean,
        }
    }

    const fn returns_id(self) -> bool {
        matches!(
            self,
            Kind::ObjectId
                | Kind::TryObjectId
                | Kind::TimestampObjectId
                | Kind::MaxForTime
                | Kind::New
        )
    }
}

/// `Timestamp(Second, "UTC")`, what `objectid_timestamp` returns.
fn timestamp_type() -> DataType {
    DataType::Timestamp(TimeUnit::Second, Some("UTC".into()))
}

/// One of oid's SQL functions (see [`crate::functions`]).
#[derive(Debug, PartialEq, Eq, Hash)]
pub(crate) struct OidFunction {
    kind: Kind,
    signature: Signature,
}

impl OidFunction {
    pub(crate) fn new(kind: Kind) -> OidFunction {
        let volatility = if kind == Kind::New {
            Volatility::Volatile
        } else {
            Volatility::Immutable
        };
        let signature = if kind == Kind::New {
            Signature::nullary(volatility)
        } else {
            Signature::user_defined(volatility)
        };
        OidFunction { kind, signature }
    }

    fn err_prefix<E: std::fmt::Display>(&self) -> impl Fn(E) -> DataFusionError + '_ {
        move |e| DataFusionError::Execution(format!("{}: {e}", self.kind.name()))
    }

    /// The argument as ids: FixedSizeBinary(12) as it is, hex text parsed (strictly, or
    /// leniently for `try_objectid`).
    fn ids(&self, array: &ArrayRef) -> Result<ObjectIdArray> {
        match array.data_type() {
            DataType::FixedSizeBinary(12) => {
                kernels::ids(array.as_fixed_size_binary()).map_err(self.err_prefix())
            }
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View => {
                kernels::parse(array.as_ref(), self.kind == Kind::TryObjectId)
                    .map_err(self.err_prefix())
            }
            other => exec_err!(
                "{}: unexpected argument type {other} after coercion",
                self.kind.name()
            ),
        }
    }

    fn compute(&self, args: &[ArrayRef], rows: usize) -> Result<ArrayRef> {
        let kind = self.kind;
        let arg = || {
            args.first()
                .ok_or_else(|| exec_datafusion_err!("{}: no argument", kind.name()))
        };
        Ok(match kind {
            Kind::New => {
                let ids: ObjectIdArray = (0..rows).map(|_| oid_std::new()).collect();
                ArrayRef::from(ids)
            }
            Kind::ObjectId | Kind::TryObjectId => ArrayRef::from(self.ids(arg()?)?),
            Kind::Timestamp => Arc::new(kernels::timestamp(&self.ids(arg()?)?)),
            Kind::Hex => Arc::new(kernels::to_hex(&self.ids(arg()?)?).map_err(self.err_prefix())?),
            Kind::Random => Arc::new(kernels::random(&self.ids(arg()?)?)),
            Kind::Counter => Arc::new(kernels::counter(&self.ids(arg()?)?)),
            Kind::IsValid => {
                Arc::new(kernels::is_valid(arg()?.as_ref()).map_err(self.err_prefix())?)
            }
            Kind::TimestampObjectId | Kind::MaxForTime => ArrayRef::from(
                kernels::for_time(arg()?.as_ref(), kind == Kind::MaxForTime)
                    .map_err(self.err_prefix())?,
            ),
        })
    }
}

impl ScalarUDFImpl for OidFunction {
    fn name(&self) -> &str {
        self.kind.name()
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(self.kind.return_type())
    }

    fn return_field_from_args(&self, args: ReturnFieldArgs<'_>) -> Result<FieldRef> {
        let nullable = match self.kind {
            Kind::New => false,
            Kind::TryObjectId => true,
            _ => args.arg_fields.iter().any(|f| f.is_nullable()),
        };
        let field = Field::new(self.kind.name(), self.kind.return_type(), nullable);
        let field = if self.kind.returns_id() {
            field.with_metadata(objectid_field_metadata())
        } else {
            field
        };
        Ok(Arc::new(field))
    }

    fn coerce_types(&self, arg_types: &[DataType]) -> Result<Vec<DataType>> {
        let name = self.kind.name();
        let input = self.kind.input();
        let [arg] = arg_types else {
            return plan_err!(
                "{name} takes one argument ({}), got {}",
                describe(input),
                arg_types.len()
            );
        };
        let target = match (input, arg) {
            (
                Input::Id,
                DataType::FixedSizeBinary(12) | DataType::Binary | DataType::LargeBinary,
            ) => DataType::FixedSizeBinary(12),
            // oid-arrow's kernels read the three text layouts as they are (no copy), and
            // timestamps of any unit and zone.
            (
                Input::Id | Input::Text,
                DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View,
            )
            | (Input::Time, DataType::Timestamp(_, _)) => arg.clone(),
            (Input::Id, DataType::Null) => DataType::FixedSizeBinary(12),
            (Input::Text, DataType::Null) => DataType::Utf8,
            (
                Input::Time,
                DataType::Date32
                | DataType::Date64
                | DataType::Null
                | DataType::Utf8
                | DataType::LargeUtf8
                | DataType::Utf8View
                | DataType::Int64
                | DataType::Int32
                | DataType::UInt32,
            ) => timestamp_type(),
            (_, other) => {
                return plan_err!("{name} takes {}, got {other}", describe(input));
            }
        };
        Ok(vec![target])
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let scalar = !args.args.is_empty()
            && args
                .args
                .iter()
                .all(|a| matches!(a, ColumnarValue::Scalar(_)));
        let rows = if scalar { 1 } else { args.number_rows };
        let arrays = args
            .args
            .iter()
            .map(|a| a.to_array(rows))
            .collect::<Result<Vec<_>>>()?;
        let out = self.compute(&arrays, rows)?;
        if scalar {
            Ok(ColumnarValue::Scalar(ScalarValue::try_from_array(&out, 0)?))
        } else {
            Ok(ColumnarValue::Array(out))
        }
    }

    fn preimage(
        &self,
        args: &[Expr],
        lit_expr: &Expr,
        info: &SimplifyContext,
    ) -> Result<PreimageResult> {
        if self.kind != Kind::Timestamp {
            return Ok(PreimageResult::None);
        }
        let [arg] = args else {
            return Ok(PreimageResult::None);
        };
        // Only an id column has an id range; text ids compare as text.
        if arg.get_type(info.schema().as_ref()).ok() != Some(DataType::FixedSizeBinary(12)) {
            return Ok(PreimageResult::None);
        }
        let Some((lower, upper)) = second_preimage(lit_expr) else {
            return Ok(PreimageResult::None);
        };
        let bound = |id: ObjectId| ScalarValue::FixedSizeBinary(12, Some(id.bytes().to_vec()));
        let interval = Interval::try_new(bound(lower), bound(upper))?;
        Ok(PreimageResult::Range {
            expr: arg.clone(),
            interval: Box::new(interval),
        })
    }

    fn documentation(&self) -> Option<&Documentation> {
        DOCS.get(&self.kind)
    }
}

/// The ids whose `objectid_timestamp` equals the literal: `[lower, upper)`, as the preimage
/// rewrite wants it. A literal between two whole seconds has an empty preimage at the next second
/// (`f(x) >= 1.5` is `f(x) >= 2`). `None` when the literal is not a time or lies outside the
/// ids' seconds (then the comparison is left as it is).
fn second_preimage(lit_expr: &Expr) -> Option<(ObjectId, ObjectId)> {
    let value = match lit_expr {
        Expr::Literal(v, _) => v.clone(),
        Expr::Cast(c) => match c.expr.as_ref() {
            Expr::Literal(v, _) => v.cast_to(&c.field.data_type().clone()).ok()?,
            _ => return None,
        },
        _ => return None,
    };
    let (value, per_second) = match value {
        ScalarValue::TimestampSecond(Some(v), _) => (v, 1),
        ScalarValue::TimestampMillisecond(Some(v), _) => (v, 1_000),
        ScalarValue::TimestampMicrosecond(Some(v), _) => (v, 1_000_000),
        ScalarValue::TimestampNanosecond(Some(v), _) => (v, 1_000_000_000),
        _ => return None,
    };
    let whole = value.rem_euclid(per_second) == 0;
    let ceil = value.div_euclid(per_second) + i64::from(!whole);
    let lower = u32::try_from(ceil).ok()?;
    if whole {
        let next = u32::try_from(ceil + 1).ok()?;
        Some((
            ObjectId::min_for_timestamp(lower),
            ObjectId::min_for_timestamp(next),
        ))
    } else {
        let id = ObjectId::min_for_timestamp(lower);
        Some((id, id))
    }
}

const fn describe(input: Input) -> &'static str {
    match input {
        Input::Id => {
            "an ObjectId: the pymongoarrow.objectid column, FixedSizeBinary(12) or 24-digit hex text"
        }
        Input::Text => "text",
        Input::Time => "a time: a timestamp, a date, RFC 3339 text or whole seconds since 1970",
        Input::None => "no argument",
    }
}

static DOCS: LazyLock<HashMap<Kind, Documentation>> =
    LazyLock::new(|| Kind::ALL.iter().map(|&k| (k, documentation(k))).collect());

fn documentation(kind: Kind) -> Documentation {
    const SECTION: DocSection = DocSection {
        include: true,
        label: "ObjectId Functions",
        description: Some("MongoDB ObjectIds: parse, print, take apart and bound by time."),
    };
    let id_arg = "An ObjectId: the `pymongoarrow.objectid` column, a FixedSizeBinary(12) column or 24-digit hex text.";
    let time_arg = "A time: a timestamp (any unit and zone), a date, RFC 3339 text or whole seconds since 1970.";
    let (description, syntax, example, arg): (&str, &str, &str, Option<(&str, &str)>) = match kind {
        Kind::ObjectId => (
            "Parses 24-digit hex text (either case) as an ObjectId; an invalid value is an error that names it.",
            "objectid(text)",
            "SELECT objectid('65a1b2c3d4e5f60718293a4b')",
            Some(("text", id_arg)),
        ),
        Kind::TryObjectId => (
            "Parses 24-digit hex text (either case) as an ObjectId; an invalid value gives NULL.",
            "try_objectid(text)",
            "SELECT try_objectid('not an id')",
            Some(("text", id_arg)),
        ),
        Kind::Timestamp => (
            "The second an ObjectId was created, as Timestamp(Second, UTC). `objectid_timestamp(id) >= TIMESTAMP '...'` (and <, <=, >, =, BETWEEN) is rewritten to a range on `id`, so Parquet scans skip the row groups outside it.",
            "objectid_timestamp(id)",
            "SELECT count(*) FROM t WHERE objectid_timestamp(_id) BETWEEN TIMESTAMP '2024-01-01T00:00:00Z' AND TIMESTAMP '2024-01-01T00:59:59Z'",
            Some(("id", id_arg)),
        ),
        Kind::TimestampObjectId => (
            "The smallest ObjectId of a second (the time's fraction dropped): `_id >= timestamp_objectid(t)` selects the ids created at or after `t`.",
            "timestamp_objectid(time)",
            "SELECT timestamp_objectid(TIMESTAMP '2024-01-01T00:00:00Z')",
            Some(("time", time_arg)),
        ),
        Kind::MaxForTime => (
            "The largest ObjectId of a second (the time's fraction dropped).",
            "objectid_max_for_time(time)",
            "SELECT objectid_max_for_time(TIMESTAMP '2024-01-01T00:00:00Z')",
            Some(("time", time_arg)),
        ),
        Kind::Hex => (
            "An ObjectId as 24 lowercase hex digits.",
            "objectid_hex(id)",
            "SELECT objectid_hex(_id) FROM t",
            Some(("id", id_arg)),
        ),
        Kind::Random => (
            "The 5 random bytes of an ObjectId (bytes 4 to 8, the process's value), as FixedSizeBinary(5).",
            "objectid_random(id)",
            "SELECT objectid_random(_id), count(*) FROM t GROUP BY 1",
            Some(("id", id_arg)),
        ),
        Kind::Counter => (
            "The 3-byte counter of an ObjectId (bytes 9 to 11), as UInt32.",
            "objectid_counter(id)",
            "SELECT objectid_counter(_id) FROM t",
            Some(("id", id_arg)),
        ),
        Kind::IsValid => (
            "Whether text is a 24-digit hex ObjectId (either case).",
            "objectid_is_valid(text)",
            "SELECT count(*) FROM t WHERE NOT objectid_is_valid(id_text)",
            Some(("text", "Text to check.")),
        ),
        Kind::New => (
            "A new ObjectId for each row, from this process's generator (volatile).",
            "objectid_new()",
            "SELECT objectid_new() AS _id, * FROM t",
            None,
        ),
    };
    let builder = Documentation::builder(SECTION, description, syntax)
        .with_sql_example(format!("```sql\n{example}\n```"));
    match arg {
        Some((name, text)) => builder.with_argument(name, text).build(),
        None => builder.build(),
    }
}
