// Package brcode builds and checks the "Pix Copia e Cola" string of a dynamic
// Pix charge: an EMV® QRCPS merchant-presented payload as profiled by the BCB
// "Manual de Padrões para Iniciação do Pix" (the BR Code).
//
// A payload is a flat sequence of TLV fields: a 2-digit id, a 2-digit decimal
// length and the value. Templates (26 merchant account, 62 additional data,
// 80 Pix Automático, ...) nest the same TLV encoding inside their value. The
// last field is always 63, a CRC16-CCITT-FALSE over everything before its
// four hex digits, "6304" included.
//
// The package is pure: no I/O, no clock, standard library only.
package brcode
