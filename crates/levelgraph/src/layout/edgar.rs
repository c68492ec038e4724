//! Edgar-DotNet YAML input (placeholder: being written).
