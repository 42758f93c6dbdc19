//! The columnar result of the batch functions: rows of the CLI's columns, decoded from the
//! [`OutputFormat::Fields`](crate::io::OutputFormat::Fields) encoding into Arrow arrays,
//! and exported to Python through the Arrow PyCapsule interface
//! (`__arrow_c_stream__`, `__arrow_c_schema__`), which pyarrow, polars and pandas import
//! without copying.
//!
//! Column types follow the column names: `line`, `index`, `solutions`, `guesses`,
//! `clues` and `steps` are 64-bit integers; `er`, `ep` and `ed` are floats, and for each of them a
//! boolean `{name}_lower_bound` column (true where the CLI writes `>=`) follows the CLI's
//! columns; every other column is UTF-8 text. An empty field is null.

use std::sync::Arc;

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{
    Array, ArrayRef, BooleanArray, Float64Array, Int64Array, RecordBatch, RecordBatchIterator,
    StringArray,
};
use arrow_buffer::{BooleanBuffer, Buffer, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::ffi::FFI_ArrowSchema;
use arrow_schema::{DataType, Field as ArrowField, Schema, SchemaRef};
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyCapsule, PyList, PyString};

use crate::io::output::counts_text;
use crate::io::{Field, FieldReader};
use crate::pipeline::memory::Rows;

/// Rows per record batch: large enough that consumers see few chunks, small enough that a
/// text column's offsets (32-bit) never overflow.
const BATCH_ROWS: usize = 1 << 20;
/// Text bytes in one column of a batch after which the batch is closed early.
const BATCH_BYTES: usize = 1 << 30;

/// How a column's fields are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A whole number.
    Int,
    /// A rating (`8.5`, or `>=9.5` for a lower bound): a float and a lower-bound flag.
    Rating,
    /// Text.
    Text,
}

/// The kind of the column named `name`.
pub(crate) fn kind_of(name: &str) -> Kind {
    match name {
        "line" | "index" | "solutions" | "guesses" | "clues" | "steps" => Kind::Int,
        "er" | "ep" | "ed" => Kind::Rating,
        _ => Kind::Text,
    }
}

/// A field as an integer (fields of an integer column are always [`Field::Int`]; text is
/// read as decimal digits for robustness).
pub(crate) fn int_of(f: &Field<'_>) -> Option<i64> {
    match *f {
        Field::Int(n) => i64::try_from(n).ok(),
        Field::Text(b) | Field::Raw(b) | Field::Plain(b) => {
            std::str::from_utf8(b).ok()?.parse().ok()
        }
        Field::Counts(_) | Field::Null => None,
    }
}

/// A rating field as its value and whether it is a lower bound.
pub(crate) fn rating_of(f: &Field<'_>) -> Option<(f64, bool)> {
    match *f {
        Field::Int(n) => Some((n as f64, false)),
        Field::Text(b) | Field::Raw(b) | Field::Plain(b) => {
            let (bound, rest) = match b.strip_prefix(b">=") {
                Some(r) => (true, r),
                None => (false, b),
            };
            let v: f64 = std::str::from_utf8(rest).ok()?.parse().ok()?;
            Some((v, bound))
        }
        Field::Counts(_) | Field::Null => None,
    }
}

/// A field as text (`None` for null or empty); bytes that are not UTF-8 are replaced.
pub(crate) fn text_of<'a>(f: &Field<'a>) -> Option<std::borrow::Cow<'a, str>> {
    match *f {
        Field::Int(n) => Some(n.to_string().into()),
        Field::Text([]) | Field::Raw([]) | Field::Plain([]) => None,
        Field::Text(b) | Field::Raw(b) | Field::Plain(b) => Some(String::from_utf8_lossy(b)),
        Field::Counts([]) | Field::Null => None,
        Field::Counts(c) => Some(counts_text(c).into()),
    }
}

/// One column being built, in plain vectors turned into Arrow buffers when a batch closes
/// (no copy: the vectors become the buffers).
#[derive(Debug)]
enum Column {
    Int {
        values: Vec<i64>,
        valid: Vec<bool>,
    },
    Rating {
        values: Vec<f64>,
        bound: Vec<bool>,
        valid: Vec<bool>,
    },
    Text {
        data: Vec<u8>,
        offsets: Vec<i32>,
        valid: Vec<bool>,
    },
}

impl Column {
    /// An empty column of `kind` with room for `rows` rows of `bytes` text bytes each.
    fn new(kind: Kind, rows: usize, bytes: usize) -> Column {
        match kind {
            Kind::Int => Column::Int {
                values: Vec::with_capacity(rows),
                valid: Vec::with_capacity(rows),
            },
            Kind::Rating => Column::Rating {
                values: Vec::with_capacity(rows),
                bound: Vec::with_capacity(rows),
                valid: Vec::with_capacity(rows),
            },
            Kind::Text => {
                let mut offsets = Vec::with_capacity(rows + 1);
                offsets.push(0);
                Column::Text {
                    data: Vec::with_capacity(rows * bytes),
                    offsets,
                    valid: Vec::with_capacity(rows),
                }
            }
        }
    }

    /// Appends a field; returns the text bytes the column holds.
    #[inline]
    fn push(&mut self, f: &Field<'_>) -> usize {
        match self {
            Column::Int { values, valid } => {
                let v = int_of(f);
                values.push(v.unwrap_or(0));
                valid.push(v.is_some());
                0
            }
            Column::Rating {
                values,
                bound,
                valid,
            } => {
                let r = rating_of(f);
                let (v, b) = r.unwrap_or((0.0, false));
                values.push(v);
                bound.push(b);
                valid.push(r.is_some());
                0
            }
            Column::Text {
                data,
                offsets,
                valid,
            } => {
                match *f {
                    // An empty field is null, as it is empty in the CLI's CSV.
                    Field::Null
                    | Field::Text([])
                    | Field::Raw([])
                    | Field::Plain([])
                    | Field::Counts([]) => {
                        valid.push(false);
                    }
                    Field::Counts(c) => {
                        data.extend_from_slice(counts_text(c).as_bytes());
                        valid.push(true);
                    }
                    Field::Text(t) | Field::Raw(t) | Field::Plain(t) => {
                        if t.is_ascii() || std::str::from_utf8(t).is_ok() {
                            data.extend_from_slice(t);
                        } else {
                            data.extend_from_slice(String::from_utf8_lossy(t).as_bytes());
                        }
                        valid.push(true);
                    }
                    Field::Int(n) => {
                        data.extend_from_slice(n.to_string().as_bytes());
                        valid.push(true);
                    }
                }
                // Batches close before a column passes BATCH_BYTES, far below i32::MAX.
                offsets.push(data.len() as i32);
                data.len()
            }
        }
    }

    /// The column's arrays (a rating gives its values and its lower-bound flags), leaving
    /// it empty with room for `rows` rows of `bytes` bytes.
    fn take(&mut self, rows: usize, bytes: usize) -> (ArrayRef, Option<ArrayRef>) {
        fn nulls(valid: Vec<bool>) -> Option<NullBuffer> {
            if valid.iter().all(|&v| v) {
                None
            } else {
                Some(NullBuffer::from(valid))
            }
        }
        let kind = match self {
            Column::Int { .. } => Kind::Int,
            Column::Rating { .. } => Kind::Rating,
            Column::Text { .. } => Kind::Text,
        };
        let old = std::mem::replace(self, Column::new(kind, rows, bytes));
        match old {
            Column::Int { values, valid } => (
                Arc::new(Int64Array::new(ScalarBuffer::from(values), nulls(valid))),
                None,
            ),
            Column::Rating {
                values,
                bound,
                valid,
            } => {
                let n = nulls(valid);
                (
                    Arc::new(Float64Array::new(ScalarBuffer::from(values), n.clone())),
                    Some(Arc::new(BooleanArray::new(BooleanBuffer::from(bound), n))),
                )
            }
            Column::Text {
                data,
                offsets,
                valid,
            } => {
                let offsets = OffsetBuffer::new(ScalarBuffer::from(offsets));
                // Every field was checked (or made) UTF-8 as it was added.
                let array = StringArray::try_new(offsets, Buffer::from_vec(data), nulls(valid))
                    .unwrap_or_else(|_| StringArray::new_null(0));
                (Arc::new(array), None)
            }
        }
    }
}

/// Builds a [`Table`] from the packed rows of an in-memory run.
#[derive(Debug, Default)]
pub(crate) struct TableBuilder {
    columns: Vec<Column>,
    /// Bytes a row expected in each column (a grid's cells for the grid columns).
    widths: Vec<usize>,
    schema: Option<SchemaRef>,
    /// The field of the current row to be read next.
    next: usize,
    /// Complete rows in the open batch.
    rows: usize,
    /// The most text bytes in one column of the open batch.
    bytes: usize,
    /// Rows still expected (to size the next batch's vectors).
    expected: usize,
    batches: Vec<RecordBatch>,
    /// Cells of a grid (81, or 405 for Samurai).
    width: usize,
}

impl TableBuilder {
    /// A builder for about `expected` rows of a run on grids of `width` cells.
    pub(crate) fn new(width: usize, expected: usize) -> TableBuilder {
        TableBuilder {
            width,
            expected,
            ..TableBuilder::default()
        }
    }

    /// Rows the next batch should make room for.
    fn batch_rows(&self) -> usize {
        self.expected.clamp(1, BATCH_ROWS)
    }

    /// Closes the open batch.
    fn close_batch(&mut self) {
        let Some(schema) = &self.schema else {
            return;
        };
        self.expected = self.expected.saturating_sub(self.rows);
        let rows = self.batch_rows();
        let mut arrays: Vec<ArrayRef> = Vec::with_capacity(schema.fields().len());
        let mut bounds: Vec<ArrayRef> = Vec::new();
        for (c, &w) in self.columns.iter_mut().zip(&self.widths) {
            let (a, b) = c.take(rows, w);
            arrays.push(a);
            bounds.extend(b);
        }
        arrays.extend(bounds);
        // The arrays match the schema by construction (same kinds, same lengths).
        if let Ok(batch) = RecordBatch::try_new(Arc::clone(schema), arrays) {
            self.batches.push(batch);
        }
        self.rows = 0;
        self.bytes = 0;
    }

    /// The finished table.
    pub(crate) fn finish(mut self) -> Table {
        if self.rows > 0 {
            self.close_batch();
        }
        let schema = self
            .schema
            .clone()
            .unwrap_or_else(|| Arc::new(Schema::empty()));
        Table::new(schema, self.batches, self.width)
    }
}

impl Rows for TableBuilder {
    fn columns(&mut self, columns: &[&'static str]) {
        let rows = self.batch_rows();
        self.widths = columns
            .iter()
            .map(|c| match *c {
                "puzzle" | "solution" | "minimal" => self.width,
                "regions" => 81,
                _ => 0,
            })
            .collect();
        self.columns = columns
            .iter()
            .zip(&self.widths)
            .map(|(c, &w)| Column::new(kind_of(c), rows, w))
            .collect();
        let mut fields: Vec<ArrowField> = Vec::new();
        let mut bounds: Vec<ArrowField> = Vec::new();
        for &name in columns {
            let kind = kind_of(name);
            let ty = match kind {
                Kind::Int => DataType::Int64,
                Kind::Rating => DataType::Float64,
                Kind::Text => DataType::Utf8,
            };
            // `line` and `index` are never empty; any other column may be.
            fields.push(ArrowField::new(name, ty, !matches!(name, "line" | "index")));
            if kind == Kind::Rating {
                bounds.push(ArrowField::new(
                    format!("{name}_lower_bound"),
                    DataType::Boolean,
                    true,
                ));
            }
        }
        fields.extend(bounds);
        self.schema = Some(Arc::new(Schema::new(fields)));
    }

    fn rows(&mut self, packed: &[u8]) {
        let n = self.columns.len();
        if n == 0 {
            return;
        }
        let mut reader = FieldReader::new(packed);
        while let Some(f) = reader.next_field() {
            let bytes = self.columns[self.next].push(&f);
            self.bytes = self.bytes.max(bytes);
            self.next += 1;
            if self.next == n {
                self.next = 0;
                self.rows += 1;
                if self.rows == BATCH_ROWS || self.bytes >= BATCH_BYTES {
                    self.close_batch();
                }
            }
        }
    }
}

/// Rows of a batch function, as Arrow record batches: export them with
/// `__arrow_c_stream__` (pyarrow, polars, pandas), or read columns as Python lists.
#[pyclass(frozen, module = "sudoku_batch._native", name = "Table")]
#[derive(Debug)]
pub struct Table {
    schema: SchemaRef,
    batches: Vec<RecordBatch>,
    rows: usize,
    width: usize,
}

impl Table {
    fn new(schema: SchemaRef, batches: Vec<RecordBatch>, width: usize) -> Table {
        let rows = batches.iter().map(RecordBatch::num_rows).sum();
        Table {
            schema,
            batches,
            rows,
            width,
        }
    }

    fn index_of(&self, name: &str) -> PyResult<usize> {
        self.schema.index_of(name).map_err(|_| {
            let names: Vec<&str> = self
                .schema
                .fields()
                .iter()
                .map(|f| f.name().as_str())
                .collect();
            PyKeyError::new_err(format!(
                "no column '{name}'; the columns are {}",
                names.join(", ")
            ))
        })
    }
}

/// The value of row `i` of `array` as a Python object.
fn py_value<'py>(py: Python<'py>, array: &dyn Array, i: usize) -> PyResult<Bound<'py, PyAny>> {
    if array.is_null(i) {
        return Ok(py.None().into_bound(py));
    }
    let any = array.as_any();
    if let Some(a) = any.downcast_ref::<Int64Array>() {
        return Ok(a.value(i).into_pyobject(py)?.into_any());
    }
    if let Some(a) = any.downcast_ref::<Float64Array>() {
        return Ok(a.value(i).into_pyobject(py)?.into_any());
    }
    if let Some(a) = any.downcast_ref::<BooleanArray>() {
        return Ok(a.value(i).into_pyobject(py)?.to_owned().into_any());
    }
    if let Some(a) = any.downcast_ref::<StringArray>() {
        return Ok(PyString::new(py, a.value(i)).into_any());
    }
    Ok(py.None().into_bound(py))
}

#[pymethods]
impl Table {
    /// Number of rows.
    #[getter]
    fn num_rows(&self) -> usize {
        self.rows
    }

    fn __len__(&self) -> usize {
        self.rows
    }

    /// The column names, in order.
    #[getter]
    fn column_names(&self) -> Vec<String> {
        self.schema
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect()
    }

    /// Cells of a grid (81, or 405 for Samurai).
    #[getter]
    fn grid_width(&self) -> usize {
        self.width
    }

    /// The Arrow schema, as an `arrow_schema` PyCapsule.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        let ffi = FFI_ArrowSchema::try_from(self.schema.as_ref())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        PyCapsule::new_with_value(py, ffi, c"arrow_schema")
    }

    /// The rows as an Arrow C stream, in an `arrow_array_stream` PyCapsule. The batches'
    /// buffers are shared, not copied. `requested_schema` is ignored (the columns have one
    /// type each).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let reader = RecordBatchIterator::new(
            self.batches.clone().into_iter().map(Ok),
            Arc::clone(&self.schema),
        );
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }

    /// The values of column `name` as a Python list (`None` for empty fields).
    fn column<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyList>> {
        let k = self.index_of(name)?;
        let list = PyList::empty(py);
        for b in &self.batches {
            let a = b.column(k);
            for i in 0..a.len() {
                list.append(py_value(py, a.as_ref(), i)?)?;
            }
        }
        Ok(list)
    }

    /// A table of the columns `names`, in that order (the arrays are shared).
    fn select(&self, names: Vec<String>) -> PyResult<Table> {
        let idx = names
            .iter()
            .map(|n| self.index_of(n))
            .collect::<PyResult<Vec<_>>>()?;
        let schema = Arc::new(
            self.schema
                .project(&idx)
                .map_err(|e| PyValueError::new_err(e.to_string()))?,
        );
        let batches = self
            .batches
            .iter()
            .map(|b| b.project(&idx))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Table::new(schema, batches, self.width))
    }

    /// The grids of text column `name` (`puzzle`, `solution`, `minimal`) as cell values,
    /// `grid_width` bytes a row: 0 for an empty cell, 1-9 for a digit; a row with no grid
    /// is all zeros.
    fn grid_values<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyByteArray>> {
        let k = self.index_of(name)?;
        let width = self.width;
        let mut values: Vec<&StringArray> = Vec::with_capacity(self.batches.len());
        for b in &self.batches {
            values.push(
                b.column(k)
                    .as_any()
                    .downcast_ref::<StringArray>()
                    .ok_or_else(|| PyValueError::new_err(format!("{name} is not a grid column")))?,
            );
        }
        let total = self.rows * width;
        PyByteArray::new_with(py, total, |out: &mut [u8]| {
            py.detach(|| {
                let mut row = 0;
                for a in &values {
                    for i in 0..a.len() {
                        if !a.is_null(i) {
                            let cells = &mut out[row * width..(row + 1) * width];
                            for (c, &b) in cells.iter_mut().zip(a.value(i).as_bytes()) {
                                *c = if b.is_ascii_digit() { b - b'0' } else { 0 };
                            }
                        }
                        row += 1;
                    }
                }
            });
            Ok(())
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "<sudoku_batch Table: {} rows, columns {}>",
            self.rows,
            self.column_names().join(", ")
        )
    }
}
