package sqltest

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// RedisEnv names the variable holding the Redis server for tests.
const RedisEnv = "PLUMB_TEST_REDIS_URL"

// Hooks that tests replace.
var (
	openTTY  = func() (io.WriteCloser, error) { return os.OpenFile("/dev/tty", os.O_WRONLY, 0) }
	noteDir  = os.TempDir
	parentID = os.Getppid
)

// NoteSkipped says once per "go test" run that a backend's tests were
// skipped, and what to set to run them. "go test ./..." shows nothing of a
// passing package's output without -v, so the line goes to the terminal
// when there is one (once for all the packages of the run: the first test
// binary of the go command to get there writes it), and to stdout otherwise.
func NoteSkipped(backend, msg string) {
	line := fmt.Sprintf("note: %s tests skipped: %s\n", backend, msg)
	tty, err := openTTY()
	if err != nil {
		fmt.Print(line)
		return
	}
	defer tty.Close()
	// The test binaries of one go test run share their parent, the go
	// command: one marker file per parent and backend.
	marker := filepath.Join(noteDir(), "plumb-test-skipped-"+strconv.Itoa(parentID())+"-"+backend)
	f, err := os.OpenFile(marker, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return // another package said it
	}
	f.Close()
	io.WriteString(tty, line)
}

// NoteRedis notes the skipped Redis tests when RedisEnv is not set.
func NoteRedis() {
	if os.Getenv(RedisEnv) == "" {
		NoteSkipped("Redis", "set "+RedisEnv+" (e.g. redis://127.0.0.1:6379/0) to run them against a real Redis")
	}
}
