//! The derive's compile errors: each case of `fail/` must fail to compile
//! with exactly the `.stderr` beside it (trybuild, in `cargo check` mode).
//! The cases of `pass/` are test targets of their own (Cargo.toml).

#[test]
fn ui() {
    // trybuild checks the dependencies with its flags, then the cases with
    // one more (`--diagnostic-width=140`): other flags, so a fresh run checked
    // every dependency twice (about 35 CPU-s). Its `cargo` keeps this
    // variable (it drops only `RUSTFLAGS`), which takes precedence over the
    // flags it passes with `--config`: both steps get the flags trybuild
    // 1.0.122 gives the cases, and the dependencies are checked once. Not
    // where the caller set flags of their own (coverage, ...).
    if std::env::var_os("RUSTFLAGS").is_none()
        && std::env::var_os("CARGO_ENCODED_RUSTFLAGS").is_none()
    {
        let flags = [
            "--cfg",
            "trybuild",
            "--verbose",
            "-A",
            "dead_code",
            "--diagnostic-width=140",
        ];
        // SAFETY: no thread of this test binary reaches the environment
        // other than through `std::env` (the other test reads none).
        unsafe { std::env::set_var("CARGO_ENCODED_RUSTFLAGS", flags.join("\x1f")) };
    }
    let t = trybuild::TestCases::new();
    t.compile_fail("fail/*.rs");
}

/// Every case of `pass/` is a module of `pass/main.rs`, and run by it: one
/// left out would never be compiled.
#[test]
fn every_pass_case_is_run() {
    let runner = include_str!("pass/main.rs");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("pass");
    let mut missing = Vec::new();
    let mut cases = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/ui/pass") {
        let name = entry.expect("a directory entry").file_name();
        let name = name.to_str().expect("a UTF-8 file name");
        if let Some(stem) = name.strip_suffix(".rs")
            && stem != "main"
        {
            cases += 1;
            let module = format!("#[path = \"{name}\"]\nmod {stem};");
            let run = format!("(\"{stem}\", {stem}::main),");
            if !runner.contains(&module) || !runner.contains(&run) {
                missing.push(name.to_owned());
            }
        }
    }
    assert!(cases > 0, "no case in {}", dir.display());
    assert!(
        missing.is_empty(),
        "pass cases that tests/ui/pass/main.rs does not run: {missing:?}"
    );
}
