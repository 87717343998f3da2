package plumb

// ClonePlace is where one copy of a duplicated block is: lines StartLine to
// EndLine (1-based, inclusive) of Path.
type ClonePlace struct {
	Path      string
	StartLine int
	EndLine   int
}

// Clone is one duplicated block of an analysis: an earlier copy (A), a
// later one (B), and its length in lines as the analyzer counted it.
type Clone struct {
	A, B  ClonePlace
	Lines int
}

// FileClone is a duplicated block of a file as the file's page shows it:
// its place in the file (Here), its length in lines as the analyzer counted
// it, and the place of its other copy (Other: another file, or elsewhere in
// the same file).
type FileClone struct {
	Here  ClonePlace
	Other ClonePlace
	Lines int
}
