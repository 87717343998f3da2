package openapi

import (
	"os"
	"testing"
)

func TestDumpTmp(t *testing.T) { os.WriteFile("/tmp/dropin-oapi/openapi.json", Document(), 0o644) }
