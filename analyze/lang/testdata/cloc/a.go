package a

// comment
import "fmt" // trailing

/*
block

	more
*/
func f() { s := "/* not a comment */"; fmt.Println(s) }

var x = `raw
// inside raw
`

/* a */ /* b */
