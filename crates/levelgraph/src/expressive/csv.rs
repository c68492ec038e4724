//! `levels.csv`: one row per seed — `seed,status,why,hash,` then the
//! run's metric columns. Cells are numbers, lower-case words and codes
//! (no commas or quotes), so the file is plain RFC 4180 without quoting;
//! an empty cell is a metric that does not apply. Reading it back gives
//! the records written, value for value (`Record::of` rounds
//! fractions to the four decimals written), which is what makes merged
//! shards equal one run.

use std::fmt::Write as _;

use super::measure::{Record, Status};
use super::metric::Metric;

/// The columns before the metrics.
const FIXED: [&str; 4] = ["seed", "status", "why", "hash"];

/// The header line (without its newline) of a file with the metrics
/// `columns`.
pub fn header(columns: &[Metric]) -> String {
    let mut line = FIXED.join(",");
    for m in columns {
        line.push(',');
        line.push_str(m.name());
    }
    line
}

/// One record as a line (with its newline).
pub fn row(record: &Record, columns: &[Metric]) -> String {
    let mut line = format!("{},{},{},", record.seed, record.status.name(), record.why);
    if let Some(h) = record.hash {
        let _ = write!(line, "{h:016x}");
    }
    for &m in columns {
        line.push(',');
        if let Some(x) = record.get(m) {
            // `{}` of an f64 is its shortest exact form: 3 for 3.0, 0.4375.
            let _ = write!(line, "{x}");
        }
    }
    line.push('\n');
    line
}

/// What is wrong with a `levels.csv`, at a line (from 1) and column (from
/// 1, in characters).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct CsvError {
    /// The line.
    pub line: usize,
    /// The column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads a `levels.csv`: its metric columns and its records, in file
/// order.
///
/// # Errors
/// [`CsvError`] at the first cell that is not what its column holds, a
/// row with another number of cells than the header, or a header that is
/// not `seed,status,why,hash` and metric names.
pub fn read(text: &str) -> Result<(Vec<Metric>, Vec<Record>), CsvError> {
    let mut lines = text.lines().enumerate();
    let err = |line: usize, column: usize, message: String| CsvError {
        line: line + 1,
        column,
        message,
    };
    let (_, head) = lines.next().ok_or_else(|| {
        err(
            0,
            1,
            "the file is empty; it should start with a header".into(),
        )
    })?;
    let cells: Vec<&str> = head.split(',').collect();
    if cells.len() < FIXED.len() || cells[..FIXED.len()] != FIXED {
        return Err(err(
            0,
            1,
            format!("the header should start with {}", FIXED.join(",")),
        ));
    }
    let mut columns = Vec::new();
    let mut at = FIXED.join(",").len() + 2;
    for cell in &cells[FIXED.len()..] {
        let m = Metric::from_name(cell)
            .ok_or_else(|| err(0, at, format!("`{cell}` is not a metric")))?;
        columns.push(m);
        at += cell.chars().count() + 1;
    }
    let mut records = Vec::new();
    for (n, line) in lines {
        if line.is_empty() {
            continue;
        }
        let cells: Vec<&str> = line.split(',').collect();
        if cells.len() != FIXED.len() + columns.len() {
            return Err(err(
                n,
                1,
                format!(
                    "{} cells, the header has {}",
                    cells.len(),
                    FIXED.len() + columns.len()
                ),
            ));
        }
        let mut starts = Vec::with_capacity(cells.len());
        let mut col = 1;
        for c in &cells {
            starts.push(col);
            col += c.chars().count() + 1;
        }
        let seed = cells[0]
            .parse()
            .map_err(|_| err(n, starts[0], format!("`{}` is not a seed", cells[0])))?;
        let status = Status::from_name(cells[1])
            .ok_or_else(|| err(n, starts[1], format!("`{}` is not a status", cells[1])))?;
        let why = cells[2].to_owned();
        let hash = match cells[3] {
            "" => None,
            h => Some(
                u64::from_str_radix(h, 16)
                    .map_err(|_| err(n, starts[3], format!("`{h}` is not a hash")))?,
            ),
        };
        let mut values = [None; Metric::ALL.len()];
        for (i, &m) in columns.iter().enumerate() {
            let cell = cells[FIXED.len() + i];
            if cell.is_empty() {
                continue;
            }
            let x: f64 = cell
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| {
                    err(
                        n,
                        starts[FIXED.len() + i],
                        format!("`{cell}` is not a number ({})", m.name()),
                    )
                })?;
            values[m.index()] = Some(x);
        }
        records.push(Record {
            seed,
            status,
            why,
            hash,
            values,
        });
    }
    Ok((columns, records))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_read_back_as_written() {
        let columns = [Metric::Rooms, Metric::Linearity, Metric::Distance];
        let mut values = [None; Metric::ALL.len()];
        values[Metric::Rooms.index()] = Some(12.0);
        values[Metric::Linearity.index()] = Some(0.4167);
        let records = vec![
            Record {
                seed: 7,
                status: Status::Unfinishable,
                why: "key_behind_own_lock".into(),
                hash: Some(0x00ab_cdef_0123_4567),
                values,
            },
            Record {
                seed: 8,
                status: Status::Failed,
                why: "derive:too_few_vertices".into(),
                hash: None,
                values: [None; Metric::ALL.len()],
            },
        ];
        let mut text = header(&columns) + "\n";
        for r in &records {
            text += &row(r, &columns);
        }
        assert!(text.contains("7,unfinishable,key_behind_own_lock,00abcdef01234567,12,0.4167,\n"));
        assert_eq!(read(&text).unwrap(), (columns.to_vec(), records));
    }

    #[test]
    fn bad_cells_are_located() {
        let text = "seed,status,why,hash,rooms\n1,completable,,,3\n2,completable,,,x\n";
        let e = read(text).unwrap_err();
        assert_eq!((e.line, e.column), (3, 17));
        assert!(e.message.contains("`x` is not a number"), "{e}");
        let e = read("seed,status,why,hash,room\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 22));
        let e = read("seed,status,why,hash\n1,done,,\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
    }
}
