package fixtures

import "fmt"

// Every construct of the definition, as gocognit scores it.

func ifElse(a, b int) int { // if 1, else if 1, else 1 = 3
	if a > b {
		return a
	} else if a < b {
		return b
	} else {
		return 0
	}
}

func nested(xs []int) (n int) { // for 1, if 2, for 3, if 4 = 10
	for _, x := range xs {
		if x > 0 {
			for i := 0; i < x; i++ {
				if i%2 == 0 {
					n++
				}
			}
		}
	}
	return
}

func logic(a, b, c, d bool) bool { // && 1, || 1, && 1 = 3; if 1 = 4
	if a && b || c && d {
		return true
	}
	return false
}

func sameOps(a, b, c bool) bool { // a run of one operator: 1
	return a && b && (c && a)
}

func negated(a, b, c bool) bool { // ! stops a run: 2
	return !(a && b) || c
}

func calls(a, b bool) bool { // a call starts a new expression: 2
	return a && fmt.Sprint(b || a) != ""
}

func switches(x any, ch chan int) { // switch 1, type switch 1, select 1, if 2 = 5
	switch x {
	case 1:
	}
	switch x.(type) {
	case int:
	}
	select {
	case v := <-ch:
		if v > 0 {
			return
		}
	}
}

func labels(xs [][]int) { // for 1, for 2, break label 1, continue label 1, goto 1, if 3, if 3 = 12
outer:
	for _, row := range xs {
		for _, v := range row {
			if v < 0 {
				break outer
			}
			if v == 0 {
				continue outer
			}
		}
	}
	goto end
end:
}

func closures() func() int { // func literal nests: if 2 = 2
	return func() int {
		if true {
			return 1
		}
		return 0
	}
}

func fact(n int) int { // recursion 1, if 1 = 2
	if n <= 1 {
		return 1
	}
	return n * fact(n-1)
}

func even(n int) bool { // indirect recursion with odd: 1, if 1 = 2
	if n == 0 {
		return true
	}
	return odd(n - 1)
}

func odd(n int) bool { // 1 + if 1 = 2
	if n == 0 {
		return false
	}
	return even(n - 1)
}

type T struct{ next *T }

func (t *T) walk() int { // method recursion through the receiver: 1, if 1 = 2
	if t == nil {
		return 0
	}
	return 1 + t.walk()
}

func (t T) shadow(fact func(int) int) int { // a parameter named fact is not the function: 0
	return fact(1)
}

func deep(a, b, c, d, e bool) int { // if 1, if 2, if 3, if 4, if 5 = 15; nesting 5
	if a {
		if b {
			if c {
				if d {
					if e {
						return 1
					}
				}
			}
		}
	}
	return 0
}

func conditions(m map[string]int) int { // if-init and else blocks: if 1, else 1, for 2 (nested in else) = 4
	if v, ok := m["a"]; ok {
		return v
	} else {
		for k := range m {
			_ = k
		}
	}
	return 0
}

func generic[T any](xs []T, f func(T) bool) (out []T) { // for 1, if 2 = 3
	for _, x := range xs {
		if f(x) {
			out = append(out, x)
		}
	}
	return
}

func loops() { // for {} 1, for cond 1 = 2
	for {
		break
	}
	i := 0
	for i < 3 {
		i++
	}
}

func lits() []func() { // two literals, each if at nesting 1: 2 + 2 = 4
	return []func(){
		func() {
			if true {
			}
		},
		func() {
			if false {
			}
		},
	}
}

func parens(a, b, c bool) bool { // (a || b) && c: || 1, && 1 = 2
	return (a || b) && c
}

func compare(a, b, c bool) bool { // == separates nothing: a && (b == (c || a)) → && 1, || 1 = 2
	return a && (b == (c || a))
}

func empty() {}

func decl()

func deferred() { // defer func literal: if 2 = 2
	defer func() {
		if r := recover(); r != nil {
		}
	}()
}

func elseIfChain(x int) string { // if 1, else if 1, else if 1, else 1 = 4; inner if in else-if body nesting 1: 2 → 6
	if x == 1 {
		return "a"
	} else if x == 2 {
		if x > 0 {
			return "b"
		}
	} else if x == 3 {
		return "c"
	} else {
		return "d"
	}
	return ""
}

func goroutine(ch chan int) { // go func literal nests: for 2 = 2
	go func() {
		for range ch {
		}
	}()
}
