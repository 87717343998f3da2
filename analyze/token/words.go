package token

// WordSet is a fixed set of words (keywords) for the lexer's callers:
// asked for nearly every identifier of a file, it answers without
// hashing a whole word, and most identifiers that are not in it are told
// so at their first probe. The zero WordSet is empty.
type WordSet struct {
	slots []string // open addressing, at most a quarter full; "" is empty
	mask  uint32
}

// NewWordSet makes the set of words (the empty word is left out).
func NewWordSet(words ...string) WordSet {
	size := 16
	for size < 4*len(words) {
		size <<= 1
	}
	ws := WordSet{slots: make([]string, size), mask: uint32(size - 1)}
	for _, w := range words {
		if w == "" || ws.Has(w) {
			continue
		}
		i := wordHash(w) & ws.mask
		for ws.slots[i] != "" {
			i = (i + 1) & ws.mask
		}
		ws.slots[i] = w
	}
	return ws
}

// wordHash mixes a word's length and its first, middle and last bytes.
func wordHash(w string) uint32 {
	h := uint32(len(w))*0x9e3779b1 ^ uint32(w[0])*0x85ebca77 ^ uint32(w[len(w)/2])*0x27d4eb2f ^ uint32(w[len(w)-1])*0xc2b2ae3d
	return h ^ h>>15
}

// Has reports whether w is in the set.
func (ws WordSet) Has(w string) bool {
	if w == "" || ws.slots == nil {
		return false
	}
	for i := wordHash(w) & ws.mask; ; i = (i + 1) & ws.mask {
		switch ws.slots[i] {
		case w:
			return true
		case "":
			return false
		}
	}
}

// HasBytes is Has for a word in bytes (without a copy).
func (ws WordSet) HasBytes(w []byte) bool { return ws.Has(string(w)) }
