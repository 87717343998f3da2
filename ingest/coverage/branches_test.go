package coverage

// Branch figures read from the real tools' reports (testdata), checked
// against each tool's own branch summary of the same run, and the malformed
// branch attributes of each format.

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/plumbhq/plumb"
)

// parseBranches parses a fixture and returns each file's branch figures
// (checking they are ascending, each line once, 0 <= covered <= total) and
// the report's total and covered branches.
func parseBranches(t *testing.T, f Format, name string, opt Options) (files map[string][]plumb.LineBranches, total, covered int) {
	t.Helper()
	r, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	files = map[string][]plumb.LineBranches{}
	err = Parse(r, f, opt, func(file File) error {
		prev := 0
		for _, b := range file.Branches {
			if b.Line <= prev || b.Total < 1 || b.Covered < 0 || b.Covered > b.Total {
				t.Fatalf("%s: malformed branch figures %+v after line %d", file.Path, b, prev)
			}
			prev = b.Line
			total += b.Total
			covered += b.Covered
		}
		files[file.Path] = plumb.MergeBranches(files[file.Path], file.Branches)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, total, covered
}

// TestBranchesRealTools: each format's branches add up to the tool's own
// branch summary of the same run.
func TestBranchesRealTools(t *testing.T) {
	atoi := func(s string) int {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	// LCOV (gcc 12 + lcov 1.16): lcov --summary says 8 of 14 branches.
	if _, tot, cov := parseBranches(t, LCOV, "testdata/lcov/coverage.info", Options{}); tot != 14 || cov != 8 {
		t.Errorf("lcov: %d of %d branches, want lcov --summary's 8 of 14", cov, tot)
	}
	// gcovr 5.2: the root's branches-covered="8" branches-valid="14".
	if _, tot, cov := parseBranches(t, Cobertura, "testdata/cobertura/gcovr.xml", Options{}); tot != 14 || cov != 8 {
		t.Errorf("gcovr: %d of %d branches, want the report's 8 of 14", cov, tot)
	}
	// JaCoCo: the CSV report of the same run, BRANCH_MISSED and
	// BRANCH_COVERED per class.
	{
		f, err := os.Open("testdata/jacoco/jacoco.csv")
		if err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		wantTot, wantCov := 0, 0
		for _, row := range rows[1:] {
			wantTot += atoi(row[5]) + atoi(row[6])
			wantCov += atoi(row[6])
		}
		_, tot, cov := parseBranches(t, JaCoCo, "testdata/jacoco/jacoco.xml", Options{})
		if wantTot == 0 || tot != wantTot || cov != wantCov {
			t.Errorf("jacoco: %d of %d branches, want the CSV's %d of %d", cov, tot, wantCov, wantTot)
		}
	}
	for _, tool := range []string{"nyc", "c8"} {
		// Istanbul: coverage-summary.json's branches, in total and per file.
		data, err := os.ReadFile("testdata/istanbul/" + tool + "/coverage-summary.json")
		if err != nil {
			t.Fatal(err)
		}
		var summary map[string]struct {
			Branches struct{ Total, Covered int } `json:"branches"`
		}
		if err := json.Unmarshal(data, &summary); err != nil {
			t.Fatal(err)
		}
		opt := Options{StripPrefix: "/tmp/plumb-fixture/js"}
		files, tot, cov := parseBranches(t, Istanbul, "testdata/istanbul/"+tool+"/coverage-final.json", opt)
		if want := summary["total"].Branches; want.Total == 0 || tot != want.Total || cov != want.Covered {
			t.Errorf("%s istanbul: %d of %d branches, want the summary's %d of %d", tool, cov, tot, want.Covered, want.Total)
		}
		for p, s := range summary {
			if p == "total" {
				continue
			}
			rel, _ := MapPath(p, opt)
			gotTot, gotCov := 0, 0
			for _, b := range files[rel] {
				gotTot, gotCov = gotTot+b.Total, gotCov+b.Covered
			}
			if gotTot != s.Branches.Total || gotCov != s.Branches.Covered {
				t.Errorf("%s istanbul %s: %d of %d branches, want %d of %d", tool, rel, gotCov, gotTot, s.Branches.Covered, s.Branches.Total)
			}
		}
		// Clover from the same run: the project's conditionals, and line
		// by line the same figures as the Istanbul report.
		xml, err := os.ReadFile("testdata/clover/" + tool + "/clover.xml")
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`conditionals="(\d+)" coveredconditionals="(\d+)"`).FindSubmatch(xml)
		cfiles, tot, cov := parseBranches(t, Clover, "testdata/clover/"+tool+"/clover.xml", opt)
		if m == nil || tot != atoi(string(m[1])) || cov != atoi(string(m[2])) {
			t.Errorf("%s clover: %d of %d branches, want the project metrics' %q", tool, cov, tot, m)
		}
		if !reflect.DeepEqual(cfiles, files) {
			t.Errorf("%s: clover's branches\n%v\ndiffer from istanbul's\n%v", tool, cfiles, files)
		}
	}
}

// TestBranchesCombine: the figures a partial line needs come through
// each format, and a line named twice combines as its format says.
func TestBranchesCombine(t *testing.T) {
	lb := func(line, total, covered int) plumb.LineBranches {
		return plumb.LineBranches{Line: line, Total: total, Covered: covered}
	}
	cases := []struct {
		f    Format
		in   string
		want []plumb.LineBranches
	}{
		// LCOV: each BRDA one branch; "-" and 0 not covered; out of order
		// lines sorted; an lcov 2 expression as the branch field.
		{LCOV, "SF:a.c\nDA:3,1\nDA:7,2\nBRDA:7,0,0,1\nBRDA:7,0,1,-\nBRDA:7,0,2,0\nBRDA:3,0,(a, b) == True,4\nBRDA:3,0,1,0\nend_of_record\n",
			[]plumb.LineBranches{lb(3, 2, 1), lb(7, 3, 1)}},
		// Cobertura: the line in two classes keeps the larger figures; a
		// branch="true" line without condition-coverage and a
		// branch="false" one have none.
		{Cobertura, `<coverage><class filename="a.py"><lines><line number="2" hits="1" branch="true" condition-coverage="50% (1/2)"/>` +
			`<line number="3" hits="1" branch="true"/><line number="4" hits="1" branch="false" condition-coverage="0% (0/2)"/></lines></class>` +
			`<class filename="a.py"><lines><line number="2" hits="1" branch="true" condition-coverage="100% (2/2)"/></lines></class></coverage>`,
			[]plumb.LineBranches{lb(2, 2, 2)}},
		// JaCoCo: mb+cb branches, cb covered; none when both are 0.
		{JaCoCo, `<report name="r"><package name="p"><sourcefile name="A.java"><line nr="5" mi="0" ci="3" mb="3" cb="1"/><line nr="6" mi="0" ci="3" mb="0" cb="0"/></sourcefile></package></report>`,
			[]plumb.LineBranches{lb(5, 4, 1)}},
		// SimpleCov .resultset.json: a condition's arms on its first line;
		// two conditions on one line add up; the formatter's array of arms
		// (no condition lines) gives none.
		{SimpleCov, `{"rspec": {"coverage": {"/a.rb": {"lines": [null, 1, 1], "branches": {"[:if, 0, 2, 4, 2, 20]": {"[:then, 1, 2, 4, 2, 10]": 3, "[:else, 2, 2, 4, 2, 20]": 0},` +
			`"[:&., 3, 2, 0, 2, 9]": {"[:then, 4, 2, 0, 2, 9]": 1, "[:else, 5, 2, 0, 2, 9]": 1}}}}}}`,
			[]plumb.LineBranches{lb(2, 4, 3)}},
		{SimpleCov, `{"coverage": {"/a.rb": {"lines": [1, 0], "branches": [{"type": "then", "start_line": 2, "end_line": 2, "coverage": 0}]}}}`, nil},
		// Istanbul: two branches on one line add up; "line" wins over loc.
		{Istanbul, `{"a.js": {"statementMap": {"0": {"start": {"line": 2}}}, "s": {"0": 1}, "b": {"0": [1, 0], "1": [0, 0, 5]},
			"branchMap": {"0": {"loc": {"start": {"line": 2}}}, "1": {"line": 2, "loc": {"start": {"line": 9}}}}}}`,
			[]plumb.LineBranches{lb(2, 5, 2)}},
	}
	for _, tc := range cases {
		got, err := parseFiles(tc.f, tc.in, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.f, err)
		}
		if len(got) != 1 || !reflect.DeepEqual(got[0].Branches, tc.want) {
			t.Errorf("%s: files %+v, want branches %+v", tc.f, got, tc.want)
		}
	}
}

// TestBranchesMalformed: malformed branch data is a ParseError saying what
// was expected, never stored as partial figures.
func TestBranchesMalformed(t *testing.T) {
	cases := []struct {
		f    Format
		in   string
		line int
		msg  string
	}{
		{LCOV, "SF:a.c\nBRDA:1,0,0\nend_of_record\n", 2, "expected BRDA:<line>,<block>,<branch>,<taken> (four fields)"},
		{LCOV, "SF:a.c\nBRDA:0,0,0,1\nend_of_record\n", 2, "with a line number from 1 to"},
		{LCOV, "SF:a.c\nDA:1,1\nBRDA:1,0,0,x\nend_of_record\n", 3, `with taken "-" or a count of at least 0, got "x"`},
		{LCOV, "SF:a.c\nBRDA:1,0,0,-1\nend_of_record\n", 2, `got "-1"`},
		{LCOV, "BRDA:1,0,0,1\n", 1, "expected SF:<path> before BRDA"},
		{Cobertura, `<coverage><class filename="a.py"><lines><line number="2" hits="1" branch="true" condition-coverage="50%"/></lines></class></coverage>`, 1, `expected condition-coverage="<percent>% (<covered>/<branches>)"`},
		{Cobertura, `<coverage><class filename="a.py"><lines><line number="2" hits="1" branch="true" condition-coverage="150% (3/2)"/></lines></class></coverage>`, 1, `with 0 <= covered <= branches, got "150% (3/2)"`},
		{JaCoCo, `<report name="r"><package name="p"><sourcefile name="A.java"><line nr="5" mi="0" ci="3" mb="x" cb="1"/></sourcefile></package></report>`, 1, `expected mb="<branches>" with a whole number, got "x"`},
		{JaCoCo, `<report name="r"><package name="p"><sourcefile name="A.java"><line nr="5" mi="0" ci="3" mb="0" cb="-1"/></sourcefile></package></report>`, 1, `expected cb="<branches>" with a whole number`},
		{Clover, `<coverage><project><file path="a.js"><line num="3" type="cond" count="2" truecount="x" falsecount="1"/></file></project></coverage>`, 1, `expected truecount="<count>" with a whole number, got "x"`},
		{SimpleCov, `{"rspec": {"coverage": {"/a.rb": {"lines": [1], "branches": {"[:if, 0, x, 4, 2, 20]": {}}}}}}`, 1, `expected a condition key "[:<type>, <id>, <line>, <column>, <line>, <column>]" with a line from 1 to 4194304, got "[:if, 0, x, 4, 2, 20]"`},
		{SimpleCov, `{"rspec": {"coverage": {"/a.rb": {"lines": [1], "branches": {"[:if, 0, 1, 4, 2, 20]": {"[:then, 1, 1, 4, 1, 10]": "many"}}}}}}`, 1, `expected a whole number of hits, got`},
		{Istanbul, `{"a.js": {"statementMap": {}, "s": {}, "branchMap": {}, "b": {"0": [1, 0]}}}`, 1, `expected counts for a branch of "branchMap", got some for branch "0"`},
		{Istanbul, `{"a.js": {"statementMap": {}, "s": {}, "branchMap": {"0": {"loc": {"start": {"line": 1}}}}, "b": {"0": [1, -2]}}}`, 1, "expected a whole number of hits, got"},
		{Istanbul, `{"a.js": {"statementMap": {}, "s": {}, "branchMap": {"0": {"type": "if"}}, "b": {}}}`, 1, "expected the branch's line"},
		{Istanbul, `{"a.js": {"statementMap": {}, "s": {}, "branchMap": {}, "b": {"0": 3}}}`, 1, "expected an array of counts"},
	}
	for _, tc := range cases {
		_, err := parseFiles(tc.f, tc.in, Options{})
		wantParseError(t, err, tc.f, tc.line, tc.msg)
		if !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v", tc.f, err)
		}
	}
}

// TestBranchesSimpleCovRealTool: SimpleCov 0.22 with branch coverage
// (testdata/simplecov/branches, two commands): per file, the branches equal
// SimpleCov's own total; the covered ones, merged across the commands by
// maximum as the store merges, its covered count here too.
func TestBranchesSimpleCovRealTool(t *testing.T) {
	data, err := os.ReadFile("testdata/simplecov/branches/summary.json")
	if err != nil {
		t.Fatal(err)
	}
	var summary struct {
		Files []struct {
			Filename string
			Covered  int `json:"covered_branches"`
			Total    int `json:"total_branches"`
		}
	}
	if err := json.Unmarshal(data, &summary); err != nil {
		t.Fatal(err)
	}
	opt := Options{StripPrefix: "/tmp/plumb-fixture/ruby"}
	files, _, _ := parseBranches(t, SimpleCov, "testdata/simplecov/branches/.resultset.json", opt)
	if len(summary.Files) != 3 {
		t.Fatalf("summary: %+v", summary)
	}
	for _, s := range summary.Files {
		rel, _ := MapPath(s.Filename, opt)
		tot, cov := 0, 0
		for _, b := range files[rel] {
			tot, cov = tot+b.Total, cov+b.Covered
		}
		if tot != s.Total || cov != s.Covered {
			t.Errorf("%s: %d of %d branches, want SimpleCov's %d of %d", rel, cov, tot, s.Covered, s.Total)
		}
	}
}
