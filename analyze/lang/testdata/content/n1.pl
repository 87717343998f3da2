a :- b.
c.
