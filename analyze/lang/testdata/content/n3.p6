a :- b.
