package auth

import (
	"testing"

	"golang.org/x/crypto/bcrypt"
)

// The dummy hash an unknown email is checked against costs what an
// account's hash costs, or timing would tell which accounts exist.
func TestDummyHashCostsAsAnAccount(t *testing.T) {
	cost, err := bcrypt.Cost(dummyHash)
	if err != nil || cost != bcrypt.DefaultCost {
		t.Fatalf("cost %d, %v; want %d", cost, err, bcrypt.DefaultCost)
	}
	if err := bcrypt.CompareHashAndPassword(dummyHash, []byte("homologa-no-such-account")); err != nil {
		t.Fatal(err)
	}
}
