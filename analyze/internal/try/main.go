// Command try runs an analysis and prints a summary (development aid).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/plumbhq/plumb/analyze"
)

func main() {
	if p := os.Getenv("CPUPROFILE"); p != "" {
		f, _ := os.Create(p)
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	t0 := time.Now()
	res, err := analyze.Run(context.Background(), analyze.Options{Dir: os.Args[1]})
	if err != nil {
		fmt.Println(err)
		return
	}
	lines, code, cx, dup := 0, 0, 0, 0
	for _, f := range res.Files {
		lines += f.Lines
		code += f.Code
		cx += f.Complexity
		dup += f.DuplicatedLines
	}
	fmt.Printf("%d files, %d lines, %d code, complexity %d, duplicated %d, %d clones, %d issues, %d skipped, %d excluded in %v\n",
		len(res.Files), lines, code, cx, dup, len(res.Clones), len(res.Issues), len(res.Skipped), res.Excluded, time.Since(t0))
	if len(os.Args) > 2 {
		b, _ := json.MarshalIndent(res, "", " ")
		os.WriteFile(os.Args[2], b, 0o644)
	}
}
