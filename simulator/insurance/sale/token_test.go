package sale

import "testing"

func TestOneTimeCode(t *testing.T) {
	a, b := oneTimeCode("id-1", 6), oneTimeCode("id-1", 6)
	if a != b || len(a) != 6 {
		t.Fatalf("codes %q %q: want the same 6 digits for one id", a, b)
	}
	if oneTimeCode("id-2", 6) == a {
		t.Fatalf("two ids gave the same code %q", a)
	}
	if c := oneTimeCode("id-1", 8); len(c) != 8 {
		t.Fatalf("size 8 gave %q", c)
	}
}

func TestIntField(t *testing.T) {
	tests := []struct {
		v       any
		want    int
		wantErr bool
	}{
		{nil, 5, false}, {"10", 10, false}, {float64(7), 7, false}, {"x", 0, true}, {"999", 0, true}, {true, 0, true},
	}
	for _, tt := range tests {
		got, err := intField(tt.v, 5, 1, 60)
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("intField(%v) = %d, %v", tt.v, got, err)
		}
	}
}
