//! A Parquet bill read column by column: each row group's projected columns decoded in
//! batches by their physical type (no record per row, no value enum per cell), each value
//! turned into the text the record reader's value gives (`parquet::text`) — the same rules
//! the record API follows for each physical and converted type, so both give the same rows
//! (a property test holds them equal). A map column (CUR 2.0's `resource_tags`) is read
//! from its key and value leaves and their levels; a group of another shape, beside,
//! through the record API on that column alone. Columns this reader does not decode
//! (INT96 times, half floats, an annotation the record API refuses) send the whole file to
//! the record reader. Memory is one row group's projected columns as text.

use parquet::basic::{ConvertedType, LogicalType, Type as Physical};
use parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use parquet::data_type::{ByteArray, DataType, FixedLenByteArray};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::schema::types::{ColumnDescPtr, Type};

use super::parquet::{Read, decimal_text, text};
use crate::cloudwatch::timestamp;

/// Values decoded per call: a batch small enough to stay in cache.
const BATCH: usize = 4_096;

/// How one primitive column's values become text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Plan {
    Bool,
    I8,
    I16,
    I32,
    U8,
    U16,
    U32,
    I64,
    U64,
    /// DATE: days since 1970, as `YYYY-MM-DD`.
    Date,
    /// A time of day (TIME_MILLIS, TIME_MICROS): what the record path writes for it, nothing.
    Nothing,
    Millis,
    Micros,
    Nanos,
    /// DECIMAL of this scale (INT32, INT64, BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY).
    Decimal(i32),
    Float,
    Double,
    Utf8,
}

/// The plan for a column, as the record API converts its values; `None` for what this
/// reader leaves to the record reader.
fn plan(d: &ColumnDescPtr, read: Read) -> Option<Plan> {
    let converted = d.converted_type();
    let scale = d.type_scale();
    Some(match d.physical_type() {
        Physical::BOOLEAN => Plan::Bool,
        Physical::INT32 => match converted {
            ConvertedType::INT_8 => Plan::I8,
            ConvertedType::INT_16 => Plan::I16,
            ConvertedType::INT_32 | ConvertedType::NONE => Plan::I32,
            ConvertedType::UINT_8 => Plan::U8,
            ConvertedType::UINT_16 => Plan::U16,
            ConvertedType::UINT_32 => Plan::U32,
            ConvertedType::DATE => Plan::Date,
            ConvertedType::TIME_MILLIS => Plan::Nothing,
            ConvertedType::DECIMAL => Plan::Decimal(scale),
            _ => return None,
        },
        Physical::INT64 => match converted {
            ConvertedType::INT_64 | ConvertedType::NONE if read == Read::Nanos => Plan::Nanos,
            ConvertedType::INT_64 | ConvertedType::NONE => Plan::I64,
            ConvertedType::UINT_64 => Plan::U64,
            ConvertedType::TIME_MICROS => Plan::Nothing,
            ConvertedType::TIMESTAMP_MILLIS => Plan::Millis,
            ConvertedType::TIMESTAMP_MICROS => Plan::Micros,
            ConvertedType::DECIMAL => Plan::Decimal(scale),
            _ => return None,
        },
        Physical::FLOAT => Plan::Float,
        Physical::DOUBLE => Plan::Double,
        Physical::BYTE_ARRAY => match converted {
            ConvertedType::UTF8 | ConvertedType::ENUM | ConvertedType::JSON => Plan::Utf8,
            ConvertedType::BSON | ConvertedType::NONE => Plan::Nothing,
            ConvertedType::DECIMAL => Plan::Decimal(scale),
            _ => return None,
        },
        Physical::FIXED_LEN_BYTE_ARRAY => match converted {
            ConvertedType::DECIMAL => Plan::Decimal(scale),
            ConvertedType::NONE if d.logical_type_ref() == Some(&LogicalType::Float16) => {
                return None;
            }
            ConvertedType::NONE => Plan::Nothing,
            _ => return None,
        },
        Physical::INT96 => return None,
    })
}

/// A value as text, by its column's plan; `Err` for text that is not UTF-8.
trait Cell {
    fn cell(&self, plan: Plan) -> Result<String, String>;
}

impl Cell for bool {
    fn cell(&self, _: Plan) -> Result<String, String> {
        Ok(self.to_string())
    }
}

#[allow(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "the record API's own casts, by the column's converted type"
)]
impl Cell for i32 {
    fn cell(&self, plan: Plan) -> Result<String, String> {
        let v = *self;
        Ok(match plan {
            Plan::I8 => (v as i8).to_string(),
            Plan::I16 => (v as i16).to_string(),
            Plan::U8 => (v as u8).to_string(),
            Plan::U16 => (v as u16).to_string(),
            Plan::U32 => (v as u32).to_string(),
            Plan::Date => {
                let day = timestamp(i64::from(v).saturating_mul(86_400));
                day.get(..10).unwrap_or_default().to_string()
            }
            Plan::Decimal(scale) => decimal_text(&v.to_be_bytes(), scale).unwrap_or_default(),
            Plan::Nothing => String::new(),
            _ => v.to_string(),
        })
    }
}

#[allow(
    clippy::cast_sign_loss,
    reason = "the record API's own cast of a UINT_64"
)]
impl Cell for i64 {
    fn cell(&self, plan: Plan) -> Result<String, String> {
        let v = *self;
        Ok(match plan {
            Plan::U64 => (v as u64).to_string(),
            Plan::Millis => timestamp(v.div_euclid(1_000)),
            Plan::Micros => timestamp(v.div_euclid(1_000_000)),
            Plan::Nanos => timestamp(v.div_euclid(1_000_000_000)),
            Plan::Decimal(scale) => decimal_text(&v.to_be_bytes(), scale).unwrap_or_default(),
            Plan::Nothing => String::new(),
            _ => v.to_string(),
        })
    }
}

impl Cell for f32 {
    fn cell(&self, _: Plan) -> Result<String, String> {
        // The shortest decimal that reads back to the same binary value.
        Ok(self.to_string())
    }
}

impl Cell for f64 {
    fn cell(&self, _: Plan) -> Result<String, String> {
        Ok(self.to_string())
    }
}

fn bytes_cell(data: &[u8], plan: Plan) -> Result<String, String> {
    match plan {
        Plan::Utf8 => std::str::from_utf8(data)
            .map(str::to_string)
            .map_err(|e| format!("text that is not UTF-8 ({e})")),
        Plan::Decimal(scale) => Ok(decimal_text(data, scale).unwrap_or_default()),
        _ => Ok(String::new()),
    }
}

impl Cell for ByteArray {
    fn cell(&self, plan: Plan) -> Result<String, String> {
        bytes_cell(self.data(), plan)
    }
}

impl Cell for FixedLenByteArray {
    fn cell(&self, plan: Plan) -> Result<String, String> {
        bytes_cell(self.data(), plan)
    }
}

/// A row group's values of one column as text, end to end in one buffer (no allocation per
/// value).
#[derive(Debug, Default)]
pub(crate) struct Column {
    text: String,
    ends: Vec<usize>,
}

impl Column {
    fn with_capacity(rows: usize) -> Column {
        Column {
            text: String::with_capacity(rows.saturating_mul(16)),
            ends: Vec::with_capacity(rows),
        }
    }

    fn push(&mut self, value: &str) {
        self.text.push_str(value);
        self.ends.push(self.text.len());
    }

    pub(crate) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Row `r`'s text.
    pub(crate) fn get(&self, r: usize) -> Option<&str> {
        let end = *self.ends.get(r)?;
        let start = match r.checked_sub(1) {
            Some(p) => *self.ends.get(p)?,
            None => 0,
        };
        self.text.get(start..end)
    }

    fn of(values: &[String]) -> Column {
        let mut c = Column::with_capacity(values.len());
        for v in values {
            c.push(v);
        }
        c
    }
}

/// Every value of one column of a row group, as text (empty for a null). A value equal to
/// the one before (a dictionary's repeats, an hour's timestamps) reuses its text.
fn decode<T: DataType>(
    mut r: ColumnReaderImpl<T>,
    rows: usize,
    max_def: i16,
    plan: Plan,
) -> Result<Column, String>
where
    T::T: Cell,
{
    let mut out = Column::with_capacity(rows);
    let mut values: Vec<T::T> = Vec::with_capacity(BATCH);
    let mut defs: Vec<i16> = Vec::with_capacity(BATCH);
    let mut last: Option<T::T> = None;
    let mut last_text = String::new();
    while out.len() < rows {
        values.clear();
        defs.clear();
        let (records, _, _) = r
            .read_records(BATCH, (max_def > 0).then_some(&mut defs), None, &mut values)
            .map_err(|e| e.to_string())?;
        if records == 0 {
            return Err(format!("a column ends after {} of {rows} rows", out.len()));
        }
        let mut present = values.iter();
        for i in 0..records {
            if max_def > 0 && defs.get(i) != Some(&max_def) {
                out.push("");
                continue;
            }
            let v = present.next().ok_or("fewer values than levels")?;
            if last.as_ref() != Some(v) {
                last_text = v.cell(plan)?;
                last = Some(v.clone());
            }
            out.push(&last_text);
        }
    }
    Ok(out)
}

/// Every level of one leaf of a map in a row group: definition and repetition levels, and
/// the values present, as text.
struct Leaf {
    defs: Vec<i16>,
    reps: Vec<i16>,
    values: Vec<String>,
}

/// One leaf of a repeated column, whole, for `rows` records.
fn decode_levels<T: DataType>(
    mut r: ColumnReaderImpl<T>,
    rows: usize,
    plan: Plan,
) -> Result<Leaf, String>
where
    T::T: Cell,
{
    let mut leaf = Leaf {
        defs: Vec::new(),
        reps: Vec::new(),
        values: Vec::new(),
    };
    let mut values: Vec<T::T> = Vec::with_capacity(BATCH);
    let mut records = 0usize;
    while records < rows {
        values.clear();
        let (read, _, _) = r
            .read_records(
                BATCH.min(rows.saturating_sub(records)),
                Some(&mut leaf.defs),
                Some(&mut leaf.reps),
                &mut values,
            )
            .map_err(|e| e.to_string())?;
        if read == 0 {
            return Err(format!("a map column ends after {records} of {rows} rows"));
        }
        records = records.saturating_add(read);
        for v in &values {
            leaf.values.push(v.cell(plan)?);
        }
    }
    Ok(leaf)
}

/// One leaf of a map, by its reader's physical type.
fn map_leaf(reader: ColumnReader, rows: usize, plan: Plan) -> Result<Leaf, String> {
    match reader {
        ColumnReader::BoolColumnReader(r) => decode_levels(r, rows, plan),
        ColumnReader::Int32ColumnReader(r) => decode_levels(r, rows, plan),
        ColumnReader::Int64ColumnReader(r) => decode_levels(r, rows, plan),
        ColumnReader::FloatColumnReader(r) => decode_levels(r, rows, plan),
        ColumnReader::DoubleColumnReader(r) => decode_levels(r, rows, plan),
        ColumnReader::ByteArrayColumnReader(r) => decode_levels(r, rows, plan),
        ColumnReader::FixedLenByteArrayColumnReader(r) => decode_levels(r, rows, plan),
        ColumnReader::Int96ColumnReader(_) => Err("an INT96 column".to_string()),
    }
}

/// A map's rows as the record path writes them: a null map empty, else the JSON object of
/// its entries (keys sorted, a later key over an earlier, a null value as "").
fn map_rows(key: &Leaf, value: &Leaf, m: &MapShape) -> Result<Vec<String>, String> {
    fn finish(map: Option<serde_json::Map<String, serde_json::Value>>) -> String {
        map.map(|m| serde_json::Value::Object(m).to_string())
            .unwrap_or_default()
    }
    if key.defs.len() != value.defs.len() || key.reps.len() != key.defs.len() {
        return Err("a map's key and value columns disagree".to_string());
    }
    let mut out = Vec::new();
    let (mut keys, mut values) = (key.values.iter(), value.values.iter());
    let mut current: Option<Option<serde_json::Map<String, serde_json::Value>>> = None;
    for ((kd, rep), vd) in key.defs.iter().zip(&key.reps).zip(&value.defs) {
        if *rep == 0 {
            if let Some(done) = current.take() {
                out.push(finish(done));
            }
            current = Some((*kd >= m.map_def).then(serde_json::Map::new));
        }
        if *kd == m.entry_def
            && let Some(Some(map)) = current.as_mut()
        {
            let k = keys.next().ok_or("fewer keys than levels")?;
            let v = if *vd == m.value_def {
                values.next().ok_or("fewer values than levels")?.clone()
            } else {
                String::new()
            };
            map.insert(k.clone(), serde_json::Value::String(v));
        }
    }
    if let Some(done) = current.take() {
        out.push(finish(done));
    }
    Ok(out)
}

/// A map column of the usual shape (`MAP { repeated key_value { required key; value } }`):
/// its two leaves, how their values become text, and its definition levels.
struct MapShape {
    key: usize,
    value: usize,
    key_plan: Plan,
    value_plan: Plan,
    /// At or above: the map is there (empty or not).
    map_def: i16,
    /// Equal: an entry is there.
    entry_def: i16,
    /// Equal: the entry's value is there.
    value_def: i16,
}

/// The shape of map column `t`, if it is the usual one and its leaves are decoded here.
fn map_shape(t: &Type, schema: &parquet::schema::types::SchemaDescriptor) -> Option<MapShape> {
    use parquet::basic::Repetition;
    if !matches!(
        t.get_basic_info().converted_type(),
        ConvertedType::MAP | ConvertedType::MAP_KEY_VALUE
    ) {
        return None;
    }
    let [kv] = t.get_fields() else {
        return None;
    };
    if !kv.is_group() || kv.get_basic_info().repetition() != Repetition::REPEATED {
        return None;
    }
    let [k, v] = kv.get_fields() else {
        return None;
    };
    if !k.is_primitive()
        || !v.is_primitive()
        || k.get_basic_info().repetition() != Repetition::REQUIRED
    {
        return None;
    }
    let leaf = |field: &Type| {
        (0..schema.num_columns()).find(|i| {
            let parts = schema.column(*i).path().parts().to_vec();
            parts == [t.name(), kv.name(), field.name()]
        })
    };
    let (key, value) = (leaf(k)?, leaf(v)?);
    let (kd, vd) = (schema.column(key), schema.column(value));
    let entry_def = kd.max_def_level();
    Some(MapShape {
        key,
        value,
        key_plan: plan(&kd, Read::Plain)?,
        value_plan: plan(&vd, Read::Plain)?,
        map_def: entry_def.checked_sub(1)?,
        entry_def,
        value_def: vd.max_def_level(),
    })
}

/// One projected column: where its values come from.
enum Source {
    /// A map of the usual shape, from its two leaves.
    Map(MapShape),
    /// A primitive column: its leaf in the file, and how its values become text.
    Leaf {
        leaf: usize,
        plan: Plan,
        max_def: i16,
    },
    /// A group (a map of tags): the next of the groups read through records.
    Group,
}

/// The reader of a file's projected columns, or `None` when one of them is not one this
/// reader decodes (the caller then reads records).
pub(crate) struct Columns {
    sources: Vec<Source>,
    /// The groups, as a projection for the record API.
    groups: Option<Type>,
    /// How the group columns' values become text.
    group_reads: Vec<Read>,
}

impl Columns {
    /// The plan for `fields` (the projection, in the file's order) read as `reads` says.
    pub(crate) fn of(
        reader: &SerializedFileReader<std::fs::File>,
        fields: &[std::sync::Arc<Type>],
        reads: &[Read],
        root_name: &str,
    ) -> Option<Columns> {
        let schema = reader.metadata().file_metadata().schema_descr();
        let mut sources = Vec::with_capacity(fields.len());
        let mut groups = Vec::new();
        let mut group_reads = Vec::new();
        for (t, read) in fields.iter().zip(reads) {
            if t.is_primitive() {
                let leaf = (0..schema.num_columns()).find(|i| {
                    let c = schema.column(*i);
                    c.path().parts().len() == 1 && c.name() == t.name()
                })?;
                let d = schema.column(leaf);
                if d.max_rep_level() != 0 {
                    return None;
                }
                sources.push(Source::Leaf {
                    leaf,
                    plan: plan(&d, *read)?,
                    max_def: d.max_def_level(),
                });
            } else if let Some(shape) = map_shape(t, schema) {
                sources.push(Source::Map(shape));
            } else {
                sources.push(Source::Group);
                groups.push(std::sync::Arc::clone(t));
                group_reads.push(*read);
            }
        }
        let groups = if groups.is_empty() {
            None
        } else {
            Some(
                Type::group_type_builder(root_name)
                    .with_fields(groups)
                    .build()
                    .ok()?,
            )
        };
        Some(Columns {
            sources,
            groups,
            group_reads,
        })
    }

    /// Row group `i`'s projected columns, each as its rows' text.
    ///
    /// # Errors
    /// What the decoder says of a damaged column; text that is not UTF-8.
    pub(crate) fn row_group(
        &self,
        reader: &SerializedFileReader<std::fs::File>,
        i: usize,
    ) -> Result<Vec<Column>, String> {
        let rg = reader.get_row_group(i).map_err(|e| e.to_string())?;
        let rows = usize::try_from(rg.metadata().num_rows()).map_err(|e| e.to_string())?;
        let mut group_columns: Vec<Vec<String>> =
            vec![Vec::with_capacity(rows); self.group_reads.len()];
        if let Some(projection) = &self.groups {
            let records = rg
                .get_row_iter(Some(projection.clone()))
                .map_err(|e| e.to_string())?;
            for r in records {
                let r = r.map_err(|e| e.to_string())?;
                for ((_, v), (column, read)) in r
                    .get_column_iter()
                    .zip(group_columns.iter_mut().zip(&self.group_reads))
                {
                    column.push(text(v, *read));
                }
            }
        }
        let mut groups = group_columns.into_iter();
        let mut out = Vec::with_capacity(self.sources.len());
        for s in &self.sources {
            let column = match s {
                Source::Group => Column::of(&groups.next().unwrap_or_default()),
                Source::Map(m) => {
                    let key = map_leaf(
                        rg.get_column_reader(m.key).map_err(|e| e.to_string())?,
                        rows,
                        m.key_plan,
                    )?;
                    let value = map_leaf(
                        rg.get_column_reader(m.value).map_err(|e| e.to_string())?,
                        rows,
                        m.value_plan,
                    )?;
                    Column::of(&map_rows(&key, &value, m)?)
                }
                Source::Leaf {
                    leaf,
                    plan,
                    max_def,
                } => {
                    let (p, m) = (*plan, *max_def);
                    match rg.get_column_reader(*leaf).map_err(|e| e.to_string())? {
                        ColumnReader::BoolColumnReader(r) => decode(r, rows, m, p)?,
                        ColumnReader::Int32ColumnReader(r) => decode(r, rows, m, p)?,
                        ColumnReader::Int64ColumnReader(r) => decode(r, rows, m, p)?,
                        ColumnReader::FloatColumnReader(r) => decode(r, rows, m, p)?,
                        ColumnReader::DoubleColumnReader(r) => decode(r, rows, m, p)?,
                        ColumnReader::ByteArrayColumnReader(r) => decode(r, rows, m, p)?,
                        ColumnReader::FixedLenByteArrayColumnReader(r) => decode(r, rows, m, p)?,
                        ColumnReader::Int96ColumnReader(_) => {
                            return Err("an INT96 column".to_string());
                        }
                    }
                }
            };
            if column.len() != rows {
                return Err(format!(
                    "a column holds {} values for {rows} rows",
                    column.len()
                ));
            }
            out.push(column);
        }
        Ok(out)
    }
}
