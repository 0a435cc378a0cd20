package wire

import (
	"encoding/base64"

	"homologa/simulator/errs"
)

// MaxDocument bounds an attached document (decoded), as a real GED would.
const MaxDocument = 5 << 20

// DocumentSize decodes an attached document's base64 content and returns
// its size, the only thing of it the sandbox keeps; field names it in the
// 400 when it is not base64 or too large.
func DocumentSize(field, content string) (int, error) {
	raw, err := base64.StdEncoding.DecodeString(content)
	if err != nil {
		return 0, errs.Invalidf(field, "conteúdo não é base64 válido: %v", err)
	}
	if len(raw) > MaxDocument {
		return 0, errs.Invalidf(field, "documento de %d bytes excede o limite de %d", len(raw), MaxDocument)
	}
	return len(raw), nil
}
