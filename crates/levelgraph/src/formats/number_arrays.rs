//! Pretty JSON with every array of numbers on one line (`[3, 4]`), the
//! layout of `layout.json`, written as it goes: serde_json's
//! `PrettyFormatter` for everything else.
//!
//! An array is put on one line when its first value is a number; the
//! documents written this way hold arrays of one kind of value only, so
//! that is the same as "all its values are numbers". Whether it is known
//! only at that first value, so the line break that the pretty layout
//! writes before it waits until then.

use std::io::{self, Write};

use serde::Serialize;
use serde_json::ser::{Formatter, PrettyFormatter};

/// Writes `value` as pretty JSON (two-space indentation) with arrays of
/// numbers on one line, then a newline, to `w` as it goes.
pub(crate) fn write_pretty<W: Write, T: Serialize + ?Sized>(mut w: W, value: &T) -> io::Result<()> {
    let formatter = NumberArraysInline {
        pretty: PrettyFormatter::new(),
        arrays: Vec::new(),
        first_pending: false,
    };
    let mut serializer = serde_json::Serializer::with_formatter(&mut w, formatter);
    value.serialize(&mut serializer).map_err(io::Error::from)?;
    w.write_all(b"\n")
}

/// How an open array is laid out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Array {
    /// No value yet.
    Undecided,
    /// Numbers: `[3, 4]`.
    Inline,
    /// Anything else: a value a line, as `PrettyFormatter` writes it.
    Pretty,
}

/// `PrettyFormatter` with arrays of numbers on one line.
struct NumberArraysInline<'a> {
    pretty: PrettyFormatter<'a>,
    /// The open arrays, innermost last.
    arrays: Vec<Array>,
    /// The innermost array's first value is about to be written, and the
    /// pretty line break before it is not written yet.
    first_pending: bool,
}

impl NumberArraysInline<'_> {
    /// Before a value: settles a pending first value's array as inline
    /// (`number`) or pretty, writing the pretty line break for the latter.
    fn value<W: ?Sized + Write>(&mut self, w: &mut W, number: bool) -> io::Result<()> {
        if !std::mem::take(&mut self.first_pending) {
            return Ok(());
        }
        let top = self
            .arrays
            .last_mut()
            .expect("a pending value is in an array");
        if number {
            *top = Array::Inline;
            Ok(())
        } else {
            *top = Array::Pretty;
            self.pretty.begin_array_value(w, true)
        }
    }
}

/// Every number writer: settle the array, then write as serde_json does.
macro_rules! numbers {
    ($($name:ident: $t:ty),*) => {$(
        fn $name<W: ?Sized + Write>(&mut self, w: &mut W, v: $t) -> io::Result<()> {
            self.value(w, true)?;
            self.pretty.$name(w, v)
        }
    )*};
}

impl Formatter for NumberArraysInline<'_> {
    numbers!(write_i8: i8, write_i16: i16, write_i32: i32, write_i64: i64, write_i128: i128,
        write_u8: u8, write_u16: u16, write_u32: u32, write_u64: u64, write_u128: u128,
        write_f32: f32, write_f64: f64, write_number_str: &str);

    fn write_null<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.value(w, false)?;
        self.pretty.write_null(w)
    }

    fn write_bool<W: ?Sized + Write>(&mut self, w: &mut W, v: bool) -> io::Result<()> {
        self.value(w, false)?;
        self.pretty.write_bool(w, v)
    }

    fn begin_string<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.value(w, false)?;
        self.pretty.begin_string(w)
    }

    fn write_byte_array<W: ?Sized + Write>(&mut self, w: &mut W, v: &[u8]) -> io::Result<()> {
        self.value(w, false)?;
        self.pretty.write_byte_array(w, v)
    }

    fn write_raw_fragment<W: ?Sized + Write>(&mut self, w: &mut W, v: &str) -> io::Result<()> {
        self.value(w, false)?;
        self.pretty.write_raw_fragment(w, v)
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.value(w, false)?;
        self.pretty.begin_object(w)
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.end_object(w)
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.pretty.begin_object_key(w, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.begin_object_value(w)
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.end_object_value(w)
    }

    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.value(w, false)?;
        self.arrays.push(Array::Undecided);
        self.pretty.begin_array(w)
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        match self.arrays.last() {
            Some(Array::Inline) => w.write_all(b", "),
            Some(Array::Pretty) => self.pretty.begin_array_value(w, first),
            _ => {
                self.first_pending = true;
                Ok(())
            }
        }
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.pretty.end_array_value(w)
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        match self.arrays.pop() {
            Some(Array::Inline) => {
                // The pretty formatter keeps its indentation; the line
                // break it would write before `]` is not wanted here.
                self.pretty.end_array(&mut io::sink())?;
                w.write_all(b"]")
            }
            _ => self.pretty.end_array(w),
        }
    }
}
