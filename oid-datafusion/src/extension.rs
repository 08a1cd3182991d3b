//! The ObjectId column type (`pymongoarrow.objectid`) in DataFusion: how its values print.

use std::collections::HashMap;
use std::fmt::Write;
use std::sync::Arc;

use arrow::array::{Array, FixedSizeBinaryArray};
use arrow::datatypes::DataType;
use arrow::util::display::{ArrayFormatter, DisplayIndex, FormatOptions, FormatResult};
use datafusion_common::types::DFExtensionType;
use datafusion_common::{Result, exec_err};
use datafusion_expr::registry::{
    ExtensionTypeRegistration, ExtensionTypeRegistrationRef, ExtensionTypeRegistry,
};
use oid_std::ObjectId;

/// The extension name pymongoarrow gives its ObjectId column.
pub const OBJECTID_EXTENSION_NAME: &str = "pymongoarrow.objectid";

/// The storage type of an ObjectId column: `FixedSizeBinary(12)`.
pub const fn objectid_type() -> DataType {
    DataType::FixedSizeBinary(12)
}

/// The field metadata that marks a `FixedSizeBinary(12)` field as `pymongoarrow.objectid` (with
/// the empty serialized metadata pyarrow writes).
pub fn objectid_field_metadata() -> HashMap<String, String> {
    HashMap::from([
        (
            "ARROW:extension:name".to_owned(),
            OBJECTID_EXTENSION_NAME.to_owned(),
        ),
        ("ARROW:extension:metadata".to_owned(), String::new()),
    ])
}

/// DataFusion's view of the ObjectId column: values print as 24 lowercase hex digits.
#[derive(Debug, Clone, Copy, Default)]
pub struct ObjectIdExtension;

impl DFExtensionType for ObjectIdExtension {
    fn storage_type(&self) -> DataType {
        objectid_type()
    }

    fn serialize_metadata(&self) -> Option<String> {
        Some(String::new())
    }

    fn create_array_formatter<'fmt>(
        &self,
        array: &'fmt dyn Array,
        options: &FormatOptions<'fmt>,
    ) -> Result<Option<ArrayFormatter<'fmt>>> {
        let Some(ids) = array.as_any().downcast_ref::<FixedSizeBinaryArray>() else {
            return exec_err!(
                "a pymongoarrow.objectid column holds {}, not FixedSizeBinary(12)",
                array.data_type()
            );
        };
        if ids.value_length() != 12 {
            return exec_err!(
                "a pymongoarrow.objectid column holds {}, not FixedSizeBinary(12)",
                array.data_type()
            );
        }
        let display = HexDisplay {
            ids,
            null: options.null(),
        };
        Ok(Some(ArrayFormatter::new(Box::new(display), options.safe())))
    }
}

struct HexDisplay<'a> {
    ids: &'a FixedSizeBinaryArray,
    null: &'a str,
}

impl DisplayIndex for HexDisplay<'_> {
    fn write(&self, idx: usize, f: &mut dyn Write) -> FormatResult {
        if self.ids.is_null(idx) {
            f.write_str(self.null)?;
            return Ok(());
        }
        let bytes: [u8; 12] = self.ids.value(idx).try_into().unwrap_or([0; 12]);
        f.write_str(ObjectId::from_bytes(bytes).to_hex().as_str())?;
        Ok(())
    }
}

/// The registration of [`ObjectIdExtension`] under [`OBJECTID_EXTENSION_NAME`]; the storage type
/// must be `FixedSizeBinary(12)` and the metadata absent or empty.
pub fn objectid_registration() -> ExtensionTypeRegistrationRef {
    ExtensionTypeRegistration::new_arc(OBJECTID_EXTENSION_NAME, |storage, metadata| {
        if storage != &objectid_type() {
            return exec_err!(
                "pymongoarrow.objectid is stored as FixedSizeBinary(12), not {storage}"
            );
        }
        if metadata.is_some_and(|m| !m.is_empty()) {
            return exec_err!("pymongoarrow.objectid has no metadata, got {metadata:?}");
        }
        Ok(Arc::new(ObjectIdExtension))
    })
}

/// Registers the ObjectId column type with a session's extension-type registry, so its values print
/// as hex (`ctx.state().extension_type_registry()`).
pub fn register_extension_type(registry: &dyn ExtensionTypeRegistry) -> Result<()> {
    registry.add_extension_type_registration(objectid_registration())?;
    Ok(())
}
