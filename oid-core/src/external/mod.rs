//! Integrations with other crates, one optional feature and one file each (the layout of
//! `uuid`'s `external/`): the orphan rule puts impls of foreign traits for [`ObjectId`]
//! here.
//!
//! [`ObjectId`]: crate::ObjectId

/// Defines `RngEntropy<R>`, the [`Entropy`](crate::Entropy) source over one `rand_core`
/// version's RNG trait. The type, its constructor and accessors are the same for every version;
/// the trait, its fallible fill method, the error message and the type's docs are the arguments.
/// The invoking module imports `Entropy` and `EntropyError`.
#[cfg(any(feature = "rand_core", feature = "rand_core-0_6"))]
macro_rules! rng_entropy {
    (
        $(#[$doc:meta])*
        path: $path:literal,
        trait: $bound:path,
        fill: $fill:ident,
        error: $msg:literal $(,)?
    ) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        pub struct RngEntropy<R>(R);

        impl<R> RngEntropy<R> {
            /// Wraps `rng`.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("let entropy = ", $path, "::new(7u8);")]
            /// assert_eq!(entropy.into_inner(), 7);
            /// ```
            pub const fn new(rng: R) -> RngEntropy<R> {
                RngEntropy(rng)
            }

            /// The wrapped RNG.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("let entropy = ", $path, "::new(7u8);")]
            /// assert_eq!(entropy.into_inner(), 7);
            /// ```
            pub fn into_inner(self) -> R {
                self.0
            }

            /// A mutable reference to the wrapped RNG.
            ///
            /// # Examples
            ///
            /// ```
            #[doc = concat!("let mut entropy = ", $path, "::new(7u8);")]
            /// *entropy.get_mut() += 1;
            /// assert_eq!(entropy.into_inner(), 8);
            /// ```
            pub const fn get_mut(&mut self) -> &mut R {
                &mut self.0
            }
        }

        impl<R: $bound> Entropy for RngEntropy<R> {
            fn fill(&mut self, dest: &mut [u8]) -> Result<(), EntropyError> {
                self.0.$fill(dest).map_err(|_| EntropyError::new($msg))
            }
        }
    };
}

#[cfg(feature = "arbitrary")]
mod arbitrary_support;
#[cfg(feature = "async-graphql")]
mod async_graphql_support;
#[cfg(feature = "borsh")]
mod borsh_support;
#[cfg(feature = "bytemuck")]
mod bytemuck_support;
#[cfg(feature = "fake")]
mod fake_support;
#[cfg(feature = "juniper")]
mod juniper_support;
#[cfg(feature = "poem-openapi")]
mod poem_openapi_support;
#[cfg(feature = "rand_core-0_6")]
pub mod rand_core_0_6_support;
#[cfg(feature = "rand_core")]
pub(crate) mod rand_core_support;
#[cfg(feature = "rkyv")]
mod rkyv_support;
#[cfg(feature = "schemars")]
mod schemars_support;
#[cfg(feature = "serde")]
pub mod serde_support;
#[cfg(feature = "specta")]
mod specta_support;
#[cfg(feature = "ts-rs")]
mod ts_rs_support;
#[cfg(feature = "utoipa")]
mod utoipa_support;
#[cfg(feature = "zerocopy")]
mod zerocopy_support;

/// The pattern every string form of an id matches: what [`ObjectId::parse_str`] accepts
/// (24 hex digits, either case). Shared by the schema integrations.
///
/// [`ObjectId::parse_str`]: crate::ObjectId::parse_str
#[cfg(any(feature = "schemars", feature = "utoipa", feature = "poem-openapi"))]
pub(crate) const HEX_PATTERN: &str = "^[0-9a-fA-F]{24}$";

/// The description the schema integrations give the id type (and the doc comment of the
/// TypeScript ones).
#[cfg(any(
    feature = "schemars",
    feature = "utoipa",
    feature = "poem-openapi",
    feature = "ts-rs"
))]
pub(crate) const DESCRIPTION: &str =
    "A MongoDB ObjectId: 24 hexadecimal digits (12 bytes), written in lowercase.";

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
