fn main() {
    /* outer /* inner */ still */
    let s = "// no";
}
