// Command jscpdcompare compares this package's clone detection with a
// jscpd JSON report of the same files (docs/analyze.md, "Duplication"):
//
//	jscpd --min-tokens 50 --min-lines 5 --reporters json --output OUT DIR
//	go run ./analyze/internal/jscpdcompare OUT/jscpd-report.json [normalise]
//
// Both sides are reduced to the same figure, the lines of each file that
// some clone covers (on either side), over the files jscpd read.
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"

	"github.com/plumbhq/plumb/analyze/dup"
	"github.com/plumbhq/plumb/analyze/lang"
)

type loc struct {
	Name  string `json:"name"`
	Start int    `json:"start"`
	End   int    `json:"end"`
}

func main() {
	b, err := os.ReadFile(os.Args[1])
	if err != nil {
		log.Fatal(err)
	}
	normalise := len(os.Args) > 2 && os.Args[2] == "normalise"
	var rep struct {
		Statistics struct {
			Formats map[string]struct {
				Sources map[string]json.RawMessage `json:"sources"`
			} `json:"formats"`
		} `json:"statistics"`
		Duplicates []struct {
			FirstFile  loc `json:"firstFile"`
			SecondFile loc `json:"secondFile"`
		} `json:"duplicates"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		log.Fatal(err)
	}
	theirs := map[string][][2]int32{}
	var names []string
	for _, f := range rep.Statistics.Formats {
		for name := range f.Sources {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, d := range rep.Duplicates {
		for _, l := range []loc{d.FirstFile, d.SecondFile} {
			name, _ := filepath.Abs(l.Name) // clones name files relative to jscpd's directory
			theirs[name] = append(theirs[name], [2]int32{int32(l.Start), int32(l.End)})
		}
	}
	var docs []dup.Doc
	totalLines := 0
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			log.Fatal(err)
		}
		l := lang.Detect(filepath.Base(name), src)
		if l == nil {
			continue
		}
		totalLines += l.Count(src).Lines
		g := 0
		if l.Name == "TypeScript" {
			g = 1
		}
		docs = append(docs, dup.Doc{Index: len(docs), Path: name, Group: g, Tokens: dup.Tokenize(l.Name, src, normalise)})
	}
	clones, lines := dup.Detect(docs, dup.Options{MinTokens: 50, MinLines: 5})
	ours, their := 0, 0
	for i, d := range docs {
		ours += lines[i]
		t := union(theirs[d.Path])
		their += t
		if os.Getenv("VERBOSE") != "" && t != lines[i] {
			fmt.Printf("%s: ours %d, jscpd %d\n", d.Path, lines[i], t)
		}
	}
	fmt.Printf("%d files, %d lines; duplicated lines (union of clone lines per file): ours %d (%d clones), jscpd %d (%d clones); ours/jscpd = %.3f\n",
		len(docs), totalLines, ours, len(clones), their, len(rep.Duplicates), float64(ours)/float64(their))
}

func union(rs [][2]int32) int {
	if len(rs) == 0 {
		return 0
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i][0] < rs[j][0] })
	n := 0
	cs, ce := rs[0][0], rs[0][1]
	for _, r := range rs[1:] {
		if r[0] > ce+1 {
			n += int(ce-cs) + 1
			cs, ce = r[0], r[1]
		} else if r[1] > ce {
			ce = r[1]
		}
	}
	return n + int(ce-cs) + 1
}
