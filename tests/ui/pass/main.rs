//! The cases that must compile and run, each a module of one test binary
//! (one link, not one a case): each `main` asserts. A case's own crate
//! paths name its module (`crate::<case>::sdk`).

#[path = "alias_and_generic.rs"]
mod alias_and_generic;
#[path = "allow_empty.rs"]
mod allow_empty;
#[path = "check.rs"]
mod check;
#[path = "flatten.rs"]
mod flatten;
#[path = "full_form.rs"]
mod full_form;
#[path = "not_secret.rs"]
mod not_secret;
#[path = "ordinary_names.rs"]
mod ordinary_names;
#[path = "reexported_crate.rs"]
mod reexported_crate;
#[path = "serde_rename_orders.rs"]
mod serde_rename_orders;
#[path = "serde_renames.rs"]
mod serde_renames;
#[path = "typed_fields.rs"]
mod typed_fields;

fn main() {
    let cases: [(&str, fn()); 11] = [
        ("alias_and_generic", alias_and_generic::main),
        ("allow_empty", allow_empty::main),
        ("check", check::main),
        ("flatten", flatten::main),
        ("full_form", full_form::main),
        ("not_secret", not_secret::main),
        ("ordinary_names", ordinary_names::main),
        ("reexported_crate", reexported_crate::main),
        ("serde_rename_orders", serde_rename_orders::main),
        ("serde_renames", serde_renames::main),
        ("typed_fields", typed_fields::main),
    ];
    for (name, case) in cases {
        case();
        println!("pass/{name}.rs: ok");
    }
}
