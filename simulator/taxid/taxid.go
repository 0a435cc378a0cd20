package taxid

import (
	"fmt"
	"strings"
)

// NormalizeCNPJ strips the mask (. / -) and upper-cases letters.
func NormalizeCNPJ(s string) string {
	s = strings.NewReplacer(".", "", "/", "", "-", "", " ", "").Replace(s)
	return strings.ToUpper(s)
}

// CheckCNPJ reports why s is not a valid CNPJ, or nil. s must be unmasked:
// 12 characters of 0-9 or A-Z followed by 2 check digits. Each character is
// worth its ASCII code minus 48, so digits keep their classic value and the
// check digits of an all-numeric CNPJ are the classic ones.
func CheckCNPJ(s string) error {
	if len(s) != 14 {
		return fmt.Errorf("deve ter 14 caracteres, tem %d", len(s))
	}
	for i := 0; i < 14; i++ {
		c := s[i]
		digit := c >= '0' && c <= '9'
		letter := c >= 'A' && c <= 'Z'
		if i >= 12 && !digit {
			return fmt.Errorf("os dígitos verificadores (os dois últimos caracteres) devem ser dígitos")
		}
		if !digit && !letter {
			return fmt.Errorf("o caractere %d (%q) deve ser 0-9 ou A-Z", i+1, c)
		}
	}
	if strings.Count(s, s[:1]) == 14 {
		return fmt.Errorf("um caractere repetido não é um CNPJ")
	}
	d1 := cnpjDigit(s[:12])
	d2 := cnpjDigit(s[:12] + string(rune('0'+d1)))
	if int(s[12]-'0') != d1 || int(s[13]-'0') != d2 {
		return fmt.Errorf("os dígitos verificadores não conferem (esperado %d%d)", d1, d2)
	}
	return nil
}

func cnpjDigit(base string) int {
	sum, w := 0, 2
	for i := len(base) - 1; i >= 0; i-- {
		sum += int(base[i]-'0') * w
		w++
		if w > 9 {
			w = 2
		}
	}
	if r := sum % 11; r >= 2 {
		return 11 - r
	}
	return 0
}

// CheckCPF reports why s is not a valid CPF (11 digits, no mask), or nil.
func CheckCPF(s string) error {
	if len(s) != 11 {
		return fmt.Errorf("deve ter 11 dígitos, tem %d caracteres", len(s))
	}
	for i := 0; i < 11; i++ {
		if s[i] < '0' || s[i] > '9' {
			return fmt.Errorf("deve ter só dígitos")
		}
	}
	if strings.Count(s, s[:1]) == 11 {
		return fmt.Errorf("um dígito repetido não é um CPF")
	}
	for n := 9; n <= 10; n++ {
		sum := 0
		for i := 0; i < n; i++ {
			sum += int(s[i]-'0') * (n + 1 - i)
		}
		d := sum * 10 % 11 % 10
		if int(s[n]-'0') != d {
			return fmt.Errorf("os dígitos verificadores não conferem")
		}
	}
	return nil
}
