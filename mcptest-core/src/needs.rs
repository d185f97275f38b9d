//! What a method needs of mcptest's Cargo features, said by the compiler:
//! a method whose feature is off still exists, with a bound no type meets
//! (`where &'a (): needs::Http`), so calling it is an error that names the
//! feature and the line to add, instead of a bare "no method named `url`".
//! The lifetime in the bound makes the compiler check it where the method
//! is called, not where it is defined. With the feature on, the method is
//! the real one and the bound is gone.

/// Marks code that needs the `http` feature.
#[diagnostic::on_unimplemented(
    message = "this needs mcptest's `http` feature (Streamable HTTP)",
    label = "needs the `http` feature",
    note = "turn it on in Cargo.toml: mcptest = {{ ..., features = [\"http\"] }}"
)]
pub trait Http {}
#[cfg(feature = "http")]
impl<T: ?Sized> Http for T {}

/// Marks code that needs the `junit` feature.
#[diagnostic::on_unimplemented(
    message = "this needs mcptest's `junit` feature (JUnit XML reports)",
    label = "needs the `junit` feature",
    note = "turn it on in Cargo.toml: mcptest = {{ ..., features = [\"junit\"] }}"
)]
pub trait Junit {}
#[cfg(feature = "junit")]
impl<T: ?Sized> Junit for T {}

/// Marks code that needs the `json-schema` feature.
#[diagnostic::on_unimplemented(
    message = "this needs mcptest's `json-schema` feature (checks against JSON Schema)",
    label = "needs the `json-schema` feature",
    note = "turn it on in Cargo.toml: mcptest = {{ ..., features = [\"json-schema\"] }}"
)]
pub trait JsonSchemaChecks {}
#[cfg(feature = "json-schema")]
impl<T: ?Sized> JsonSchemaChecks for T {}
