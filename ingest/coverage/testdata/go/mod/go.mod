module example.com/plumbfixture

go 1.26
