package clock

import (
	"fmt"
	"regexp"
	"strconv"
	"time"
)

var durationPart = regexp.MustCompile(`([0-9]+(?:\.[0-9]+)?)(ms|s|m|h|d|w)`)

var durationUnit = map[string]time.Duration{
	"ms": time.Millisecond, "s": time.Second, "m": time.Minute, "h": time.Hour,
	"d": 24 * time.Hour, "w": 7 * 24 * time.Hour,
}

// ParseDuration reads a sandbox duration: Go's units plus d (24h) and w
// (7d), combinable ("1d12h"). Months and years have no fixed length; to
// reach a calendar date, set the clock instead.
func ParseDuration(s string) (time.Duration, error) {
	if s == "" {
		return 0, fmt.Errorf("duração vazia")
	}
	var total float64
	rest := s
	for rest != "" {
		loc := durationPart.FindStringSubmatchIndex(rest)
		if loc == nil || loc[0] != 0 {
			return 0, fmt.Errorf("duração %q: use um número positivo e uma unidade (ms, s, m, h, d, w), como 36h ou 1d12h; para voltar o relógio, use set", s)
		}
		n, _ := strconv.ParseFloat(rest[loc[2]:loc[3]], 64)
		total += n * float64(durationUnit[rest[loc[4]:loc[5]]])
		rest = rest[loc[1]:]
	}
	if total > float64(100*365*24*time.Hour) {
		return 0, fmt.Errorf("a duração %q passa de 100 anos", s)
	}
	return time.Duration(total), nil
}
