// Package jsondoc writes decoded JSON documents (maps, lists, strings,
// numbers, booleans) as JSON, byte for byte what encoding/json's Marshal
// writes for them, without its reflection.
//
// Why: encoding/json encodes a map[string]any through reflect, a value
// allocated per entry and its keys sorted as reflect values, and every
// Pix answer is such a map (decision record 0021). Any value of another
// type is handed to encoding/json as it is, so the output is always
// Marshal's. Pix documents and every JSON answer (httpx) are written by
// it.
package jsondoc
