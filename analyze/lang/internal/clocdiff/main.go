// Command clocdiff compares this package's line counts with a cloc
// --by-file --json report of the same tree:
//
//	cloc --quiet --by-file --skip-uniqueness --json --out=ref.json DIR
//	go run ./analyze/lang/internal/clocdiff ref.json DIR
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/plumbhq/plumb/analyze/lang"
)

func main() {
	b, err := os.ReadFile(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	root := os.Args[2]
	var ref map[string]json.RawMessage
	if err := json.Unmarshal(b, &ref); err != nil {
		log.Fatal(err)
	}
	type entry struct {
		Blank, Comment, Code int
		Language             string
	}
	same, diff, langDiff, missing := 0, 0, 0, 0
	byLang := map[string][2]int{}
	var out []string
	for name, raw := range ref {
		if name == "header" || name == "SUM" {
			continue
		}
		var e entry
		json.Unmarshal(raw, &e)
		src, err := os.ReadFile(name)
		if err != nil {
			missing++
			continue
		}
		rel, _ := filepath.Rel(root, name)
		head := src
		if len(head) > 1024 {
			head = head[:1024]
		}
		l := lang.Detect(rel, head)
		if l == nil {
			missing++
			out = append(out, fmt.Sprintf("NOLANG %s (cloc: %s)", rel, e.Language))
			continue
		}
		if l.Name != e.Language {
			langDiff++
			out = append(out, fmt.Sprintf("LANG %s: %s vs cloc %s", rel, l.Name, e.Language))
		}
		c := l.Count(src)
		bl := byLang[e.Language]
		bl[1]++
		if c.Blank == e.Blank && c.Comment == e.Comment && c.Code == e.Code {
			same++
			bl[0]++
		} else {
			diff++
			out = append(out, fmt.Sprintf("DIFF %s [%s]: ours b%d c%d k%d, cloc b%d c%d k%d", rel, l.Name, c.Blank, c.Comment, c.Code, e.Blank, e.Comment, e.Code))
		}
		byLang[e.Language] = bl
	}
	sort.Strings(out)
	for _, o := range out {
		fmt.Println(o)
	}
	var ls []string
	for l, v := range byLang {
		ls = append(ls, fmt.Sprintf("%s %d/%d", l, v[0], v[1]))
	}
	sort.Strings(ls)
	fmt.Println(strings.Join(ls, "; "))
	total := same + diff + missing
	fmt.Printf("files %d: same %d (%.2f%%), different %d, language differs %d, not detected/unreadable %d\n", total, same, 100*float64(same)/float64(total), diff, langDiff, missing)
}
