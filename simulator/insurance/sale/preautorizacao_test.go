package sale

import (
	"strings"
	"testing"
	"time"
)

func TestCheckValidade(t *testing.T) {
	// 2026-01-31 23:30 in Brasília is already February in UTC: the
	// month is Brasília's.
	now := time.Date(2026, 2, 1, 2, 30, 0, 0, time.UTC)
	tests := []struct {
		name, v string
		ok      bool
	}{
		{"OKAbsent", "", true},
		{"OKThisMonth", "01/26", true},
		{"OKThisMonthLongYear", "01/2026", true},
		{"OKLater", "12/2030", true},
		{"ErrLastMonth", "12/25", false},
		{"ErrMonth13", "13/30", false},
		{"ErrMonth0", "00/30", false},
		{"ErrNoSlash", "1230", false},
		{"ErrOneDigitMonth", "1/30", false},
		{"ErrThreeDigitYear", "01/203", false},
		{"OKISOLastDay", "2030-12-31", true},
		{"OKISOMonth", "2026-01", true},
		{"ErrISOLastMonth", "2025-12-31", false},
		{"ErrISOMonth13", "2030-13-01", false},
		{"ErrISOShort", "2030-1-31", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkValidade("validade", tt.v, now)
			if (err == nil) != tt.ok {
				t.Fatalf("checkValidade(%q) = %v, want ok %v", tt.v, err, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "validade") {
				t.Errorf("error does not name validade: %v", err)
			}
		})
	}
}
