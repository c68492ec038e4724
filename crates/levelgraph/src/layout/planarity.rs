//! Planarity test with embedding (placeholder: being written).
