// Rule: raw identifiers (r#match) are names; &&T is a reference, no operator.
// cognitive: raw 2
fn raw(x: &&str, r#match: bool) -> bool {
    let r#loop = &&x;
    if r#match { true } else { false } // +1 if, +1 else
}
