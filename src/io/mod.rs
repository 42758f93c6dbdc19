//! Bytes in, bytes out: input sources (memory map, stdin), record formats and splitting,
//! and row encoding and output sinks. The crate's one `unsafe` block, the memory map, lives
//! in [`input`] with its safety argument.

pub mod input;
pub mod output;
pub mod records;

pub use input::Source;
pub use output::{Field, FieldReader, OutputFormat, RowEncoder, Sink};
pub use records::{CellsKind, Record, RecordFormat, Splitter};
