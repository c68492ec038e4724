//! Independent layout validity checker (placeholder: being written).
