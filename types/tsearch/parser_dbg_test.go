package tsearch

import (
	"fmt"
	"os"
	"testing"
)

func TestDumpParse(t *testing.T) {
	s := os.Getenv("TSP")
	if s == "" {
		t.Skip()
	}
	for _, tk := range Parse(s) {
		fmt.Printf("%s|%s\n", TokenAliases[tk.Type], tk.Text)
	}
}
