//! Tests of the workspace's integrations with other crates: JSON Schema and OpenAPI
//! schemas checked with a validator, GraphQL queries executed, borsh bytes compared with borsh's
//! own `bson` support, generators seeded from `rand` RNGs, zero-copy casts. The library crates
//! keep these heavy crates out of their dev-dependencies; this crate is not published and has
//! no code of its own: everything is in `tests/`.
