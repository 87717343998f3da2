package pkgrec

type node struct{ kids []*node }

// size calls itself on another receiver (k.size()): without types,
// gocognit sees no recursion there. count and total call each other.
func (n *node) size() int { // for 1 = 1
	t := 1
	for _, k := range n.kids {
		t += k.size()
	}
	return t
}

func count(n *node) int { // recursion 1, if 1 = 2
	if n == nil {
		return 0
	}
	return n.size() + total(n.kids)
}

func total(ns []*node) int { // for 1, recursion 1 = 2
	s := 0
	for _, n := range ns {
		s += count(n)
	}
	return s
}
