//! Integrations with other crates, one optional feature and one file each (the layout of
//! `uuid`'s `external/`): the orphan rule puts impls of foreign traits for [`ObjectId`]
//! here.
//!
//! [`ObjectId`]: crate::ObjectId

#[cfg(feature = "serde")]
pub mod serde_support;

#[cfg(feature = "postgres-types")]
mod postgres_types_support;
#[cfg(feature = "rusqlite")]
mod rusqlite_support;
#[cfg(any(
    feature = "sqlx-postgres",
    feature = "sqlx-sqlite",
    feature = "postgres-types",
    feature = "rusqlite"
))]
mod sql_text;
#[cfg(feature = "sqlx-postgres")]
mod sqlx_postgres_support;
#[cfg(feature = "sqlx-sqlite")]
mod sqlx_sqlite_support;
