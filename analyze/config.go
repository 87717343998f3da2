package analyze

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

// ConfigFile is the name of the configuration file read at the root of
// the analysed tree.
const ConfigFile = ".plumb.yml"

// Thresholds are the limits above which the analysis reports an issue
// (docs/analyze.md). 0 (or absent) means the default; -1 turns the check off.
type Thresholds struct {
	// CognitiveComplexity of one function (SonarQube's default, 15).
	CognitiveComplexity int `yaml:"cognitiveComplexity"`
	// Parameters of one function (SonarQube's default, 7).
	Parameters int `yaml:"parameters"`
	// FunctionLines: physical lines of one function, signature to end.
	FunctionLines int `yaml:"functionLines"`
	// FileLines: lines of code of one file.
	FileLines int `yaml:"fileLines"`
	// Nesting: depth of nested control-flow blocks in one function.
	Nesting int `yaml:"nesting"`
}

// DefaultThresholds are used for every threshold the configuration does
// not set.
var DefaultThresholds = Thresholds{
	CognitiveComplexity: 15,
	Parameters:          7,
	FunctionLines:       100,
	FileLines:           1000,
	Nesting:             4,
}

// Config is the "analyze" section of .plumb.yml:
//
//	analyze:
//	  exclude: ["docs/**", "*.pb.go"]
//	  vendored: false        # analyse vendor/, node_modules/… too
//	  generated: false       # analyse generated files too
//	  duplication:
//	    minTokens: 50
//	  thresholds:
//	    cognitiveComplexity: 15
type Config struct {
	Exclude     []string   `yaml:"exclude"`
	Vendored    *bool      `yaml:"vendored"`
	Generated   *bool      `yaml:"generated"`
	MaxFileSize int64      `yaml:"maxFileSize"`
	Duplication DupConfig  `yaml:"duplication"`
	Thresholds  Thresholds `yaml:"thresholds"`
}

// DupConfig configures clone detection.
type DupConfig struct {
	Off bool `yaml:"off"`
	// Exact compares identifiers and literals as written (as jscpd and
	// CPD do by default) instead of normalising them.
	Exact     bool `yaml:"exact"`
	MinTokens int  `yaml:"minTokens"`
	MinLines  int  `yaml:"minLines"`
}

// Defaults for the configuration.
const (
	DefaultMinTokens   = 50
	DefaultMinLines    = 5
	DefaultMaxFileSize = 2 << 20
)

// LoadConfig reads dir/.plumb.yml when it exists; a missing file is the
// default configuration.
func LoadConfig(dir string) (Config, error) {
	var c Config
	b, err := os.ReadFile(filepath.Join(dir, ConfigFile))
	if errors.Is(err, os.ErrNotExist) {
		return c.withDefaults(), nil
	}
	if err != nil {
		return c, err
	}
	c, err = ParseConfig(b)
	if err != nil {
		return c, fmt.Errorf("%s: %w", ConfigFile, err)
	}
	return c, nil
}

// ParseConfig reads the configuration from YAML; unknown keys of the
// analyze section are errors.
func ParseConfig(b []byte) (Config, error) {
	var doc struct {
		Analyze yaml.Node `yaml:"analyze"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return Config{}, err
	}
	var c Config
	if doc.Analyze.Kind != 0 {
		var buf bytes.Buffer
		enc := yaml.NewEncoder(&buf)
		if err := enc.Encode(&doc.Analyze); err != nil {
			return c, err
		}
		dec := yaml.NewDecoder(&buf)
		dec.KnownFields(true)
		if err := dec.Decode(&c); err != nil {
			return c, fmt.Errorf("analyze: %w", err)
		}
	}
	t := c.Thresholds
	for _, v := range []int{t.CognitiveComplexity, t.Parameters, t.FunctionLines, t.FileLines, t.Nesting, c.Duplication.MinTokens, c.Duplication.MinLines} {
		if v < -1 {
			return c, errors.New("analyze: thresholds and minimums must be -1 (off), 0 (default) or positive")
		}
	}
	return c.withDefaults(), nil
}

func (c Config) withDefaults() Config {
	d := DefaultThresholds
	t := &c.Thresholds
	for _, p := range []struct {
		v *int
		d int
	}{
		{&t.CognitiveComplexity, d.CognitiveComplexity}, {&t.Parameters, d.Parameters},
		{&t.FunctionLines, d.FunctionLines}, {&t.FileLines, d.FileLines}, {&t.Nesting, d.Nesting},
		{&c.Duplication.MinTokens, DefaultMinTokens}, {&c.Duplication.MinLines, DefaultMinLines},
	} {
		if *p.v == 0 {
			*p.v = p.d
		}
	}
	if c.MaxFileSize == 0 {
		c.MaxFileSize = DefaultMaxFileSize
	}
	return c
}
