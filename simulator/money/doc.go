// Package money is the one money type of the sandbox: integer cents of
// reais, parsed and formatted here for both domains. Pix writes money as a
// decimal string with two places ("123.45"); the insurer's APIs as a JSON
// number (123.45), and its clients send numbers or numeric strings.
package money
