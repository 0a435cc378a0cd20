// Package money is the one money type of the sandbox: integer cents of
// reais, parsed and formatted here for both domains. Pix writes money as a
// decimal string with two places ("123.45"); the insurer's APIs as a JSON
// number (123.45), and its clients send numbers or numeric strings.
//
// Rate is its exact decimal of eight places, for what is not yet a
// whole number of cents: rates, percentages and factors, and premiums
// before they are rounded. Both are integers, so every rule over them is
// integer arithmetic, rounded half away from zero where it says so; a
// float only ever meets them at the edge, where a decoded JSON number is
// read back as the decimal its sender wrote.
package money
