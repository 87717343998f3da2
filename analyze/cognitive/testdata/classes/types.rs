// Rule: references (&&T), bounds and ? (error propagation) are no control flow.
// cognitive: parse 0
fn parse<T: FromStr + Debug>(s: &&str) -> Result<T, T::Err> where T: Clone {
    let v = s.parse::<T>()?;
    Ok(v)
}
