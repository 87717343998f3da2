(* An OCaml fixture: nested (* comments *) and strings *)
let greeting = "(* not a comment *)"

(* a comment
   (* nested *)
   still a comment *)
let f x = x + 1 (* trailing *)
let g = (* inline *) 2
