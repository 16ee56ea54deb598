//! The derive's compile errors: each case of `fail/` must fail to compile
//! with exactly the `.stderr` beside it (trybuild, in `cargo check` mode).
//! The cases of `pass/` are test targets of their own (Cargo.toml).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("fail/*.rs");
}

/// Every case of `pass/` is a test target in Cargo.toml: one left out would
/// never be compiled.
#[test]
fn every_pass_case_is_a_test_target() {
    let manifest = include_str!("Cargo.toml");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("pass");
    let mut missing = Vec::new();
    let mut cases = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/ui/pass") {
        let name = entry.expect("a directory entry").file_name();
        let name = name.to_str().expect("a UTF-8 file name");
        if let Some(stem) = name.strip_suffix(".rs") {
            cases += 1;
            let target = format!("name = \"pass_{stem}\"\npath = \"pass/{name}\"\nharness = false");
            if !manifest.contains(&target) {
                missing.push(name.to_owned());
            }
        }
    }
    assert!(cases > 0, "no case in {}", dir.display());
    assert!(
        missing.is_empty(),
        "pass cases without a [[test]] target in tests/ui/Cargo.toml: {missing:?}"
    );
}
