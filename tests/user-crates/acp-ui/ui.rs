//! Every case of `fail/` fails to compile with exactly the `.stderr` beside
//! it (trybuild, in `cargo check` mode).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("fail/*.rs");
}
