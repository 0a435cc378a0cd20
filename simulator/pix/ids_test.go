package pix

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// An identifier pattern's loop says what the spec's regexp says, on ids
// of every length around its bounds made of letters, digits and the
// characters next to them (and beyond ASCII).
func TestIDPatternIsTheSpecsRegexp(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	chars := []string{"a", "z", "A", "Z", "0", "9", "`", "{", "@", "[", "/", ":", "-", "_", " ", "é", "\xff"}
	for _, p := range []idPattern{txidCreate, txidAny, devolucaoID} {
		re := regexp.MustCompile(fmt.Sprintf(`^[a-zA-Z0-9]{%d,%d}$`, p.min, p.max))
		for range 20000 {
			var b strings.Builder
			n := r.IntN(p.max + 3)
			for i := range n {
				if r.IntN(8) == 0 || i == 0 {
					b.WriteString(chars[r.IntN(len(chars))])
				} else {
					b.WriteByte("abcXYZ0189"[r.IntN(10)])
				}
			}
			s := b.String()
			if got, want := p.MatchString(s), re.MatchString(s); got != want {
				t.Fatalf("%v %q: %v, the regexp says %v", p, s, got, want)
			}
		}
	}
}
