#![no_main]
// The body is levelgraph_fuzz::grammar_json (src/lib.rs), which the library's test
// suite also runs over this target's seed corpus.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    levelgraph_fuzz::grammar_json(data);
});
