// Hand-scored fixture (docs/analyze.md).
use std::collections::HashMap;

struct Point<'a> {
    name: &'a str,
}

// cognitive: branches 3 params 2 nesting 1
fn branches(a: i32, b: i32) -> i32 {
    if a > b { // +1
        1
    } else if a < b { // +1
        2
    } else { // +1
        3
    }
}

// cognitive: loops 7 nesting 3
fn loops(xs: &mut Vec<i32>) -> Result<(), String> {
    'outer: for x in xs.iter() { // +1
        while *x > 0 { // +2
            loop { // +3
                break 'outer; // +1
            }
        }
    }
    let v = f()?;
    Ok(v)
}

// cognitive: matches 4
fn matches(x: Option<i32>) -> i32 {
    match x { // +1
        Some(v) if v > 0 => {
            if v > 10 { // +2 (nesting 1)
                return 1;
            }
            v
        }
        Some(_) | None => 0 && 1, // +1 (a run of &&)
    }
}

impl Point<'_> {
    // cognitive: fact 2 params 1
    fn fact(n: u64) -> u64 {
        if n <= 1 { return 1; } // +1
        n * fact(n - 1) // +1
    }

    // cognitive: logic 3 params 4
    pub fn logic(&self, a: bool, b: bool, c: bool) -> bool {
        let y = f(a || b); // +1
        a && b && c || y // +1 +1
    }

    // cognitive: closures 2
    fn closures(&self, xs: Vec<i32>) -> usize {
        xs.iter().filter(|x| {
            if **x > 0 { // +2 (closure nesting)
                return true;
            }
            false
        }).count()
    }

    // cognitive: more 11 params 2 nesting 3
    fn more(&self, xs: &[Option<i32>]) -> i32 {
        let mut n = 0;
        'rows: while let Some(x) = xs.first() { // +1
            if let Some(v) = x { // +2
                for _ in 0..*v { // +3
                    continue 'rows; // +1
                }
            }
        }
        let f = |x: i32| x > 0 && x < 9; // a closure: && +1
        n += xs.iter().map(|x| if x.is_some() { 1 } else { 0 }).sum::<i32>(); // a closure (nesting +1): if +2, else +1
        n
    }
}
